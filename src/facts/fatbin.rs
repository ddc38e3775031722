//! Reads the GPU architectures compiled into an ELF shared object from its
//! `.nv_fatbin` section, without loading it.
//! OWNER: helper "python" (stub until filled in).

use std::path::Path;

use crate::fact::Fact;
use crate::facts::python::ArchList;

pub fn read_arch_list(_path: &Path) -> Fact<ArchList> {
    Fact::missing("not implemented")
}
