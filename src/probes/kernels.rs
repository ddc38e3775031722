//! The only module allowed `unsafe`: calls into the CUDA driver through cudarc.
//! OWNER: helper "driver" (stub until filled in).
#![allow(unsafe_code)]
