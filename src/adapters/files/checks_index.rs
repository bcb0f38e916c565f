//! What `checks.jsonl` holds, kept in memory and brought up to date by reading only the lines
//! appended since the last read ([`super::tail`]): the versions page, a deploy's gate and a
//! report's claim cost what was written since, not the whole file. A file renamed over it (a
//! pruning) is read again whole.
//!
//! Kept: every report, in the order made (the insights read a range of them), the latest
//! report of each check (as [`latest_of`] chooses it: the latest `at`, the
//! later line on a tie), by repository, and the promotions claimed and not released. A line
//! that cannot be read is skipped, as it was when the file was read whole, and logged once,
//! when read, with its place.
//!
//! [`latest_of`]: crate::domain::check::latest_of

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::domain::check::{CheckKey, CheckReport, PromotionKey};

use super::checks_line::Line;
use super::tail::{LineIndex, Tail};

/// The checks of the file, as its lines read so far say.
#[derive(Debug, Default)]
pub struct CheckIndex {
    tail: Tail,
    /// Complete lines read.
    lines: usize,
    /// The latest report of each check, by the repository's id.
    latest: HashMap<String, BTreeMap<CheckKey, CheckReport>>,
    /// The promotions claimed and not released.
    claimed: BTreeSet<PromotionKey>,
    /// Every report read, ordered by when it was made (the line's order on a tie).
    made: Vec<CheckReport>,
}

impl CheckIndex {
    /// Forgets everything: the file is missing, or was just rewritten.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    pub fn ends_torn(&self) -> bool {
        self.tail.ends_torn()
    }

    /// The latest report of each check of `repository` (of `version` only, when given),
    /// ordered by check.
    pub fn latest(&self, repository: &str, version: Option<u64>) -> Vec<CheckReport> {
        self.latest
            .get(repository)
            .into_iter()
            .flat_map(BTreeMap::values)
            .filter(|report| version.is_none_or(|v| report.key.version == v))
            .cloned()
            .collect()
    }

    /// Every report made at or after `from` and before `to`, in the order made.
    pub fn reported_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Vec<CheckReport> {
        let start = self.made.partition_point(|r| r.at < from);
        let end = self.made.partition_point(|r| r.at < to);
        self.made[start..end.max(start)].to_vec()
    }

    /// Whether `key` is claimed and not released.
    pub fn is_claimed(&self, key: &PromotionKey) -> bool {
        self.claimed.contains(key)
    }

    fn feed_lines(&mut self, bytes: &[u8], target: &str) {
        for raw in bytes.split_inclusive(|b| *b == b'\n') {
            self.lines += 1;
            let raw = raw.trim_ascii();
            if !raw.is_empty() {
                self.apply(raw, target);
            }
        }
    }

    fn apply(&mut self, raw: &[u8], target: &str) {
        match serde_json::from_slice::<Line>(raw) {
            Ok(Line::Report(report)) => {
                let place = self.made.partition_point(|r| r.at <= report.at);
                self.made.insert(place, report.clone());
                let of_repository = self
                    .latest
                    .entry(report.key.repository_uuid.clone())
                    .or_default();
                match of_repository.get(&report.key) {
                    Some(kept) if kept.at > report.at => {}
                    _ => {
                        of_repository.insert(report.key.clone(), report);
                    }
                }
            }
            Ok(Line::Claimed(key)) => {
                self.claimed.insert(key);
            }
            Ok(Line::Released(key)) => {
                self.claimed.remove(&key);
            }
            Err(why) => {
                tracing::error!(
                    place = %format!("line {} of {target}", self.lines),
                    %why,
                    "a line of the checks cannot be read: it is skipped (mend or remove it)"
                );
            }
        }
    }
}

impl LineIndex for CheckIndex {
    fn tail(&mut self) -> &mut Tail {
        &mut self.tail
    }

    fn feed(&mut self, bytes: &[u8], target: &str) {
        self.feed_lines(bytes, target);
    }
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::io::Write;

    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::domain::check::CheckName;
    use crate::domain::environment::EnvironmentName;

    const REPO: &str = "0199a1b2-0000-7000-8000-0000000000aa";

    fn report(version: u64, name: &str, passed: bool, minute: u32) -> CheckReport {
        CheckReport {
            key: CheckKey {
                repository_uuid: REPO.into(),
                environment: EnvironmentName::parse("staging").unwrap(),
                version,
                name: CheckName::parse(name).unwrap(),
            },
            repository_name: "base-os".into(),
            passed,
            url: None,
            reporter: "ci".into(),
            at: Utc.with_ymd_and_hms(2026, 11, 24, 9, minute, 0).unwrap(),
        }
    }

    fn claim(version: u64) -> PromotionKey {
        PromotionKey {
            repository_uuid: REPO.into(),
            environment: EnvironmentName::production(),
            version,
        }
    }

    fn line(line: &Line) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(line).unwrap();
        bytes.push(b'\n');
        bytes
    }

    fn append(path: &std::path::Path, bytes: &[u8]) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        file.write_all(bytes).unwrap();
    }

    fn refreshed(index: &mut CheckIndex, path: &std::path::Path) {
        index
            .refresh(&mut File::open(path).unwrap(), "checks.jsonl")
            .unwrap();
    }

    #[test]
    fn lines_appended_since_the_last_read_are_read_and_the_latest_report_of_a_check_counts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checks.jsonl");
        let mut index = CheckIndex::default();
        append(&path, &line(&Line::Report(report(1, "smoke", false, 1))));
        refreshed(&mut index, &path);
        assert_eq!(index.latest(REPO, None), vec![report(1, "smoke", false, 1)]);
        append(&path, &line(&Line::Report(report(1, "smoke", true, 3))));
        // An older run reported late does not replace the newer one.
        append(&path, &line(&Line::Report(report(1, "smoke", false, 2))));
        append(&path, &line(&Line::Report(report(2, "e2e", true, 4))));
        refreshed(&mut index, &path);
        assert_eq!(
            index.latest(REPO, None),
            vec![report(1, "smoke", true, 3), report(2, "e2e", true, 4)]
        );
        assert_eq!(index.latest(REPO, Some(2)), vec![report(2, "e2e", true, 4)]);
        assert_eq!(index.latest("another", None), vec![]);
    }

    #[test]
    fn a_line_being_written_is_read_once_whole_and_claims_follow_their_releases() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checks.jsonl");
        let mut index = CheckIndex::default();
        let claimed = line(&Line::Claimed(claim(4)));
        let (first, rest) = claimed.split_at(10);
        append(&path, first);
        refreshed(&mut index, &path);
        assert!(!index.is_claimed(&claim(4)), "half a line is not read");
        assert!(index.ends_torn());
        append(&path, rest);
        refreshed(&mut index, &path);
        assert!(index.is_claimed(&claim(4)));
        append(&path, &line(&Line::Released(claim(4))));
        refreshed(&mut index, &path);
        assert!(!index.is_claimed(&claim(4)));
    }

    #[test]
    fn a_file_renamed_over_the_one_read_is_read_again_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checks.jsonl");
        let mut index = CheckIndex::default();
        append(&path, &line(&Line::Claimed(claim(4))));
        append(&path, &line(&Line::Report(report(1, "smoke", false, 1))));
        refreshed(&mut index, &path);
        let pruned = dir.path().join("checks.jsonl.new");
        append(&pruned, &line(&Line::Report(report(1, "smoke", true, 2))));
        std::fs::rename(&pruned, &path).unwrap();
        refreshed(&mut index, &path);
        assert!(
            !index.is_claimed(&claim(4)),
            "what the old file said is forgotten"
        );
        assert_eq!(index.latest(REPO, None), vec![report(1, "smoke", true, 2)]);
    }

    #[test]
    fn a_line_that_cannot_be_read_is_skipped_and_the_lines_after_it_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checks.jsonl");
        let mut index = CheckIndex::default();
        append(&path, b"{\"line\":\"claimed\",\"repository_uuid\"\n");
        append(&path, &line(&Line::Claimed(claim(5))));
        refreshed(&mut index, &path);
        assert!(index.is_claimed(&claim(5)));
        assert!(!index.ends_torn());
    }
}
