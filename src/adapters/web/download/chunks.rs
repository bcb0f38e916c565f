//! A download's body, made a piece at a time from the diff already computed: the head, then
//! the matching package changes [`CHUNK`] at a time, then the tail. Each piece is written
//! when the connection asks for it; the whole document never sits in memory.

use std::io;
use std::sync::Arc;

use axum::body::{Body, Bytes};

use crate::domain::diff::{PackageChange, PackageFilter, VersionDiff};

/// Package changes looked at per piece of the body.
pub const CHUNK: usize = 500;

/// How one format writes its document.
pub trait DocumentWriter: Send + 'static {
    /// What comes before the first package change.
    fn head(&mut self, out: &mut Vec<u8>) -> io::Result<()>;
    /// The next matching changes, in order (never empty); `first` when none came before.
    fn changes(
        &mut self,
        out: &mut Vec<u8>,
        changes: &[&PackageChange],
        first: bool,
    ) -> io::Result<()>;
    /// What comes after the last package change.
    fn tail(&mut self, out: &mut Vec<u8>, diff: &VersionDiff) -> io::Result<()>;
}

/// The streamed body of `diff`'s changes that `filter` lets through, as `writer` writes them.
pub fn body(diff: Arc<VersionDiff>, filter: PackageFilter, writer: impl DocumentWriter) -> Body {
    Body::from_stream(futures::stream::iter(Pieces::new(diff, filter, writer)))
}

enum Step {
    Head,
    Changes { next: usize, written: bool },
    Tail,
    Done,
}

/// The pieces of the document, in order: a writer's error ends the body there.
pub struct Pieces<W> {
    diff: Arc<VersionDiff>,
    filter: PackageFilter,
    writer: W,
    step: Step,
}

impl<W: DocumentWriter> Pieces<W> {
    pub fn new(diff: Arc<VersionDiff>, filter: PackageFilter, writer: W) -> Self {
        Self {
            diff,
            filter,
            writer,
            step: Step::Head,
        }
    }

    /// Writes the next piece into `out`: false when the document is complete.
    fn write_next(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        loop {
            match self.step {
                Step::Head => {
                    self.writer.head(out)?;
                    self.step = Step::Changes {
                        next: 0,
                        written: false,
                    };
                    return Ok(true);
                }
                Step::Changes { next, written } => {
                    let all = &self.diff.packages;
                    if next >= all.len() {
                        self.step = Step::Tail;
                        continue;
                    }
                    let end = (next + CHUNK).min(all.len());
                    let matching: Vec<&PackageChange> =
                        self.filter.select(&all[next..end]).collect();
                    self.step = Step::Changes {
                        next: end,
                        written: written || !matching.is_empty(),
                    };
                    if !matching.is_empty() {
                        self.writer.changes(out, &matching, !written)?;
                        return Ok(true);
                    }
                }
                Step::Tail => {
                    self.writer.tail(out, &self.diff)?;
                    self.step = Step::Done;
                    return Ok(true);
                }
                Step::Done => return Ok(false),
            }
        }
    }
}

impl<W: DocumentWriter> Iterator for Pieces<W> {
    type Item = io::Result<Bytes>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut out = Vec::new();
        match self.write_next(&mut out) {
            Ok(true) => Some(Ok(Bytes::from(out))),
            Ok(false) => None,
            Err(error) => {
                tracing::error!(%error, "a download could not be written");
                self.step = Step::Done;
                Some(Err(error))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::{ChangeKind, Evr};

    /// Writes `[` names `]`, each piece's names on one line.
    struct Names;

    impl DocumentWriter for Names {
        fn head(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
            out.extend_from_slice(b"[");
            Ok(())
        }
        fn changes(
            &mut self,
            out: &mut Vec<u8>,
            c: &[&PackageChange],
            first: bool,
        ) -> io::Result<()> {
            let names: Vec<&str> = c.iter().map(|c| c.name.as_str()).collect();
            let sep = if first { "" } else { "," };
            out.extend_from_slice(format!("{sep}{}", names.join(",")).as_bytes());
            Ok(())
        }
        fn tail(&mut self, out: &mut Vec<u8>, _: &VersionDiff) -> io::Result<()> {
            out.extend_from_slice(b"]");
            Ok(())
        }
    }

    fn diff(n: usize) -> Arc<VersionDiff> {
        let packages = (0..n)
            .map(|i| PackageChange {
                name: format!("p{i}"),
                arch: "noarch".into(),
                kind: if i % 2 == 0 {
                    ChangeKind::Added
                } else {
                    ChangeKind::Removed
                },
                old: vec![],
                new: vec![Evr::new(0, "1", "1")],
                security: false,
                kept: None,
            })
            .collect();
        Arc::new(VersionDiff {
            packages,
            advisories: Default::default(),
        })
    }

    fn pieces(n: usize, filter: PackageFilter) -> Vec<String> {
        Pieces::new(diff(n), filter, Names)
            .map(|p| String::from_utf8(p.unwrap().to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn the_document_comes_head_then_a_piece_per_chunk_then_tail() {
        let all = pieces(1_201, PackageFilter::default());
        assert_eq!(all.len(), 1 + 3 + 1, "head, 500 + 500 + 201, tail");
        assert_eq!(all[0], "[");
        assert!(all[1].starts_with("p0,p1,") && all[2].starts_with(",p500,"));
        let joined = all.concat();
        assert_eq!(joined.matches('p').count(), 1_201);
        assert!(joined.ends_with(",p1200]"));
    }

    #[test]
    fn only_matching_changes_are_written_and_a_chunk_without_any_is_skipped() {
        let odd = PackageFilter::new(Some(ChangeKind::Removed), None);
        let joined = pieces(1_000, odd).concat();
        assert!(
            joined.starts_with("[p1,p3,") && joined.ends_with(",p999]"),
            "{joined}"
        );
        assert_eq!(joined.matches('p').count(), 500);
        let one = PackageFilter::new(None, Some("p999"));
        assert_eq!(pieces(1_000, one), ["[", "p999", "]"]);
        assert_eq!(pieces(0, PackageFilter::default()), ["[", "]"]);
    }
}
