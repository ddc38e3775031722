//! The only module allowed `unsafe`: calls into the CUDA driver through cudarc.
//!
//! Everything here runs in the driver worker process, never in the doctor itself: a
//! broken driver may crash or hang, and cudarc panics when libcuda cannot be loaded.
//!
//! The entry points are called through signatures that return a plain `i32`, not
//! cudarc's `CUresult`: that is a Rust enum, and a driver newer (or stranger) than the
//! bindings can return a code outside it, which would be undefined behaviour the moment
//! the value is produced. The symbols come from cudarc's own loaded library handle, so
//! later cudarc work in this process talks to the same libcuda.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_uint, CStr};

/// A raw `CUresult`, exactly as the driver returned it.
pub type RawCuResult = i32;

/// Why an entry point could not be called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The library lacks the symbol (an older driver).
    MissingSymbol(String),
}

/// libcuda as cudarc loaded it.
pub struct CudaDriver {
    lib: &'static libloading::Library,
    /// The name that loaded, in cudarc's search order (e.g. "libcuda.so").
    pub loaded_name: String,
}

/// Loads libcuda the way cudarc does, without its panic when nothing loads.
/// `Err` lists every name tried and the loader's last complaint.
pub fn load_cuda() -> Result<CudaDriver, String> {
    let mut candidates = cudarc::get_lib_name_candidates("cuda");
    dedup_keep_order(&mut candidates);
    let mut last_error = String::new();
    for name in &candidates {
        // SAFETY: loading runs the library's initialisers; this is the worker process,
        // whose whole purpose is to survive or die on exactly that.
        match unsafe { libloading::Library::new(name.as_str()) } {
            Ok(probe) => {
                // SAFETY: a candidate loaded, so cudarc's identical search cannot panic;
                // it keeps its handle for the life of the process. The probe is held
                // until then so the library is not unloaded and loaded again.
                let lib = unsafe { cudarc::driver::sys::culib() };
                drop(probe);
                return Ok(CudaDriver {
                    lib,
                    loaded_name: name.clone(),
                });
            }
            Err(e) => last_error = error_chain(&e),
        }
    }
    Err(format!(
        "none of {} loaded (last error: {last_error})",
        candidates.join(", ")
    ))
}

/// libloading keeps dlerror's text in the error's source.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

fn dedup_keep_order(names: &mut Vec<String>) {
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(n.clone()));
}

impl CudaDriver {
    /// `cuInit(0)`.
    pub fn init(&self) -> Result<RawCuResult, CallError> {
        type F = unsafe extern "C" fn(c_uint) -> c_int;
        let f = self.symbol::<F>("cuInit")?;
        // SAFETY: signature from cuda.h; CUresult is returned as a C int.
        Ok(unsafe { f(0) })
    }

    /// `cuDriverGetVersion`: the CUDA version the driver supports, e.g. 12040. Works
    /// before and without a successful `cuInit`.
    pub fn driver_version(&self) -> Result<(RawCuResult, i32), CallError> {
        type F = unsafe extern "C" fn(*mut c_int) -> c_int;
        let f = self.symbol::<F>("cuDriverGetVersion")?;
        let mut version: c_int = 0;
        // SAFETY: the pointer is to a live local int.
        let rc = unsafe { f(&mut version) };
        Ok((rc, version))
    }

    /// `cuDeviceGetCount`.
    pub fn device_count(&self) -> Result<(RawCuResult, i32), CallError> {
        type F = unsafe extern "C" fn(*mut c_int) -> c_int;
        let f = self.symbol::<F>("cuDeviceGetCount")?;
        let mut count: c_int = 0;
        // SAFETY: the pointer is to a live local int.
        let rc = unsafe { f(&mut count) };
        Ok((rc, count))
    }

    /// The driver's own name for a code (`cuGetErrorName`); `None` when it has none.
    pub fn error_name(&self, code: RawCuResult) -> Option<String> {
        self.error_text("cuGetErrorName", code)
    }

    /// The driver's own description of a code (`cuGetErrorString`).
    pub fn error_string(&self, code: RawCuResult) -> Option<String> {
        self.error_text("cuGetErrorString", code)
    }

    fn error_text(&self, symbol: &str, code: RawCuResult) -> Option<String> {
        type F = unsafe extern "C" fn(c_int, *mut *const c_char) -> c_int;
        let f = self.symbol::<F>(symbol).ok()?;
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: the code is passed as the C int it is; the out-pointer is a live local.
        let rc = unsafe { f(code, &mut text) };
        if rc != 0 || text.is_null() {
            return None;
        }
        // SAFETY: on success the driver points at a static NUL-terminated string.
        let s = unsafe { CStr::from_ptr(text) };
        Some(s.to_string_lossy().into_owned())
    }

    fn symbol<F: Copy>(&self, name: &str) -> Result<F, CallError> {
        // SAFETY: every caller names the C signature of `name` from cuda.h as `F`, with
        // `CUresult` as `c_int`.
        match unsafe { self.lib.get::<F>(name) } {
            Ok(sym) => Ok(*sym),
            Err(e) => Err(CallError::MissingSymbol(format!("{name}: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_names_are_listed_once_in_order() {
        let mut names: Vec<String> = ["a", "b", "a", "c", "b"].map(String::from).into();
        dedup_keep_order(&mut names);
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn error_chains_keep_the_cause() {
        let inner = std::io::Error::other("cannot open shared object file");
        let outer = std::io::Error::new(std::io::ErrorKind::NotFound, inner);
        assert!(error_chain(&outer).contains("cannot open shared object file"));
    }
}
