//! Reading a JSON Lines file as it grows: only the bytes appended since the last read, up to
//! the last newline (a last line without its newline is being written, or torn by a crash,
//! and is read once its newline comes). A file renamed over the one read (a pruning or a
//! compaction: another device or inode, or the last bytes read no longer where they were,
//! since an inode number may be reused) or one that shrank is read again whole.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;

/// How many of the last bytes read are compared to tell the file read from another.
const CHECKED: usize = 64;

/// Where the reading of one file stands.
#[derive(Debug, Default)]
pub struct Tail {
    /// The file read: its device and inode.
    file: Option<(u64, u64)>,
    /// Bytes read: up to the last newline seen.
    parsed_to: u64,
    /// The file's length at the last read.
    len: u64,
    /// The last bytes read (up to [`CHECKED`]): still there, the file is the one read.
    last_read: Vec<u8>,
}

/// What a read found.
pub enum Grown {
    /// The same file, these complete lines appended since the last read.
    Appended(Vec<u8>),
    /// Another file (or the first read): all its complete lines; what was read before is
    /// to be forgotten.
    Anew(Vec<u8>),
}

impl Tail {
    /// Reads what `file` holds beyond what was read before.
    pub fn read(&mut self, file: &mut File) -> std::io::Result<Grown> {
        let meta = file.metadata()?;
        let identity = (meta.dev(), meta.ino());
        let anew = self.file != Some(identity)
            || meta.len() < self.parsed_to
            || !self.still_there(file)?;
        if anew {
            *self = Self {
                file: Some(identity),
                ..Self::default()
            };
        }
        self.len = meta.len();
        let mut bytes = Vec::new();
        if meta.len() > self.parsed_to {
            file.seek(SeekFrom::Start(self.parsed_to))?;
            bytes.reserve((meta.len() - self.parsed_to) as usize);
            file.take(meta.len() - self.parsed_to)
                .read_to_end(&mut bytes)?;
        }
        let complete = memchr::memrchr(b'\n', &bytes).map_or(0, |end| end + 1);
        bytes.truncate(complete);
        self.parsed_to += complete as u64;
        let keep = complete.min(CHECKED);
        self.last_read
            .drain(..self.last_read.len().saturating_sub(CHECKED - keep));
        self.last_read.extend_from_slice(&bytes[complete - keep..]);
        Ok(if anew {
            Grown::Anew(bytes)
        } else {
            Grown::Appended(bytes)
        })
    }

    /// Whether the last bytes read are still where they were read.
    fn still_there(&self, file: &mut File) -> std::io::Result<bool> {
        if self.last_read.is_empty() {
            return Ok(true);
        }
        let start = self.parsed_to - self.last_read.len() as u64;
        file.seek(SeekFrom::Start(start))?;
        let mut now = vec![0; self.last_read.len()];
        file.read_exact(&mut now)?;
        Ok(now == self.last_read)
    }

    /// Whether the file, as last read, is empty.
    pub fn is_empty_file(&self) -> bool {
        self.len == 0
    }

    /// Whether the file, as last read, ends with a line not ended (torn, or being written).
    pub fn ends_torn(&self) -> bool {
        self.len > self.parsed_to
    }
}

/// An index built line by line from a file read through a [`Tail`]: [`LineIndex::refresh`]
/// feeds it what was appended since the last read, and starts it afresh (its tail kept) when
/// the file was replaced.
pub trait LineIndex: Default {
    fn tail(&mut self) -> &mut Tail;

    /// Takes the complete lines `bytes` hold, from the file named `target` in messages.
    fn feed(&mut self, bytes: &[u8], target: &str);

    /// Reads what `file` (named `target` in messages) holds beyond what was read before.
    fn refresh(&mut self, file: &mut File, target: &str) -> std::io::Result<()> {
        match self.tail().read(file)? {
            Grown::Appended(bytes) => self.feed(&bytes, target),
            Grown::Anew(bytes) => {
                let tail = std::mem::take(self.tail());
                *self = Self::default();
                *self.tail() = tail;
                self.feed(&bytes, target);
            }
        }
        Ok(())
    }
}
