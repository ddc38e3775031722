//! Reads the GPU architectures compiled into an ELF shared object from its
//! `.nv_fatbin` section, without loading it.
//!
//! A CUDA library such as `libtorch_cuda.so` is about 1 GB, nearly all of it device code,
//! so nothing here reads it whole: the ELF section headers come through `object` over a
//! lazy [`ReadCache`], and the fatbin is walked by reading only its small headers with
//! positioned reads, skipping every payload. On a real wheel this takes milliseconds.
//!
//! # The fatbin layout
//!
//! Nothing official documents it; this follows `fatbinary_section.h` (CUDA's public header
//! for the container header) and the per-entry header that independent parsers agree on
//! (n-eiling/cuda-fatbin-decompression `fatbin-decompress.h`, jiegec/fatbinary, the
//! cuobjdump-derived notes of GrigoryEvko/nvopen-tools), checked against real torch wheels
//! (`tests/real_wheels.rs`). All fields are little-endian.
//!
//! The section is a run of containers, one per translation unit:
//!
//! ```text
//! container header (16 bytes)
//!   0  u32 magic 0xBA55ED50      4  u16 version (1)    6  u16 header size (16)
//!   8  u64 size of the entries that follow
//! entry header (64 bytes or more; payload follows it)
//!   0  u16 kind: 1 PTX, 2 ELF (cubin)                   2  u16 entry version (0x0101)
//!   4  u32 header size           8  u64 payload size (padded; next entry follows it)
//!  16  u32 compressed size      20  u32 options offset
//!  24  u16 code minor           26  u16 code major      28  u32 arch, e.g. 90
//!  32  u32 name offset          36  u32 name length
//!  40  u64 flags: 0x1 64-bit, 0x2 debug, 0x10 Linux, 0x2000 LZ4, 0x8000 zstd payload
//!  48  u64 -                    56  u64 uncompressed size
//! ```
//!
//! A compressed entry only compresses its payload, so its header is read the same way.
//! Architecture-specific variants are not told apart by `arch`: see [`ARCH_SPECIFIC_FLAG`]
//! and [`FAMILY_SPECIFIC_FLAG`].

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use object::elf::{FileHeader32, FileHeader64};
use object::read::elf::{FileHeader, SectionHeader};
use object::read::ReadCache;
use object::{Endianness, FileKind};

use crate::fact::Fact;
use crate::facts::python::ArchList;

pub const SECTION: &str = ".nv_fatbin";
/// Start of the error for a file that is not ELF at all (callers walking folders skip those).
pub const NOT_ELF: &str = "not an ELF file";
const CONTAINER_MAGIC: u32 = 0xBA55_ED50;
const CONTAINER_HEADER_LEN: u64 = 16;
const ENTRY_HEADER_LEN: u64 = 64;
const KIND_PTX: u16 = 1;
const KIND_ELF: u16 = 2;
/// Entry flag of `sm_XXa` / `compute_XXa` code (runs only on that exact GPU).
pub const ARCH_SPECIFIC_FLAG: u64 = 0x0001_0000_0000;
/// Entry flag of `sm_XXf` / `compute_XXf` code (runs on the members of one family).
pub const FAMILY_SPECIFIC_FLAG: u64 = 0x0010_0000_0000;
/// A crafted file could hold millions of tiny entries; real libraries have tens of
/// thousands at most (libcublasLt: about 5,500).
const MAX_ENTRIES: usize = 500_000;

/// One fatbin entry header, as far as gpu-doctor needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub kind: u16,
    pub arch: u32,
    pub flags: u64,
}

impl Entry {
    fn suffix(&self) -> &'static str {
        if self.flags & ARCH_SPECIFIC_FLAG != 0 {
            "a"
        } else if self.flags & FAMILY_SPECIFIC_FLAG != 0 {
            "f"
        } else {
            ""
        }
    }

    /// `sm_90a` for a cubin, `compute_90` for PTX; `None` for other kinds (e.g. LTO IR).
    pub fn target(&self) -> Option<String> {
        let prefix = match self.kind {
            KIND_ELF => "sm",
            KIND_PTX => "compute",
            _ => return None,
        };
        Some(format!("{prefix}_{}{}", self.arch, self.suffix()))
    }
}

/// Positioned reads, so the walk works on a file and, in tests, on bytes.
pub trait ReadAt {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
}

impl ReadAt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        FileExt::read_exact_at(self, buf, offset)
    }
}

impl ReadAt for [u8] {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let start = usize::try_from(offset).map_err(std::io::Error::other)?;
        let src = start
            .checked_add(buf.len())
            .and_then(|end| self.get(start..end))
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::UnexpectedEof))?;
        buf.copy_from_slice(src);
        Ok(())
    }
}

/// The architectures in the `.nv_fatbin` section of the ELF file at `path`.
///
/// `Missing` when the file or the section is not there (a CPU-only build has no device
/// code), `Failed` when the file is not a readable ELF or its fatbin is damaged.
pub fn read_arch_list(path: &Path) -> Fact<ArchList> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Fact::missing(format!("{} does not exist", path.display()))
        }
        Err(e) => return Fact::failed(format!("cannot open {}: {e}", path.display())),
    };
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Fact::failed(format!("{} is not a regular file", path.display()))
        }
        Err(e) => return Fact::failed(format!("cannot stat {}: {e}", path.display())),
        Ok(_) => {}
    }
    let cache = ReadCache::new(file);
    let range = match find_section(&cache, SECTION) {
        Ok(Some(range)) => range,
        Ok(None) => {
            return Fact::missing(format!(
                "{} has no {SECTION} section (no CUDA device code: a CPU-only build?)",
                path.display()
            ))
        }
        Err(e) => return Fact::failed(format!("{}: {e}", path.display())),
    };
    let file = cache.into_inner();
    match read_entries(&file, range.0, range.1) {
        Ok(entries) => {
            let mut list = arch_list(&entries);
            list.libraries = vec![path.display().to_string()];
            Fact::known(list)
        }
        Err(e) => Fact::failed(format!("{}: {SECTION}: {e}", path.display())),
    }
}

/// The union of the arch lists of several libraries (old torch wheels split their device
/// code over `libtorch_cuda_cu.so` and `libtorch_cuda_cpp.so`). Libraries without device
/// code are skipped; a damaged one makes the whole fact `Failed`, since a partial list
/// would understate what the build supports.
pub fn read_arch_lists(paths: &[std::path::PathBuf]) -> Fact<ArchList> {
    if paths.is_empty() {
        return Fact::missing("no libtorch_cuda*.so found");
    }
    let mut merged: Option<ArchList> = None;
    let mut reasons = Vec::new();
    for path in paths {
        match read_arch_list(path) {
            Fact::Known { value } => {
                merged = Some(match merged {
                    None => value,
                    Some(acc) => merge(acc, value),
                })
            }
            Fact::Missing { why } | Fact::Unsupported { why } => reasons.push(why),
            failed @ Fact::Failed { .. } => return failed,
        }
    }
    match merged {
        Some(list) => Fact::known(list),
        None => Fact::missing(reasons.join("; ")),
    }
}

fn merge(a: ArchList, b: ArchList) -> ArchList {
    let join = |mut x: Vec<String>, y: Vec<String>| {
        x.extend(y);
        sort_targets(&mut x);
        x
    };
    ArchList {
        sass: join(a.sass, b.sass),
        ptx: join(a.ptx, b.ptx),
        arch_flags: join(a.arch_flags, b.arch_flags),
        libraries: [a.libraries, b.libraries].concat(),
    }
}

/// File offset and size of the named section; `None` when the file has no such section.
fn find_section(data: &ReadCache<File>, name: &str) -> Result<Option<(u64, u64)>, String> {
    match FileKind::parse(data) {
        Ok(FileKind::Elf64) => find_elf_section::<FileHeader64<Endianness>>(data, name),
        Ok(FileKind::Elf32) => find_elf_section::<FileHeader32<Endianness>>(data, name),
        Ok(other) => Err(format!("{NOT_ELF} ({other:?})")),
        Err(e) => Err(format!("{NOT_ELF} ({e})")),
    }
}

fn find_elf_section<H: FileHeader<Endian = Endianness>>(
    data: &ReadCache<File>,
    name: &str,
) -> Result<Option<(u64, u64)>, String> {
    let bad = |e: object::read::Error| format!("malformed ELF: {e}");
    let header = H::parse(data).map_err(bad)?;
    let endian = header.endian().map_err(bad)?;
    let sections = header.sections(endian, data).map_err(bad)?;
    for section in sections.iter() {
        if sections.section_name(endian, section).map_err(bad)? == name.as_bytes() {
            let range = section.file_range(endian);
            return Ok(range);
        }
    }
    Ok(None)
}

/// Walks the containers in `size` bytes at `offset`, reading headers only.
pub fn read_entries<R: ReadAt + ?Sized>(
    file: &R,
    offset: u64,
    size: u64,
) -> Result<Vec<Entry>, String> {
    let end = offset
        .checked_add(size)
        .ok_or("section size overflows the file offset")?;
    let mut entries = Vec::new();
    let mut pos = offset;
    while end.saturating_sub(pos) >= CONTAINER_HEADER_LEN {
        let mut head = [0u8; CONTAINER_HEADER_LEN as usize];
        read(file, &mut head, pos, "container header")?;
        let magic = le_u32(&head, 0);
        if magic != CONTAINER_MAGIC {
            if head.iter().all(|b| *b == 0) {
                // Alignment padding between containers.
                pos += CONTAINER_HEADER_LEN;
                continue;
            }
            return Err(format!(
                "no fatbin container at offset {pos:#x} (magic {magic:#010x}, expected {CONTAINER_MAGIC:#010x})"
            ));
        }
        let header_len = u64::from(le_u16(&head, 6));
        let body_len = le_u64(&head, 8);
        if header_len < CONTAINER_HEADER_LEN {
            return Err(format!(
                "fatbin container at {pos:#x} has a header size of {header_len}"
            ));
        }
        let body = pos + header_len;
        let container_end = body
            .checked_add(body_len)
            .filter(|e| *e <= end)
            .ok_or_else(|| {
                format!("fatbin container at {pos:#x} ({body_len} bytes) runs past the section end (truncated?)")
            })?;
        read_container(file, body, container_end, &mut entries)?;
        pos = container_end;
    }
    if entries.is_empty() {
        return Err("the section holds no fatbin entries".into());
    }
    Ok(entries)
}

fn read_container<R: ReadAt + ?Sized>(
    file: &R,
    mut pos: u64,
    end: u64,
    entries: &mut Vec<Entry>,
) -> Result<(), String> {
    while end.saturating_sub(pos) >= ENTRY_HEADER_LEN {
        let mut h = [0u8; ENTRY_HEADER_LEN as usize];
        read(file, &mut h, pos, "entry header")?;
        let header_len = u64::from(le_u32(&h, 4));
        let payload_len = le_u64(&h, 8);
        if header_len < ENTRY_HEADER_LEN {
            return Err(format!(
                "fatbin entry at {pos:#x} has a header size of {header_len}"
            ));
        }
        if entries.len() >= MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} fatbin entries"));
        }
        entries.push(Entry {
            kind: le_u16(&h, 0),
            arch: le_u32(&h, 28),
            flags: le_u64(&h, 40),
        });
        pos = pos
            .checked_add(header_len)
            .and_then(|p| p.checked_add(payload_len))
            .filter(|p| *p <= end)
            .ok_or_else(|| {
                format!("fatbin entry at {pos:#x} ({payload_len} bytes) runs past its container")
            })?;
    }
    Ok(())
}

fn read<R: ReadAt + ?Sized>(file: &R, buf: &mut [u8], pos: u64, what: &str) -> Result<(), String> {
    file.read_exact_at(buf, pos)
        .map_err(|e| format!("cannot read the {what} at {pos:#x}: {e}"))
}

/// The sorted, de-duplicated targets of `entries`, and the list torch reports.
///
/// `torch.cuda.get_arch_list()` is `torch._C._cuda_getArchFlags().split()`, a string fixed
/// at build time from `TORCH_CUDA_ARCH_LIST`: one `sm_XX` per listed arch and a
/// `compute_XX` for a `+PTX` arch. Arch-specific cubins (`sm_90a`, `sm_100a`) come from
/// kernels compiled apart with their own flags (CUTLASS, FlashAttention) and are not in it.
/// So the flags are the plain SASS targets plus the plain PTX targets, without
/// suffixed variants; `tests/real_wheels.rs` checks this against what torch prints.
pub fn arch_list(entries: &[Entry]) -> ArchList {
    let mut sass = Vec::new();
    let mut ptx = Vec::new();
    for e in entries {
        match (e.kind, e.target()) {
            (KIND_ELF, Some(t)) => sass.push(t),
            (KIND_PTX, Some(t)) => ptx.push(t),
            _ => {}
        }
    }
    sort_targets(&mut sass);
    sort_targets(&mut ptx);
    let plain = |t: &&String| !t.ends_with(['a', 'f']);
    let mut arch_flags: Vec<String> = sass.iter().filter(plain).cloned().collect();
    arch_flags.extend(ptx.iter().filter(plain).cloned());
    ArchList {
        sass,
        ptx,
        arch_flags,
        libraries: Vec::new(),
    }
}

/// Sorts "sm_100" after "sm_90" (by number, then suffix) and drops duplicates.
pub fn sort_targets(targets: &mut Vec<String>) {
    targets.sort_by_key(|t| target_key(t));
    targets.dedup();
}

fn target_key(target: &str) -> (bool, u32, String) {
    let (prefix, rest) = target.split_once('_').unwrap_or((target, ""));
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let number = digits.parse().unwrap_or(u32::MAX);
    (prefix == "compute", number, target.to_string())
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    let mut a = [0u8; 2];
    a.copy_from_slice(&b[at..at + 2]);
    u16::from_le_bytes(a)
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}
