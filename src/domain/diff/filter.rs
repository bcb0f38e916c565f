//! Which package changes of a diff an operator asked to see: one kind of change (or any),
//! and a piece of the package name (any case). The compare page and its downloads show
//! the changes that match, in the diff's own order.

use crate::domain::diff::{ChangeKind, PackageChange};

/// A kind of change the request names that is none of [`ChangeKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{shown}' is not a kind of change: use {known}, or leave it empty for every kind.")]
pub struct UnknownKind {
    /// The name as asked, cut to 24 characters.
    shown: String,
    /// The kinds there are, "added, removed, … or downgraded".
    known: String,
}

/// Reads a kind of change by its word (as [`ChangeKind::as_str`] writes it, any case):
/// absent or blank is any kind.
pub fn parse_kind(raw: Option<&str>) -> Result<Option<ChangeKind>, UnknownKind> {
    let Some(raw) = raw.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    ChangeKind::ALL
        .into_iter()
        .find(|kind| kind.as_str().eq_ignore_ascii_case(raw))
        .map(Some)
        .ok_or_else(|| UnknownKind {
            shown: raw.chars().take(24).collect(),
            known: known_kinds(),
        })
}

/// "added, removed, upgraded or downgraded": every kind, from [`ChangeKind::ALL`].
fn known_kinds() -> String {
    let words: Vec<&str> = ChangeKind::ALL.iter().map(|k| k.as_str()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_owned(),
        None => String::new(),
    }
}

/// A kind (or any) and a name fragment (or any). The default matches every change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageFilter {
    kind: Option<ChangeKind>,
    /// As asked, trimmed; `None` when blank.
    name: Option<String>,
    /// `name` lowercased, what names are searched for.
    needle: Option<String>,
}

impl PackageFilter {
    /// Changes of `kind` (any when `None`) whose name holds `name` in any case (any name
    /// when blank; surrounding spaces do not count).
    pub fn new(kind: Option<ChangeKind>, name: Option<&str>) -> Self {
        let name = name.map(str::trim).filter(|s| !s.is_empty());
        Self {
            kind,
            name: name.map(str::to_owned),
            needle: name.map(str::to_lowercase),
        }
    }

    pub fn kind(&self) -> Option<ChangeKind> {
        self.kind
    }

    /// The name fragment, as asked (trimmed).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether it lets every change through (no kind, no name asked).
    pub fn is_everything(&self) -> bool {
        self.kind.is_none() && self.name.is_none()
    }

    pub fn matches(&self, change: &PackageChange) -> bool {
        self.kind.is_none_or(|kind| change.kind == kind)
            && self.needle.as_deref().is_none_or(|needle| {
                if change.name.is_ascii() && needle.is_ascii() {
                    contains_ignore_ascii_case(&change.name, needle)
                } else {
                    change.name.to_lowercase().contains(needle)
                }
            })
    }

    /// The changes that match, in their order.
    pub fn select<'a>(
        &'a self,
        changes: &'a [PackageChange],
    ) -> impl Iterator<Item = &'a PackageChange> + 'a {
        changes.iter().filter(|c| self.matches(c))
    }
}

/// `hay` holds `needle` (already lowercase), ASCII letters compared in any case: no
/// allocation, for the common case of the thousands of names of a large diff.
fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    needle.is_empty()
        || hay.windows(needle.len()).any(|w| {
            w.iter()
                .zip(needle)
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::Evr;

    fn change(name: &str, kind: ChangeKind) -> PackageChange {
        PackageChange {
            name: name.into(),
            arch: "noarch".into(),
            kind,
            old: vec![],
            new: vec![Evr::new(0, "1", "1")],
            security: false,
            kept: None,
        }
    }

    fn names(filter: &PackageFilter, changes: &[PackageChange]) -> Vec<String> {
        filter.select(changes).map(|c| c.name.clone()).collect()
    }

    fn sample() -> Vec<PackageChange> {
        vec![
            change("openssl-libs", ChangeKind::Upgraded),
            change("OpenSSH", ChangeKind::Added),
            change("kernel", ChangeKind::Removed),
            change("libssh", ChangeKind::Downgraded),
            change("Ärger-ssl", ChangeKind::Added),
        ]
    }

    #[test]
    fn the_default_filter_lets_every_change_through_in_order() {
        let filter = PackageFilter::default();
        assert!(filter.is_everything());
        assert_eq!(names(&filter, &sample()).len(), 5);
        assert_eq!(PackageFilter::new(None, Some("  ")), filter);
    }

    #[test]
    fn a_kind_keeps_only_changes_of_that_kind() {
        let filter = PackageFilter::new(Some(ChangeKind::Added), None);
        assert_eq!(names(&filter, &sample()), ["OpenSSH", "Ärger-ssl"]);
        assert!(!filter.is_everything());
    }

    #[test]
    fn a_name_matches_a_piece_of_the_name_in_any_case() {
        let filter = PackageFilter::new(None, Some(" SSH "));
        assert_eq!(filter.name(), Some("SSH"));
        assert_eq!(names(&filter, &sample()), ["OpenSSH", "libssh"]);
        let unicode = PackageFilter::new(None, Some("äRGER"));
        assert_eq!(names(&unicode, &sample()), ["Ärger-ssl"]);
        let nothing = PackageFilter::new(None, Some("zzz"));
        assert!(names(&nothing, &sample()).is_empty());
    }

    #[test]
    fn kind_and_name_must_both_match() {
        let filter = PackageFilter::new(Some(ChangeKind::Upgraded), Some("ssl"));
        assert_eq!(names(&filter, &sample()), ["openssl-libs"]);
        let none = PackageFilter::new(Some(ChangeKind::Removed), Some("ssl"));
        assert!(names(&none, &sample()).is_empty());
    }

    #[test]
    fn every_kind_is_read_by_its_word_in_any_case_and_blank_is_any() {
        for kind in ChangeKind::ALL {
            assert_eq!(parse_kind(Some(kind.as_str())), Ok(Some(kind)));
            let upper = kind.as_str().to_uppercase();
            assert_eq!(parse_kind(Some(&format!(" {upper} "))), Ok(Some(kind)));
        }
        assert_eq!(parse_kind(None), Ok(None));
        assert_eq!(parse_kind(Some(" ")), Ok(None));
    }

    #[test]
    fn an_unknown_kind_is_refused_naming_every_kind_there_is() {
        let error = parse_kind(Some("changed")).unwrap_err().to_string();
        assert!(
            error.starts_with("'changed' is not a kind of change: use "),
            "{error}"
        );
        for kind in ChangeKind::ALL {
            assert!(error.contains(kind.as_str()), "{error}");
        }
        let long = parse_kind(Some(&"x".repeat(100))).unwrap_err().to_string();
        assert!(long.contains(&format!("'{}'", "x".repeat(24))), "{long}");
    }
}
