//! How a stored diff is written, by the file store and the PostgreSQL store alike: its key
//! and the diff as one JSON object, gzip'd (a diff's JSON repeats its field names and
//! package names; gzip takes it to about a tenth, see `cargo bench --bench diff`). The key is
//! kept inside so that a diff is never read back as another's.

use flate2::{read::GzDecoder, write::GzEncoder, Compression};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::domain::diff::{DiffKey, VersionDiff};
use crate::domain::repository::VersionHref;

/// The meaning of a stored diff: raise it whenever what a diff holds or how it is computed
/// changes, so that diffs stored by an earlier console are not believed (they read as misses,
/// and are computed and stored again).
pub const FORMAT: u32 = 3;

#[derive(Serialize)]
struct Stored<'a> {
    format: u32,
    from: Option<&'a str>,
    to: &'a str,
    diff: &'a VersionDiff,
}

#[derive(Deserialize)]
struct Loaded {
    format: u32,
    from: Option<String>,
    to: String,
    diff: VersionDiff,
}

/// The stored form of `diff` under `key`.
pub fn encode(key: &DiffKey, diff: &VersionDiff) -> Result<Vec<u8>, String> {
    let stored = Stored {
        format: FORMAT,
        from: key.0.as_ref().map(VersionHref::as_str),
        to: key.1.as_str(),
        diff,
    };
    // Level 1: the fastest; on diffs a level 6 is ~10% smaller for twice the time.
    // serde_json writes a field at a time: buffered, the compressor is called per 64 KiB.
    let gz = GzEncoder::new(Vec::new(), Compression::fast());
    let mut json = std::io::BufWriter::with_capacity(64 << 10, gz);
    serde_json::to_writer(&mut json, &stored).map_err(|e| e.to_string())?;
    let gz = json.into_inner().map_err(|e| e.to_string())?;
    gz.finish().map_err(|e| e.to_string())
}

/// The diff `bytes` hold, checked to be the one `key` names. Read as a stream (no buffer of
/// the whole JSON, 10 times the stored size: large transient buffers are what makes a
/// process's resident memory grow and stay grown).
pub fn decode(bytes: &[u8], key: &DiffKey) -> Result<VersionDiff, String> {
    let json = std::io::BufReader::with_capacity(64 << 10, GzDecoder::new(bytes));
    let read: Loaded = serde_json::from_reader(json).map_err(|e| format!("not a diff: {e}"))?;
    if read.format != FORMAT {
        return Err(format!("stored in format {}, not {FORMAT}", read.format));
    }
    let from = key.0.as_ref().map(|h| h.as_str().to_owned());
    if read.from != from || read.to != key.1.as_str() {
        return Err(format!(
            "holds the diff of {:?} to {}, not the one asked for",
            read.from, read.to
        ));
    }
    Ok(read.diff)
}

/// A name for `key`: the SHA-256 of its two hrefs, in hex (64 characters, safe in a file name).
pub fn key_hash(key: &DiffKey) -> String {
    let mut hasher = Sha256::new();
    match &key.0 {
        Some(from) => {
            hasher.update(b"from ");
            hasher.update(from.as_str().as_bytes());
        }
        None => hasher.update(b"from nothing"),
    }
    hasher.update(b"\nto ");
    hasher.update(key.1.as_str().as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::{ChangeKind, Evr, PackageChange};

    fn key(from: Option<&str>, to: &str) -> DiffKey {
        (from.map(VersionHref::new), VersionHref::new(to))
    }

    #[test]
    fn a_diff_reads_back_as_written_and_only_under_its_own_key() {
        let diff = VersionDiff {
            packages: vec![PackageChange {
                name: "bash".into(),
                arch: "x86_64".into(),
                kind: ChangeKind::Upgraded,
                old: vec![Evr::new(0, "5.1", "1")],
                new: vec![Evr::new(0, "5.2", "1")],
                security: true,
                kept: None,
            }],
            ..VersionDiff::default()
        };
        let k = key(Some("/r/versions/1/"), "/r/versions/2/");
        let bytes = encode(&k, &diff).unwrap();
        assert_eq!(decode(&bytes, &k).unwrap(), diff);
        let other = key(None, "/r/versions/2/");
        assert!(decode(&bytes, &other).unwrap_err().contains("not the one"));
        assert!(decode(b"garbage", &k)
            .unwrap_err()
            .starts_with("not a diff"));
    }

    #[test]
    fn a_diff_of_another_format_is_not_believed() {
        use std::io::Write;
        let k = key(None, "/r/versions/2/");
        let json = r#"{"format":0,"from":null,"to":"/r/versions/2/","diff":{"packages":[],"advisories":{"added":[],"dropped":[],"updated":[]}}}"#;
        let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
        gz.write_all(json.as_bytes()).unwrap();
        let error = decode(&gz.finish().unwrap(), &k).unwrap_err();
        assert!(error.contains("format 0"), "{error}");
    }

    #[test]
    fn each_key_has_its_own_hash() {
        let hashes = [
            key_hash(&key(None, "/r/versions/2/")),
            key_hash(&key(Some("/r/versions/1/"), "/r/versions/2/")),
            key_hash(&key(Some("/r/versions/2/"), "/r/versions/1/")),
        ];
        assert!(hashes.iter().all(|h| h.len() == 64));
        assert!(hashes[0] != hashes[1] && hashes[1] != hashes[2] && hashes[0] != hashes[2]);
    }
}
