//! The comparison as one JSON document, written a piece at a time:
//! `{"repository", "from", "to", "packages": [...], "advisories": {"added", "dropped", "updated"}}`.

use std::io;

use serde::Serialize;

use crate::domain::diff::{Advisory, Evr, PackageChange, VersionDiff};

use super::chunks::DocumentWriter;

/// Writes the document of the comparison of `to` against `from` in `repository`.
pub struct JsonDocument {
    pub repository: String,
    pub from: u64,
    pub to: u64,
}

#[derive(Serialize)]
struct Head<'a> {
    repository: &'a str,
    from: u64,
    to: u64,
}

/// One package change, its EVRs as rpm writes them (`epoch:` when not 0).
#[derive(Serialize)]
struct PackageRow<'a> {
    name: &'a str,
    arch: &'a str,
    kind: &'static str,
    old: Vec<String>,
    new: Vec<String>,
    security: bool,
    /// The newest build both versions keep, when it is the newest on a side (an upgrade
    /// from it, a downgrade to it).
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<String>,
}

impl<'a> From<&'a PackageChange> for PackageRow<'a> {
    fn from(c: &'a PackageChange) -> Self {
        let evrs = |list: &[Evr]| list.iter().map(Evr::to_string).collect();
        Self {
            name: &c.name,
            arch: &c.arch,
            kind: c.kind.as_str(),
            old: evrs(&c.old),
            new: evrs(&c.new),
            security: c.security,
            kept: c
                .kept
                .as_ref()
                .filter(|k| Some(*k) == c.old_newest() || Some(*k) == c.new_newest())
                .map(Evr::to_string),
        }
    }
}

#[derive(Serialize)]
struct AdvisoryRow<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    severity: Option<&'a str>,
    title: &'a str,
    packages: &'a [String],
}

impl<'a> From<&'a Advisory> for AdvisoryRow<'a> {
    fn from(a: &'a Advisory) -> Self {
        Self {
            id: &a.id,
            kind: a.kind.as_str(),
            severity: a.severity.as_deref(),
            title: &a.title,
            packages: &a.packages,
        }
    }
}

#[derive(Serialize)]
struct Advisories<'a> {
    added: Vec<AdvisoryRow<'a>>,
    dropped: Vec<AdvisoryRow<'a>>,
    updated: Vec<AdvisoryRow<'a>>,
}

impl DocumentWriter for JsonDocument {
    /// The head object without its closing brace, then `"packages":[`.
    fn head(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        let head = Head {
            repository: &self.repository,
            from: self.from,
            to: self.to,
        };
        serde_json::to_writer(&mut *out, &head)?;
        out.pop(); // the object's `}`: the document goes on
        out.extend_from_slice(b",\"packages\":[");
        Ok(())
    }

    fn changes(
        &mut self,
        out: &mut Vec<u8>,
        changes: &[&PackageChange],
        first: bool,
    ) -> io::Result<()> {
        for (i, change) in changes.iter().enumerate() {
            if i > 0 || !first {
                out.push(b',');
            }
            out.push(b'\n');
            serde_json::to_writer(&mut *out, &PackageRow::from(*change))?;
        }
        Ok(())
    }

    fn tail(&mut self, out: &mut Vec<u8>, diff: &VersionDiff) -> io::Result<()> {
        fn rows(list: &[Advisory]) -> Vec<AdvisoryRow<'_>> {
            list.iter().map(AdvisoryRow::from).collect()
        }
        let a = &diff.advisories;
        let advisories = Advisories {
            added: rows(&a.added),
            dropped: rows(&a.dropped),
            updated: rows(&a.updated),
        };
        out.extend_from_slice(b"\n],\"advisories\":");
        serde_json::to_writer(&mut *out, &advisories)?;
        out.extend_from_slice(b"}\n");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::{AdvisoryDiff, AdvisoryType, ChangeKind};

    fn document(diff: &VersionDiff, split: usize) -> serde_json::Value {
        let mut writer = JsonDocument {
            repository: "a \"quoted\" repo".into(),
            from: 2,
            to: 5,
        };
        let mut out = Vec::new();
        writer.head(&mut out).unwrap();
        let all: Vec<&PackageChange> = diff.packages.iter().collect();
        for (i, piece) in all.chunks(split).enumerate() {
            writer.changes(&mut out, piece, i == 0).unwrap();
        }
        writer.tail(&mut out, diff).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn the_pieces_make_one_document_with_every_change_and_advisory() {
        let change = |name: &str| PackageChange {
            name: name.into(),
            arch: "x86_64".into(),
            kind: ChangeKind::Upgraded,
            old: vec![Evr::new(1, "1.0", "1")],
            new: vec![Evr::new(1, "2.0", "1"), Evr::new(0, "3", "1")],
            security: true,
            kept: None,
        };
        let diff = VersionDiff {
            packages: vec![change("a"), change("b"), change("c")],
            advisories: AdvisoryDiff {
                added: vec![Advisory {
                    id: "RC-SA-1".into(),
                    kind: AdvisoryType::Security,
                    severity: None,
                    title: "fix".into(),
                    packages: vec!["a".into()],
                }],
                ..Default::default()
            },
        };
        let doc = document(&diff, 2);
        assert_eq!(doc["repository"], "a \"quoted\" repo");
        assert_eq!(
            (doc["from"].as_u64(), doc["to"].as_u64()),
            (Some(2), Some(5))
        );
        let packages = doc["packages"].as_array().unwrap();
        assert_eq!(packages.len(), 3);
        assert_eq!(packages[2]["name"], "c");
        assert_eq!(packages[0]["kind"], "upgraded");
        assert_eq!(packages[0]["old"], serde_json::json!(["1:1.0-1"]));
        assert_eq!(packages[0]["new"], serde_json::json!(["1:2.0-1", "3-1"]));
        assert_eq!(packages[0]["security"], true);
        assert_eq!(doc["advisories"]["added"][0]["type"], "security");
        assert_eq!(doc["advisories"]["dropped"], serde_json::json!([]));
        let empty = document(&VersionDiff::default(), 1);
        assert_eq!(empty["packages"], serde_json::json!([]));
    }
}
