//! Reading a log from its first line and naming the first line that breaks the chain.

use std::fmt;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::Value;

use super::link::{Link, Sha256Hex};
use super::seal::{hash_of, StartDigest};

/// A line a reader saw before, by its number: a later check finds that line again with the
/// same hash, or says the log lost it (the chain alone cannot show lines removed from its
/// end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// 1-based.
    pub line: u64,
    pub sha256: Sha256Hex,
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.sha256)
    }
}

impl std::str::FromStr for Anchor {
    type Err = String;

    /// `N:SHA256`, as [`ChainSummary::head`] prints it.
    fn from_str(text: &str) -> Result<Self, String> {
        let (line, hash) = text.split_once(':').ok_or_else(|| {
            format!("'{text}': write the head as LINE:SHA256, as `audit verify` prints it")
        })?;
        let line = line
            .parse::<u64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("'{line}' is not a line number (1 or more)"))?;
        let sha256 = Sha256Hex::try_from(hash.to_owned())?;
        Ok(Self { line, sha256 })
    }
}

/// What is wrong at the first line that breaks the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreakKind {
    /// Its content no longer matches its hash.
    Changed,
    /// Its `prev_sha256` is not the hash of the chained line before it.
    NotFollowing,
    /// It starts the chain but the lines before it are not those it counted.
    StartMismatch,
    /// It has no hash although the chain began before it.
    Unchained,
    /// It does not read as a record and the next line does not name it as torn.
    Unreadable,
    /// It is the first chained line but does not start the chain.
    Headless,
    /// It is the line a previous check saw at this number, but with another hash.
    AnchorMismatch,
    /// The log ends at this line, before the line a previous check saw.
    Truncated { anchor: u64 },
    /// Its line is intact, but the columns a table copies from it (PostgreSQL's, which
    /// readers filter by) no longer say what it says: these were changed.
    ColumnsChanged { columns: Vec<String> },
}

/// The first line that breaks the chain: its number (1-based), its time when it reads, and
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainBreak {
    pub line: u64,
    pub time: Option<DateTime<Utc>>,
    pub kind: BreakKind,
}

impl fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        match self.time {
            Some(time) => write!(f, " ({})", time.to_rfc3339_opts(SecondsFormat::Secs, true))?,
            None => write!(f, " (no time)")?,
        }
        let what = match &self.kind {
            BreakKind::Changed => {
                "was changed after it was written: its content no longer matches its hash"
                    .to_owned()
            }
            BreakKind::NotFollowing => "does not follow the line before it: a line before it \
                was removed, the lines were reordered, or the line before it was changed and \
                its hash rewritten"
                .to_owned(),
            BreakKind::StartMismatch => "starts the chain, but the lines before it (written \
                before the chain began) were changed, removed or added"
                .to_owned(),
            BreakKind::Unchained => {
                "has no hash although the chain began before it: it was added by hand or by \
                 a console that does not chain its lines"
                    .to_owned()
            }
            BreakKind::Unreadable => "does not read as a record, and the line after it does \
                not name it as torn by a crash"
                .to_owned(),
            BreakKind::Headless => "is the first chained line but does not start the chain: \
                the lines before it were removed"
                .to_owned(),
            BreakKind::AnchorMismatch => {
                "is not the line an earlier check saw at this number (its hash differs)".to_owned()
            }
            BreakKind::Truncated { anchor } => format!(
                "is the last line, but an earlier check saw line {anchor}: lines were removed \
                 from the end"
            ),
            BreakKind::ColumnsChanged { columns } => format!(
                "was changed after it was written: its line is intact, but its column(s) {} \
                 no longer say what the line says",
                columns.join(", ")
            ),
        };
        write!(f, " {what}")
    }
}

/// An intact log: how many lines, how many before the chain began (vouched for by its start),
/// and its newest chained line (to give a later check as its anchor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainSummary {
    pub lines: u64,
    /// Lines written before the chain began.
    pub before_chain: u64,
    pub chained: u64,
    pub head: Option<Anchor>,
}

impl fmt::Display for ChainSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "intact: {} lines, {} chained", self.lines, self.chained)?;
        if self.before_chain > 0 {
            write!(
                f,
                "; the {} lines written before the chain began are vouched for by its start",
                self.before_chain
            )?;
        }
        if let Some(head) = &self.head {
            write!(f, "; head {head}")?;
        }
        Ok(())
    }
}

/// A torn line waiting for the next chained line to name it.
struct Torn {
    line: u64,
    sha256: Sha256Hex,
}

/// Reads a log line by line from its first (every line, empty ones too, without its newline)
/// and stops at the first line that breaks the chain.
#[derive(Default)]
pub struct Verifier {
    line: u64,
    before: StartDigest,
    before_chain: u64,
    chained: u64,
    last: Option<Anchor>,
    /// The time of the newest line that has one (a truncation is reported with it).
    last_time: Option<DateTime<Utc>>,
    torn: Option<Torn>,
    anchor: Option<Anchor>,
}

impl Verifier {
    /// A verifier that also checks that the log still holds `anchor` (a head an earlier check
    /// printed).
    pub fn expecting(anchor: Option<Anchor>) -> Self {
        Self {
            anchor,
            ..Self::default()
        }
    }

    /// Reads the next line.
    pub fn feed(&mut self, line: &[u8]) -> Result<(), ChainBreak> {
        self.line += 1;
        let number = self.line;
        let result = self.judge(number, line);
        self.before.add(line);
        result
    }

    fn judge(&mut self, number: u64, line: &[u8]) -> Result<(), ChainBreak> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let value = match serde_json::from_slice::<Value>(line) {
            Ok(value @ Value::Object(_)) => value,
            _ if self.last.is_none() => {
                self.before_chain += 1;
                return Ok(());
            }
            _ => {
                if let Some(torn) = &self.torn {
                    return Err(self.broken(torn.line, None, BreakKind::Unreadable));
                }
                self.torn = Some(Torn {
                    line: number,
                    sha256: Sha256Hex::of(line),
                });
                return Ok(());
            }
        };
        let time = value
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc));
        if time.is_some() {
            self.last_time = time;
        }
        let link = match value.get("chain") {
            None if self.last.is_none() => {
                self.before_chain += 1;
                return Ok(());
            }
            None => return Err(self.broken(number, time, BreakKind::Unchained)),
            Some(chain) => serde_json::from_value::<Link>(chain.clone())
                .map_err(|_| self.broken(number, time, BreakKind::Changed))?,
        };
        let hash = hash_of(value);
        if link.sha256.as_ref() != Some(&hash) {
            return Err(self.broken(number, time, BreakKind::Changed));
        }
        match (&link.start, &self.last) {
            (Some(start), _) => {
                let counted = start.lines_before == self.before.lines();
                if !counted || link.prev_sha256 != self.before.digest() || link.torn.is_some() {
                    return Err(self.broken(number, time, BreakKind::StartMismatch));
                }
                if self.last.is_none() {
                    self.before_chain = self.before.lines();
                }
                self.torn = None;
            }
            (None, None) => return Err(self.broken(number, time, BreakKind::Headless)),
            (None, Some(last)) => {
                let torn = self.torn.take();
                if link.prev_sha256 != last.sha256 {
                    return Err(self.broken(number, time, BreakKind::NotFollowing));
                }
                match (torn, &link.torn) {
                    (None, None) => {}
                    (Some(torn), Some(named)) if torn.sha256 == *named => {}
                    (Some(torn), _) => {
                        return Err(self.broken(torn.line, None, BreakKind::Unreadable))
                    }
                    (None, Some(_)) => {
                        return Err(self.broken(number, time, BreakKind::NotFollowing))
                    }
                }
            }
        }
        if let Some(anchor) = &self.anchor {
            if anchor.line == number && anchor.sha256 != hash {
                return Err(self.broken(number, time, BreakKind::AnchorMismatch));
            }
        }
        self.chained += 1;
        self.last = Some(Anchor {
            line: number,
            sha256: hash,
        });
        Ok(())
    }

    fn broken(&self, line: u64, time: Option<DateTime<Utc>>, kind: BreakKind) -> ChainBreak {
        ChainBreak { line, time, kind }
    }

    /// The log has no more lines: intact, or where it ends short of the anchor.
    pub fn finish(self) -> Result<ChainSummary, ChainBreak> {
        if let Some(anchor) = &self.anchor {
            let reached = self.line >= anchor.line;
            let seen = self.last.as_ref().is_some_and(|l| l.line >= anchor.line);
            if !reached || !seen {
                return Err(self.broken(
                    self.line,
                    self.last_time,
                    BreakKind::Truncated {
                        anchor: anchor.line,
                    },
                ));
            }
        }
        Ok(ChainSummary {
            lines: self.line,
            before_chain: self.before_chain,
            chained: self.chained,
            head: self.last,
        })
    }
}

/// Verifies a whole log held in memory (tests, small logs): the first break, or the summary.
pub fn verify_lines<'a>(
    lines: impl IntoIterator<Item = &'a [u8]>,
    anchor: Option<Anchor>,
) -> Result<ChainSummary, ChainBreak> {
    let mut verifier = Verifier::expecting(anchor);
    for line in lines {
        verifier.feed(line)?;
    }
    verifier.finish()
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
