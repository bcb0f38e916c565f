//! `FileCveIndex`: the CVE index as one JSON file (`cve-index.json` in the diffs' directory),
//! written whole to a temporary name and renamed, so that a reader sees the whole index or
//! the one before. A file that cannot be read is logged and answered as missing (the index
//! is then built again from Pulp).

use std::io::ErrorKind;
use std::path::PathBuf;

use async_trait::async_trait;

use crate::domain::exposure::CveIndex;
use crate::ports::{CveIndexStore, CveIndexStoreError};

/// The file's name in its directory.
pub const FILE_NAME: &str = "cve-index.json";

pub struct FileCveIndex {
    path: PathBuf,
}

impl FileCveIndex {
    /// The index kept in `dir` (created when missing).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        Self {
            path: dir.into().join(FILE_NAME),
        }
    }

    fn error(&self, reason: impl ToString) -> CveIndexStoreError {
        CveIndexStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }
}

#[async_trait]
impl CveIndexStore for FileCveIndex {
    async fn load(&self) -> Result<Option<CveIndex>, CveIndexStoreError> {
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || std::fs::read(&path))
            .await
            .map_err(|e| self.error(e))?;
        let bytes = match read {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.error(e)),
        };
        match serde_json::from_slice(&bytes) {
            Ok(index) => Ok(Some(index)),
            Err(error) => {
                tracing::warn!(path = %self.path.display(), %error, "the CVE index cannot be read; building it again");
                Ok(None)
            }
        }
    }

    async fn save(&self, index: &CveIndex) -> Result<(), CveIndexStoreError> {
        let bytes = serde_json::to_vec(index).map_err(|e| self.error(e))?;
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
            std::fs::write(&temporary, &bytes)?;
            std::fs::rename(&temporary, &path)
        })
        .await
        .map_err(|e| self.error(e))?
        .map_err(|e| self.error(e))
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::exposure::{CveId, IndexedAdvisory};

    #[tokio::test]
    async fn an_index_saved_is_loaded_back_and_a_damaged_one_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileCveIndex::in_dir(dir.path().join("diffs"));
        assert_eq!(store.load().await.unwrap(), None);
        let mut index = CveIndex::default();
        index.add_page(
            vec![IndexedAdvisory {
                href: "/a/".into(),
                id: "RHSA-1".into(),
                created: chrono::Utc::now(),
                cves: [CveId::parse("CVE-2026-1111").unwrap()].into(),
            }],
            None,
            true,
        );
        store.save(&index).await.unwrap();
        assert_eq!(store.load().await.unwrap(), Some(index));
        std::fs::write(dir.path().join("diffs").join(FILE_NAME), b"{not json").unwrap();
        assert_eq!(store.load().await.unwrap(), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Issue 43: any index is written with no key twice and read back as it was.
        #[test]
        fn any_index_is_written_without_a_key_twice_and_read_back(
            page in proptest::collection::vec(
                ("/[a-z0-9/]{0,20}", ".{0,20}", 0i64..4_000_000_000, proptest::collection::btree_set(0u32..99_999, 0..3)),
                0..6,
            ),
            refreshed in proptest::option::of(0i64..4_000_000_000),
        ) {
            use chrono::TimeZone;
            let at = |s: i64| chrono::Utc.timestamp_opt(s, 0).single().unwrap();
            let mut index = CveIndex::default();
            let page = page
                .into_iter()
                .map(|(href, id, created, cves)| IndexedAdvisory {
                    href,
                    id,
                    created: at(created),
                    cves: cves
                        .into_iter()
                        .map(|n| CveId::parse(&format!("CVE-2026-{n:04}")).unwrap())
                        .collect(),
                })
                .collect();
            index.add_page(page, None, true);
            if let Some(s) = refreshed {
                index.refreshed_at(at(s));
            }
            let dir = tempfile::tempdir().unwrap();
            let store = FileCveIndex::in_dir(dir.path());
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let loaded = runtime.block_on(async {
                store.save(&index).await.unwrap();
                FileCveIndex::in_dir(dir.path()).load().await.unwrap()
            });
            let bytes = std::fs::read(dir.path().join(FILE_NAME)).unwrap();
            let written = crate::domain::record_keys::Written::parse(&bytes).unwrap();
            proptest::prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new());
            proptest::prop_assert_eq!(loaded, Some(index));
        }
    }
}
