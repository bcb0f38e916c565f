//! `FileDiffStore`: computed diffs as files of one directory (by default `diffs/` beside the
//! audit file), one per diff, named by the SHA-256 of its key (`<hex>.json.gz`, see
//! [`crate::adapters::shared::diff_codec`]). A file is written whole to a temporary name and renamed: a reader
//! sees the whole diff or none. The directory is kept within a number of bytes by deleting
//! the least recently written files. A file that cannot be read or decoded is a miss (logged),
//! written again once the diff is computed again.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use async_trait::async_trait;

use crate::domain::diff::{DiffKey, VersionDiff};
use crate::ports::{DiffStore, DiffStoreError};

use crate::adapters::shared::diff_codec::{decode, encode, key_hash};

const SUFFIX: &str = ".json.gz";
const TEMPORARY: &str = ".tmp-";
/// A temporary file older than this was left by a process that stopped mid-write.
const ABANDONED: Duration = Duration::from_secs(3600);

pub struct FileDiffStore {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    max_bytes: u64,
    /// The bytes the directory holds: counted at the first write, then kept up to date by this
    /// process's writes and counted again at each pruning (other processes may share it).
    held: Mutex<Option<u64>>,
    /// Makes each temporary name unique within the process.
    writes: AtomicU64,
}

impl FileDiffStore {
    /// Diffs kept in `dir` (created when missing), at most `max_bytes` of them.
    pub fn new(dir: impl Into<PathBuf>, max_bytes: u64) -> Self {
        Self {
            inner: Arc::new(Inner {
                dir: dir.into(),
                max_bytes,
                held: Mutex::new(None),
                writes: AtomicU64::new(0),
            }),
        }
    }

    /// The file of `key`.
    pub fn path_of(&self, key: &DiffKey) -> PathBuf {
        self.inner.path_of(key)
    }

    fn error(&self, reason: impl ToString) -> DiffStoreError {
        DiffStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }
}

#[async_trait]
impl DiffStore for FileDiffStore {
    async fn get(&self, key: &DiffKey) -> Result<Option<VersionDiff>, DiffStoreError> {
        let (inner, key) = (self.inner.clone(), key.clone());
        tokio::task::spawn_blocking(move || inner.read(&key))
            .await
            .map_err(|e| self.error(e))
    }

    async fn put(&self, key: &DiffKey, diff: &VersionDiff) -> Result<(), DiffStoreError> {
        let bytes = encode(key, diff).map_err(|e| self.error(e))?;
        let (inner, key) = (self.inner.clone(), key.clone());
        tokio::task::spawn_blocking(move || inner.write(&key, &bytes))
            .await
            .map_err(|e| self.error(e))?
            .map_err(|e| self.error(e))
    }

    fn target(&self) -> String {
        self.inner.dir.display().to_string()
    }
}

impl Inner {
    fn path_of(&self, key: &DiffKey) -> PathBuf {
        self.dir.join(format!("{}{SUFFIX}", key_hash(key)))
    }

    /// The diff, or `None` when its file is missing or unusable (logged).
    fn read(&self, key: &DiffKey) -> Option<VersionDiff> {
        let path = self.path_of(key);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => return None,
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "a stored diff cannot be read; computing it again");
                return None;
            }
        };
        decode(&bytes, key)
            .inspect_err(|error| {
                tracing::warn!(path = %path.display(), %error, "a stored diff is damaged; computing it again");
            })
            .ok()
    }

    fn write(&self, key: &DiffKey, bytes: &[u8]) -> std::io::Result<()> {
        let size = bytes.len() as u64;
        if size > self.max_bytes {
            tracing::debug!(size, "a diff larger than the store's bound is not stored");
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir)?;
        let path = self.path_of(key);
        let n = self.writes.fetch_add(1, Ordering::Relaxed);
        let temporary = self
            .dir
            .join(format!("{TEMPORARY}{}-{n}", std::process::id()));
        std::fs::write(&temporary, bytes)
            .and_then(|()| {
                let replaced = std::fs::metadata(&path).map_or(0, |m| m.len());
                std::fs::rename(&temporary, &path)?;
                self.count(size, replaced)
            })
            .inspect_err(|_| {
                let _ = std::fs::remove_file(&temporary);
            })
    }

    /// Adds a file of `size` bytes that replaced one of `replaced`, and prunes when over.
    fn count(&self, size: u64, replaced: u64) -> std::io::Result<()> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let now = match *held {
            Some(bytes) => (bytes + size).saturating_sub(replaced),
            None => files(&self.dir)?.iter().map(|f| f.size).sum(),
        };
        *held = Some(now);
        if now > self.max_bytes {
            *held = Some(self.prune()?);
        }
        Ok(())
    }

    /// Deletes the least recently written files until nine tenths of the bound are held
    /// (so that the next writes do not prune each time); answers the bytes left.
    fn prune(&self) -> std::io::Result<u64> {
        let mut all = files(&self.dir)?;
        all.sort_by_key(|f| f.written);
        let mut held: u64 = all.iter().map(|f| f.size).sum();
        let target = self.max_bytes / 10 * 9;
        let mut deleted = 0;
        for file in all {
            if held <= target {
                break;
            }
            match std::fs::remove_file(&file.path) {
                Ok(()) => deleted += 1,
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
            held -= file.size;
        }
        tracing::info!(deleted, held, dir = %self.dir.display(), "stored diffs pruned to the bound (diffs.max_disk_mb)");
        Ok(held)
    }
}

struct File {
    path: PathBuf,
    size: u64,
    written: SystemTime,
}

/// The stored diffs of `dir`, and the temporary files abandoned there (which prune first).
fn files(dir: &Path) -> std::io::Result<Vec<File>> {
    let now = SystemTime::now();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(meta) = entry.metadata() else { continue };
        let written = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let abandoned = name.starts_with(TEMPORARY)
            && now.duration_since(written).unwrap_or_default() > ABANDONED;
        if meta.is_file() && (name.ends_with(SUFFIX) || abandoned) {
            let written = if abandoned {
                SystemTime::UNIX_EPOCH
            } else {
                written
            };
            found.push(File {
                path: entry.path(),
                size: meta.len(),
                written,
            });
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::{ChangeKind, Evr, PackageChange};
    use crate::domain::repository::VersionHref;

    fn diff_of(n: usize) -> VersionDiff {
        let packages = (0..n)
            .map(|i| PackageChange {
                name: format!("package-{i}"),
                arch: "x86_64".into(),
                kind: ChangeKind::Upgraded,
                old: vec![Evr::new(0, format!("1.{i}"), "1.el9")],
                new: vec![Evr::new(0, format!("2.{i}"), "1.el9")],
                security: i % 7 == 0,
                kept: None,
            })
            .collect();
        VersionDiff {
            packages,
            ..VersionDiff::default()
        }
    }

    fn key(n: u64) -> DiffKey {
        let repo = "/pulp/api/v3/repositories/rpm/rpm/0199a1b2-0000-7000-8000-00000000000a";
        (
            Some(VersionHref::new(format!("{repo}/versions/{n}/"))),
            VersionHref::new(format!("{repo}/versions/{}/", n + 1)),
        )
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[tokio::test]
    async fn a_diff_put_is_got_back_by_any_store_of_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileDiffStore::new(dir.path().join("diffs"), 1 << 20);
        assert!(store.get(&key(1)).await.unwrap().is_none(), "nothing yet");
        store.put(&key(1), &diff_of(40)).await.unwrap();
        assert_eq!(store.get(&key(1)).await.unwrap(), Some(diff_of(40)));
        let another = FileDiffStore::new(dir.path().join("diffs"), 1 << 20);
        assert_eq!(another.get(&key(1)).await.unwrap(), Some(diff_of(40)));
        assert!(another.get(&key(2)).await.unwrap().is_none());
        let names = names_in(&dir.path().join("diffs"));
        assert_eq!(names, [format!("{}.json.gz", key_hash(&key(1)))]);
    }

    #[tokio::test]
    async fn a_reader_never_sees_a_partly_written_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(FileDiffStore::new(dir.path(), 64 << 20));
        let big = diff_of(3_000);
        store.put(&key(1), &big).await.unwrap();
        // Written again and again (as two replicas computing it at once would), while read:
        // each read finds the whole diff (a partial file would read as a miss).
        let writer = {
            let (store, big) = (store.clone(), big.clone());
            tokio::spawn(async move {
                for _ in 0..4 {
                    store.put(&key(1), &big).await.unwrap();
                }
            })
        };
        let mut reads = 0;
        while !writer.is_finished() || reads == 0 {
            let got = store.get(&key(1)).await.unwrap();
            assert!(
                got.as_ref() == Some(&big),
                "read {reads} found no whole diff"
            );
            reads += 1;
        }
        writer.await.unwrap();
        // A file cut short (say, by a crash of a writer that wrote in place) is a miss.
        let path = store.path_of(&key(1));
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        assert!(store.get(&key(1)).await.unwrap().is_none());
        assert_eq!(names_in(dir.path()).len(), 1, "no temporary file is left");
    }

    #[tokio::test]
    async fn a_damaged_or_unreadable_file_is_a_miss_and_is_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileDiffStore::new(dir.path(), 1 << 20);
        std::fs::write(store.path_of(&key(1)), b"not a diff").unwrap();
        assert_eq!(store.get(&key(1)).await.unwrap(), None);
        // Another key's diff under this key's name (a file copied by hand) is not believed.
        store.put(&key(2), &diff_of(3)).await.unwrap();
        std::fs::copy(store.path_of(&key(2)), store.path_of(&key(1))).unwrap();
        assert_eq!(store.get(&key(1)).await.unwrap(), None);
        // A directory where the file should be: unreadable, still a miss.
        std::fs::remove_file(store.path_of(&key(1))).unwrap();
        std::fs::create_dir(store.path_of(&key(1))).unwrap();
        assert_eq!(store.get(&key(1)).await.unwrap(), None);
        std::fs::remove_dir(store.path_of(&key(1))).unwrap();
        store.put(&key(1), &diff_of(5)).await.unwrap();
        assert_eq!(store.get(&key(1)).await.unwrap(), Some(diff_of(5)));
    }

    #[tokio::test]
    async fn over_its_bound_the_store_forgets_the_least_recently_written_files() {
        let dir = tempfile::tempdir().unwrap();
        let one = encode(&key(0), &diff_of(200)).unwrap().len() as u64;
        // Room for four diffs and a half.
        let store = FileDiffStore::new(dir.path(), one * 9 / 2);
        let start = SystemTime::now() - Duration::from_secs(600);
        for n in 0..4 {
            store.put(&key(n), &diff_of(200)).await.unwrap();
            // Written a minute apart, key(0) first (whatever the clock's resolution).
            let file = std::fs::File::options()
                .write(true)
                .open(store.path_of(&key(n)))
                .unwrap();
            file.set_modified(start + Duration::from_secs(60 * n))
                .unwrap();
        }
        assert_eq!(names_in(dir.path()).len(), 4, "within the bound");
        store.put(&key(4), &diff_of(200)).await.unwrap();
        // Over (5 diffs): pruned to nine tenths of the bound (4.05 diffs): the oldest goes.
        assert!(store.get(&key(0)).await.unwrap().is_none());
        for n in 1..5 {
            assert!(store.get(&key(n)).await.unwrap().is_some(), "key {n}");
        }
        let held: u64 = files(dir.path()).unwrap().iter().map(|f| f.size).sum();
        assert!(held <= one * 9 / 2, "{held}");
        // A diff larger than the whole bound is not stored (and evicts nothing).
        store.put(&key(9), &diff_of(2_000)).await.unwrap();
        assert!(store.get(&key(9)).await.unwrap().is_none());
        assert_eq!(names_in(dir.path()).len(), 4);
    }
}
