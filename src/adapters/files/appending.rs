//! How a line is appended to the file of a JSON Lines store, the one way every store does it:
//! to the locked file, in one write, synced before it returns; a torn last line (a write that
//! never returned) is ended first, so that it stays one unreadable line instead of swallowing
//! the line appended after it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

/// Whether the locked `file` ends with a torn line (its last byte is not a newline): only
/// that byte is read. A store that keeps an index of its file knows it without reading.
pub(super) fn ends_torn(file: &mut File) -> std::io::Result<bool> {
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))?;
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Appends `line` (one JSON object, without its newline) to the locked `file`, after a
/// newline ending a torn last line (`torn`), in one write, and syncs it.
pub(super) fn append_line(file: &mut File, torn: bool, line: &[u8]) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(line.len() + 2);
    if torn {
        out.push(b'\n');
    }
    out.extend_from_slice(line);
    out.push(b'\n');
    file.write_all(&out)?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn appended(before: &[u8], line: &[u8]) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.jsonl");
        std::fs::write(&path, before).unwrap();
        let mut file = super::super::requests::open_locked(&path).unwrap();
        let torn = ends_torn(&mut file).unwrap();
        append_line(&mut file, torn, line).unwrap();
        std::fs::read(&path).unwrap()
    }

    #[test]
    fn a_line_goes_after_whole_lines_and_a_torn_one_is_ended_first() {
        assert_eq!(appended(b"", b"{\"a\":1}"), b"{\"a\":1}\n");
        assert_eq!(
            appended(b"{\"a\":1}\n", b"{\"b\":2}"),
            b"{\"a\":1}\n{\"b\":2}\n"
        );
        assert_eq!(
            appended(b"{\"a\":1}\n{\"to", b"{\"b\":2}"),
            b"{\"a\":1}\n{\"to\n{\"b\":2}\n"
        );
    }
}
