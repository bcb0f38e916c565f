//! Reading the newest lines of a JSON Lines file from its end, in blocks: the work is
//! bounded by [`MAX_SCAN_BYTES`] whatever the length of the file.

use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::path::Path;

/// Bytes read per step, backwards from the end.
const BLOCK_BYTES: u64 = 64 * 1024;

/// At most this many bytes from the end are searched (older lines are not looked at).
pub const MAX_SCAN_BYTES: u64 = 8 * 1024 * 1024;

/// The newest lines `keep` accepts (it answers `None` for lines to skip), newest first,
/// at most `limit`. A missing file has no lines.
pub fn newest_lines<T>(
    path: &Path,
    limit: usize,
    mut keep: impl FnMut(&[u8]) -> Option<T>,
) -> std::io::Result<Vec<T>> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut end = file.metadata()?.len();
    let floor = end.saturating_sub(MAX_SCAN_BYTES);
    let mut found = Vec::new();
    // The start of a line that began before the block read last.
    let mut carry = Vec::new();
    while end > floor && found.len() < limit {
        let start = end.saturating_sub(BLOCK_BYTES).max(floor);
        let mut block = read_range(&mut file, start, end)?;
        block.append(&mut carry);
        let (head, complete) = match memchr::memchr(b'\n', &block) {
            _ if start == 0 => (&[][..], &block[..]),
            Some(i) => (&block[..i], &block[i + 1..]),
            None => (&block[..], &[][..]),
        };
        for line in lines_backwards(complete) {
            if found.len() >= limit {
                break;
            }
            found.extend(keep(line));
        }
        carry = head.to_vec();
        end = start;
    }
    Ok(found)
}

/// The lines of `bytes`, the last first, empty ones skipped (newlines found with `memchr`:
/// every versions page reads megabytes of log back).
fn lines_backwards(mut bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    std::iter::from_fn(move || loop {
        if bytes.is_empty() {
            return None;
        }
        let (rest, line) = match memchr::memrchr(b'\n', bytes) {
            Some(i) => (&bytes[..i], &bytes[i + 1..]),
            None => (&[][..], bytes),
        };
        bytes = rest;
        if !line.is_empty() {
            return Some(line);
        }
    })
}

fn read_range(file: &mut File, start: u64, end: u64) -> std::io::Result<Vec<u8>> {
    let mut block = vec![0; usize::try_from(end - start).unwrap_or(0)];
    file.seek(SeekFrom::Start(start))?;
    file.read_exact(&mut block)?;
    Ok(block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn numbers(path: &Path, limit: usize) -> Vec<u64> {
        newest_lines(path, limit, |line| {
            std::str::from_utf8(line).ok()?.parse().ok()
        })
        .unwrap()
    }

    #[test]
    fn lines_come_newest_first_across_block_boundaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let mut file = File::create(&path).unwrap();
        // Lines of varied length, about 3 blocks in all, so that lines straddle blocks.
        for n in 0..40_000u64 {
            writeln!(file, "{n:0width$}", width = 1 + (n % 7) as usize).unwrap();
        }
        assert_eq!(numbers(&path, 3), [39_999, 39_998, 39_997]);
        let all = numbers(&path, usize::MAX);
        assert_eq!(all.len(), 40_000);
        assert!(
            all.windows(2).all(|w| w[0] == w[1] + 1),
            "every line once, in order"
        );
    }

    #[test]
    fn skipped_lines_do_not_count_and_a_missing_file_has_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        assert!(numbers(&path, 5).is_empty());
        std::fs::write(&path, "1\nnot a number\n2\n\n3").unwrap();
        assert_eq!(numbers(&path, 5), [3, 2, 1]);
        assert_eq!(numbers(&path, 2), [3, 2]);
    }

    #[test]
    fn only_the_newest_part_of_a_huge_file_is_searched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let mut file = File::create(&path).unwrap();
        writeln!(file, "7").unwrap();
        let filler = format!("{}\n", "x".repeat(1023));
        for _ in 0..(MAX_SCAN_BYTES / 1024 + 1) {
            file.write_all(filler.as_bytes()).unwrap();
        }
        assert!(
            numbers(&path, 1).is_empty(),
            "the line beyond the bound is not read"
        );
    }
}
