//! Debian package versions as dpkg orders them (Debian Policy 5.6.12): `[epoch:]upstream[-revision]`.
//!
//! The epoch is compared as a number first, then the upstream version, then the revision, each
//! with dpkg's `verrevcmp`: the text alternates non-digit and digit runs; non-digit runs are
//! compared character by character with `~` before everything (even the end of the text),
//! then the end, then letters, then every other character; digit runs are compared as
//! numbers. So `2.0~rc1` is older than `2.0`, `2.0` older than `2.0+b1`, `1:0.9` newer than
//! `2.0`, and `1.0` equal to `1.0-0` and to `1.00`.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

/// One Debian version, parsed. Equality is textual, as upstream stores it (`1.0` and `1.00`
/// are two spellings of the same version): use [`DebVersion::dpkg_cmp`] to order versions
/// the way dpkg and apt do.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DebVersion {
    epoch: u64,
    upstream: String,
    /// Empty when the version has no `-`: dpkg then compares it as an empty revision.
    revision: String,
}

/// Why a text is not a Debian version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{text}' is not a Debian version ({why}); a Debian version reads [epoch:]upstream[-revision], \
     such as 1:2.0~rc1-3"
)]
pub struct InvalidDebVersion {
    pub text: String,
    pub why: &'static str,
}

impl DebVersion {
    /// Reads `[epoch:]upstream[-revision]` as dpkg does: the epoch ends at the first `:`, the
    /// revision starts after the last `-`. Refuses what dpkg refuses: an epoch that is not a
    /// number, an empty upstream version or revision, a character outside letters, digits
    /// and `.+~-:` (`-` only when a revision follows, `:` only after an epoch).
    pub fn parse(text: &str) -> Result<Self, InvalidDebVersion> {
        let refuse = |why| InvalidDebVersion {
            text: text.chars().take(80).collect(),
            why,
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(refuse("it is empty"));
        }
        let (epoch, rest) = match trimmed.split_once(':') {
            Some((epoch, rest)) => {
                if epoch.is_empty() || !epoch.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(refuse("the epoch before ':' is not a number"));
                }
                let epoch = epoch
                    .parse::<u64>()
                    .map_err(|_| refuse("the epoch is too large"))?;
                (epoch, rest)
            }
            None => (0, trimmed),
        };
        let (upstream, revision) = match rest.rsplit_once('-') {
            Some((upstream, revision)) => (upstream, revision),
            None => (rest, ""),
        };
        if upstream.is_empty() {
            return Err(refuse("the upstream version is empty"));
        }
        if rest.contains('-') && revision.is_empty() {
            return Err(refuse("the revision after the last '-' is empty"));
        }
        let allowed = |b: u8, extra: &[u8]| b.is_ascii_alphanumeric() || extra.contains(&b);
        if !upstream.bytes().all(|b| allowed(b, b".+~-:")) {
            return Err(refuse(
                "the upstream version holds a character dpkg refuses",
            ));
        }
        if !revision.bytes().all(|b| allowed(b, b".+~")) {
            return Err(refuse("the revision holds a character dpkg refuses"));
        }
        Ok(Self {
            epoch,
            upstream: upstream.to_owned(),
            revision: revision.to_owned(),
        })
    }

    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    pub fn upstream(&self) -> &str {
        &self.upstream
    }

    /// The Debian revision, empty when the version has none.
    pub fn revision(&self) -> &str {
        &self.revision
    }

    /// dpkg's order: epoch first, then upstream version, then revision.
    pub fn dpkg_cmp(&self, other: &Self) -> Ordering {
        self.epoch
            .cmp(&other.epoch)
            .then_with(|| verrevcmp(&self.upstream, &other.upstream))
            .then_with(|| verrevcmp(&self.revision, &other.revision))
    }
}

impl fmt::Display for DebVersion {
    /// The version as dpkg prints it: the epoch only when it is not 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.epoch != 0 {
            write!(f, "{}:", self.epoch)?;
        }
        f.write_str(&self.upstream)?;
        if !self.revision.is_empty() {
            write!(f, "-{}", self.revision)?;
        }
        Ok(())
    }
}

impl TryFrom<String> for DebVersion {
    type Error = InvalidDebVersion;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<DebVersion> for String {
    fn from(version: DebVersion) -> Self {
        version.to_string()
    }
}

/// The weight of one character in a non-digit run: `~` before the end (0), the end before
/// letters, letters before every other character.
fn weight(c: Option<u8>) -> i32 {
    match c {
        None => 0,
        Some(b'~') => -1,
        Some(c) if c.is_ascii_digit() => 0,
        Some(c) if c.is_ascii_alphabetic() => i32::from(c),
        Some(c) => i32::from(c) + 256,
    }
}

/// dpkg's `verrevcmp` on one part (upstream version or revision).
pub fn verrevcmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    let digit_at = |s: &[u8], k: usize| s.get(k).is_some_and(u8::is_ascii_digit);
    while i < a.len() || j < b.len() {
        // The non-digit run: character by character.
        while (i < a.len() && !digit_at(a, i)) || (j < b.len() && !digit_at(b, j)) {
            let (wa, wb) = (weight(a.get(i).copied()), weight(b.get(j).copied()));
            if wa != wb {
                return wa.cmp(&wb);
            }
            i += 1;
            j += 1;
        }
        // The digit run: as numbers, leading zeros ignored.
        while a.get(i) == Some(&b'0') {
            i += 1;
        }
        while b.get(j) == Some(&b'0') {
            j += 1;
        }
        let mut first_difference = Ordering::Equal;
        while digit_at(a, i) && digit_at(b, j) {
            if first_difference == Ordering::Equal {
                first_difference = a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
        }
        if digit_at(a, i) {
            return Ordering::Greater;
        }
        if digit_at(b, j) {
            return Ordering::Less;
        }
        if first_difference != Ordering::Equal {
            return first_difference;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> DebVersion {
        DebVersion::parse(text).unwrap()
    }

    fn order(a: &str, b: &str) -> Ordering {
        v(a).dpkg_cmp(&v(b))
    }

    #[test]
    fn the_issue_s_three_orders_hold() {
        assert_eq!(order("1:0.9-1", "2.0-1"), Ordering::Greater);
        assert_eq!(order("2.0~rc1-1", "2.0-1"), Ordering::Less);
        assert_eq!(order("2.0-1", "2.0-1+b1"), Ordering::Less);
    }

    #[test]
    fn a_tilde_sorts_before_everything_even_the_end() {
        assert_eq!(order("1.0~", "1.0"), Ordering::Less);
        assert_eq!(order("1.0~~", "1.0~"), Ordering::Less);
        assert_eq!(order("1.0~~a", "1.0~"), Ordering::Less);
        assert_eq!(order("1.0~rc1", "1.0~rc1.1"), Ordering::Less);
        assert_eq!(order("1.0-1~bpo1", "1.0-1"), Ordering::Less);
    }

    #[test]
    fn letters_sort_before_other_characters_and_the_end_before_letters() {
        assert_eq!(order("1.0a", "1.0+"), Ordering::Less);
        assert_eq!(order("1.0a", "1.0."), Ordering::Less);
        assert_eq!(order("1.0", "1.0a"), Ordering::Less);
        assert_eq!(order("1.0Z", "1.0a"), Ordering::Less);
    }

    #[test]
    fn digits_compare_as_numbers() {
        assert_eq!(order("1.10", "1.9"), Ordering::Greater);
        assert_eq!(order("1.010", "1.10"), Ordering::Equal);
        assert_eq!(order("1.0-10", "1.0-9"), Ordering::Greater);
        assert_eq!(order("18446744073709551616", "9"), Ordering::Greater);
    }

    #[test]
    fn an_absent_revision_equals_a_zero_revision_and_a_zero_epoch_no_epoch() {
        assert_eq!(order("1.0", "1.0-0"), Ordering::Equal);
        assert_eq!(order("0:1.0", "1.0"), Ordering::Equal);
        assert_ne!(v("0:1.0"), v("1.0-0"), "equality stays textual");
    }

    #[test]
    fn the_epoch_outweighs_everything_else() {
        assert_eq!(order("1:0.1", "0.99~~"), Ordering::Greater);
        assert_eq!(order("2:0", "10:0"), Ordering::Less);
    }

    #[test]
    fn the_last_hyphen_starts_the_revision_and_the_first_colon_ends_the_epoch() {
        let parsed = v("1:2.0-beta-3");
        assert_eq!(parsed.epoch(), 1);
        assert_eq!(parsed.upstream(), "2.0-beta");
        assert_eq!(parsed.revision(), "3");
        let colons = v("2:1.0:3-1");
        assert_eq!(colons.upstream(), "1.0:3");
    }

    #[test]
    fn it_prints_as_dpkg_does_and_reads_back_through_json() {
        assert_eq!(v("0:2.0-1").to_string(), "2.0-1");
        assert_eq!(v("1:0.9-1").to_string(), "1:0.9-1");
        let json = serde_json::to_string(&v("2.0~rc1-1")).unwrap();
        assert_eq!(json, "\"2.0~rc1-1\"");
        assert_eq!(
            serde_json::from_str::<DebVersion>(&json).unwrap(),
            v("2.0~rc1-1")
        );
    }

    #[test]
    fn what_dpkg_refuses_is_refused_with_the_reason() {
        for (text, why) in [
            ("", "empty"),
            ("a:1.0", "epoch"),
            (":1.0", "epoch"),
            ("1:", "upstream"),
            ("-1", "upstream"),
            ("1.0-", "revision"),
            ("1.0_1", "upstream version holds"),
            ("1:1.0-1:2", "revision holds"),
            ("1.0 beta", "upstream version holds"),
        ] {
            let refused = DebVersion::parse(text).unwrap_err();
            assert!(refused.why.contains(why), "{text}: {}", refused.why);
            assert!(refused.to_string().contains("[epoch:]upstream[-revision]"));
        }
        assert!(serde_json::from_str::<DebVersion>("\"1.0 beta\"").is_err());
    }

    /// Versions built from pieces that exercise every rule, paired by a fixed walk.
    fn generated_pairs() -> Vec<(String, String)> {
        const EPOCHS: [&str; 4] = ["", "0:", "1:", "2:"];
        const UPSTREAMS: [&str; 12] = [
            "1.0",
            "1.00",
            "1.0~rc1",
            "1.0~",
            "1.0~~",
            "1.0a",
            "1.0+b1",
            "1.0.1",
            "0.9",
            "2.0",
            "1.10",
            "1.0+dfsg~1",
        ];
        const REVISIONS: [&str; 8] = ["", "-0", "-1", "-1+b1", "-1~bpo1", "-10", "-2", "-1.1"];
        let pieces = |n: usize| {
            format!(
                "{}{}{}",
                EPOCHS[n % 7 % EPOCHS.len()],
                UPSTREAMS[n / 3 % UPSTREAMS.len()],
                REVISIONS[n / 5 % REVISIONS.len()]
            )
        };
        let mut pairs: Vec<(String, String)> = (0..120)
            .map(|n: usize| (pieces(n * 7 + 1), pieces(n * 13 + 4)))
            .collect();
        // Spellings of one version, so that "equal" is asked too.
        pairs.push(("1.0".into(), "0:1.0-0".into()));
        pairs.push(("1:1.00-01".into(), "1:1.0-1".into()));
        pairs
    }

    fn dpkg_says(a: &str, relation: &str, b: &str) -> bool {
        let status = std::process::Command::new("dpkg")
            .args(["--compare-versions", a, relation, b])
            .status()
            .expect("dpkg runs (this test needs dpkg on the PATH)");
        status.success()
    }

    #[test]
    #[ignore = "needs dpkg"]
    fn the_order_agrees_with_dpkg_compare_versions_on_generated_pairs() {
        let pairs = generated_pairs();
        let distinct: std::collections::HashSet<_> = pairs.iter().collect();
        assert!(
            distinct.len() >= 30,
            "only {} distinct pairs",
            distinct.len()
        );
        let mut seen = [0usize; 3];
        for (a, b) in &pairs {
            let dpkg = if dpkg_says(a, "lt", b) {
                Ordering::Less
            } else if dpkg_says(a, "eq", b) {
                Ordering::Equal
            } else {
                assert!(
                    dpkg_says(a, "gt", b),
                    "dpkg answers none of lt, eq, gt for {a} {b}"
                );
                Ordering::Greater
            };
            assert_eq!(order(a, b), dpkg, "{a} against {b}");
            seen[(dpkg as i8 + 1) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "every answer is met: {seen:?}");
    }
}
