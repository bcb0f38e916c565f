//! Which rule orders one field of a version (the upstream version, or the release or
//! revision): each content type's own, from its room.

use std::cmp::Ordering;

use super::kind::ContentType;
use super::{deb, rpm};

impl ContentType {
    /// `a` against `b`, one field of a version, as this type's tools compare it: rpm's
    /// `rpmvercmp`, or dpkg's `verrevcmp`.
    pub fn field_cmp(self, a: &str, b: &str) -> Ordering {
        match self {
            Self::Rpm => rpm::version::rpmvercmp(a, b),
            Self::Deb => deb::version::verrevcmp(a, b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_orders_a_tilde_and_a_plus_by_its_own_rule() {
        // Both put `~` first; only dpkg puts `+` after the end (rpm skips it as a separator).
        for t in ContentType::ALL {
            assert_eq!(t.field_cmp("2.0~rc1", "2.0"), Ordering::Less, "{t}");
        }
        assert_eq!(ContentType::Deb.field_cmp("1+b1", "1"), Ordering::Greater);
        assert_eq!(ContentType::Rpm.field_cmp("1+b1", "1.b1"), Ordering::Equal);
    }
}
