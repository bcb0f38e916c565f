//! Whether a content type carries advisories, as an answer of its own: a read of a version's
//! advisories is either what upstream holds ([`Advisories::Carried`]) or, for a type that has
//! none by its nature, [`Advisories::NotApplicable`], decided here by the type's room before
//! anything is asked upstream. An empty list therefore always means "none in this version",
//! never "none of this kind".

use super::kind::ContentType;
use super::{deb, rpm};

/// A content type's answer about advisories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Advisories<T> {
    /// The type carries advisories: what was read (possibly none).
    Carried(T),
    /// The type carries no advisories at all (Debian): nothing was asked.
    NotApplicable(ContentType),
}

impl<T> Advisories<T> {
    /// The same answer with what was read turned by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Advisories<U> {
        match self {
            Self::Carried(read) => Advisories::Carried(f(read)),
            Self::NotApplicable(t) => Advisories::NotApplicable(t),
        }
    }

    /// What was read, if the type carries advisories.
    pub fn carried(self) -> Option<T> {
        match self {
            Self::Carried(read) => Some(read),
            Self::NotApplicable(_) => None,
        }
    }
}

impl ContentType {
    /// Whether versions of this type are asked for advisories: `Carried(())` when they carry
    /// them, else `NotApplicable`. Each type's room says it.
    pub fn advisories(self) -> Advisories<()> {
        let carries = match self {
            Self::Rpm => rpm::CARRIES_ADVISORIES,
            Self::Deb => deb::CARRIES_ADVISORIES,
        };
        if carries {
            Advisories::Carried(())
        } else {
            Advisories::NotApplicable(self)
        }
    }

    /// Whether versions of this type carry advisories (errata). A Debian repository has
    /// none by its nature: the console says so instead of showing an empty list.
    pub fn has_advisories(self) -> bool {
        matches!(self.advisories(), Advisories::Carried(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rpm_carries_advisories() {
        assert_eq!(ContentType::Rpm.advisories(), Advisories::Carried(()));
        assert_eq!(
            ContentType::Deb.advisories(),
            Advisories::NotApplicable(ContentType::Deb)
        );
        assert!(ContentType::Rpm.has_advisories());
        assert!(!ContentType::Deb.has_advisories());
    }

    #[test]
    fn an_answer_keeps_its_kind_when_mapped() {
        let read: Advisories<Vec<u8>> = Advisories::Carried(vec![]);
        assert_eq!(
            read.map(|v| v.len()).carried(),
            Some(0),
            "none read, but carried"
        );
        let none: Advisories<Vec<u8>> = Advisories::NotApplicable(ContentType::Deb);
        assert_eq!(none.map(|v| v.len()).carried(), None);
    }
}
