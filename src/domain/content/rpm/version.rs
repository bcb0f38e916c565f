//! RPM's version order: rpm's `rpmvercmp` on one field (version or release), segment-wise;
//! digits against digits as numbers, letters against letters as text, a numeric segment
//! newer than an alphabetic one, `~` older than anything, `^` newer than the end of the
//! string but older than any other segment.

use std::cmp::Ordering;

/// rpm's `rpmvercmp` on one field (version or release), byte for byte as rpm 4.x does it.
pub fn rpmvercmp(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (mut one, mut two) = (a.as_bytes(), b.as_bytes());
    while !one.is_empty() || !two.is_empty() {
        one = skip_separators(one);
        two = skip_separators(two);
        if let Some(order) = tilde_or_caret(one, two) {
            match order {
                Step::Decided(order) => return order,
                Step::Both => {
                    (one, two) = (&one[1..], &two[1..]);
                    continue;
                }
            }
        }
        if one.is_empty() || two.is_empty() {
            break;
        }
        match compare_segment(one, two) {
            Ok((rest1, rest2)) => (one, two) = (rest1, rest2),
            Err(order) => return order,
        }
    }
    match (one.is_empty(), two.is_empty()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, _) => Ordering::Greater,
    }
}

/// Compares the leading segment (a run of digits, or of letters, as the first side starts)
/// of both sides: the rests when equal, the order otherwise.
fn compare_segment<'a>(one: &'a [u8], two: &'a [u8]) -> Result<(&'a [u8], &'a [u8]), Ordering> {
    let numeric = one[0].is_ascii_digit();
    let class = |c: &u8| {
        if numeric {
            c.is_ascii_digit()
        } else {
            c.is_ascii_alphabetic()
        }
    };
    let (seg1, rest1) = split_run(one, class);
    let (seg2, rest2) = split_run(two, class);
    if seg2.is_empty() {
        // A numeric segment is newer than an alphabetic one.
        return Err(if numeric {
            Ordering::Greater
        } else {
            Ordering::Less
        });
    }
    let order = if numeric {
        compare_numbers(seg1, seg2)
    } else {
        seg1.cmp(seg2)
    };
    match order {
        Ordering::Equal => Ok((rest1, rest2)),
        decided => Err(decided),
    }
}

enum Step {
    Decided(Ordering),
    Both,
}

/// `~` sorts before everything (even the end); `^` after the end but before anything else.
fn tilde_or_caret(one: &[u8], two: &[u8]) -> Option<Step> {
    let (c1, c2) = (one.first().copied(), two.first().copied());
    if c1 == Some(b'~') || c2 == Some(b'~') {
        return Some(match (c1, c2) {
            (Some(b'~'), Some(b'~')) => Step::Both,
            (Some(b'~'), _) => Step::Decided(Ordering::Less),
            _ => Step::Decided(Ordering::Greater),
        });
    }
    if c1 == Some(b'^') || c2 == Some(b'^') {
        return Some(match (c1, c2) {
            (None, _) => Step::Decided(Ordering::Less),
            (_, None) => Step::Decided(Ordering::Greater),
            (Some(b'^'), Some(b'^')) => Step::Both,
            (Some(b'^'), _) => Step::Decided(Ordering::Less),
            _ => Step::Decided(Ordering::Greater),
        });
    }
    None
}

fn skip_separators(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|c| c.is_ascii_alphanumeric() || *c == b'~' || *c == b'^')
        .unwrap_or(s.len());
    &s[start..]
}

fn split_run(s: &[u8], class: impl Fn(&u8) -> bool) -> (&[u8], &[u8]) {
    let end = s.iter().position(|c| !class(c)).unwrap_or(s.len());
    s.split_at(end)
}

/// Digits compared as numbers of any length: leading zeros ignored, longer is larger.
fn compare_numbers(a: &[u8], b: &[u8]) -> Ordering {
    let strip = |s: &[u8]| -> usize { s.iter().position(|c| *c != b'0').unwrap_or(s.len()) };
    let (a, b) = (&a[strip(a)..], &b[strip(b)..]);
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Ordering::{Equal, Greater, Less};

    /// Cases from rpm's own test suite (tests/rpmvercmp.at).
    const RPM_CASES: &[(&str, &str, Ordering)] = &[
        ("1.0", "1.0", Equal),
        ("1.0", "2.0", Less),
        ("2.0", "1.0", Greater),
        ("2.0.1", "2.0.1", Equal),
        ("2.0", "2.0.1", Less),
        ("2.0.1a", "2.0.1a", Equal),
        ("2.0.1a", "2.0.1", Greater),
        ("5.5p1", "5.5p1", Equal),
        ("5.5p1", "5.5p2", Less),
        ("5.5p10", "5.5p1", Greater),
        ("10xyz", "10.1xyz", Less),
        ("xyz10", "xyz10", Equal),
        ("xyz10", "xyz10.1", Less),
        ("xyz.4", "8", Less),
        ("xyz.4", "2", Less),
        ("5.5p2", "5.6p1", Less),
        ("5.6p1", "6.5p1", Less),
        ("6.0.rc1", "6.0", Greater),
        ("10b2", "10a1", Greater),
        ("1.0aa", "1.0a", Greater),
        ("10.0001", "10.1", Equal),
        ("10.0001", "10.0039", Less),
        ("4.999.9", "5.0", Less),
        ("20101121", "20101122", Less),
        ("2_0", "2_0", Equal),
        ("2.0", "2_0", Equal),
        ("a", "a", Equal),
        ("a+", "a_", Equal),
        ("+a", "_a", Equal),
        ("+_", "_+", Equal),
        ("+", "_", Equal),
        ("1.0~rc1", "1.0~rc1", Equal),
        ("1.0~rc1", "1.0", Less),
        ("1.0~rc1", "1.0~rc2", Less),
        ("1.0~rc1~git123", "1.0~rc1", Less),
        ("1.0^", "1.0^", Equal),
        ("1.0^", "1.0", Greater),
        ("1.0^git1", "1.0", Greater),
        ("1.0^git1", "1.0^git2", Less),
        ("1.0^git1", "1.01", Less),
        ("1.0^20160101", "1.0.1", Less),
        ("1.0^20160101^git1", "1.0^20160101", Greater),
        ("1.0~rc1^git1", "1.0~rc1", Greater),
        ("1.0^git1~pre", "1.0^git1", Less),
    ];

    #[test]
    fn agrees_with_rpms_own_test_cases() {
        for (a, b, expected) in RPM_CASES {
            assert_eq!(rpmvercmp(a, b), *expected, "{a} vs {b}");
            assert_eq!(rpmvercmp(b, a), expected.reverse(), "{b} vs {a}");
        }
    }
}
