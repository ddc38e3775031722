//! Writing a report, metrics or labels where the user asked (`--save`, `--prometheus`,
//! `--labels`, the terminal UI's `s`): one function for all of them, because each copy
//! once had to learn the same two lessons.
//!
//! - A regular file (or a new one) is written beside its place and renamed into it, so a
//!   reader (node_exporter, a script polling the file) never sees half a report.
//! - Anything else that already exists (a FIFO, `/dev/stdout`, a character device) is
//!   written in place: renaming over it would replace a device node or a pipe with a file,
//!   or fail. A FIFO that nobody reads is refused at once instead of blocking the doctor
//!   forever on `open`.

use std::io::{self, Write as _};
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::path::Path;

use nix::fcntl::{fcntl, FcntlArg, OFlag};

/// Writes `text` to `path`: through a temporary file and a rename for a regular file, in
/// place for a pipe or a device.
pub fn write(path: &Path, text: &str) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => write_in_place(path, text, m.file_type().is_fifo()),
        _ => write_by_rename(path, text),
    }
}

fn write_by_rename(path: &Path, text: &str) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or("gpu-doctor".into(), |n| n.to_string_lossy().into_owned());
    // Dot-first and ".tmp"-last: node_exporter reads only *.prom, and `ls` hides it.
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn write_in_place(path: &Path, text: &str, fifo: bool) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if fifo {
        // open(O_WRONLY) on a FIFO waits for a reader; O_NONBLOCK answers ENXIO instead.
        options.custom_flags(OFlag::O_NONBLOCK.bits());
    }
    let mut file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(nix::libc::ENXIO) {
            io::Error::new(
                io::ErrorKind::BrokenPipe,
                "a FIFO that nothing reads (start its reader first)",
            )
        } else {
            e
        }
    })?;
    if fifo {
        // With a reader there, block as a pipe normally does rather than fail on a full one.
        fcntl(&file, FcntlArg::F_SETFL(OFlag::empty())).map_err(io::Error::from)?;
    }
    file.write_all(text.as_bytes())?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_replaced_whole_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("gpu.prom");
        write(&p, "a 1\n").unwrap();
        write(&p, "a 2\n").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a 2\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_fifo_without_a_reader_is_refused_at_once_and_stays_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("report.fifo");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let started = std::time::Instant::now();
        let e = write(&p, "{}\n").unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(e.to_string().contains("nothing reads"), "{e}");
        assert!(std::fs::metadata(&p).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_fifo_with_a_reader_gets_the_whole_text_even_past_a_pipe_buffer() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("report.fifo");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // O_RDWR opens without waiting for a writer, so the reader is there before write().
        let reader = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&p)
            .unwrap();
        let text = "x".repeat(300 * 1024);
        let expected = text.len();
        let read = std::thread::spawn(move || {
            let mut reader = reader;
            let mut buf = vec![0u8; expected];
            std::io::Read::read_exact(&mut reader, &mut buf).map(|()| buf.len())
        });
        write(&p, &text).unwrap();
        assert_eq!(read.join().unwrap().unwrap(), expected);
        assert!(std::fs::metadata(&p).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let e = write(Path::new("/nonexistent/dir/report.json"), "{}").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }
}
