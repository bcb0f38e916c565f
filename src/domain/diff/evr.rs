//! A package's version, epoch, version and release, with the content type whose tools order
//! it: each field is compared by that type's rule ([`ContentType::field_cmp`]: rpm's
//! `rpmvercmp`, dpkg's `verrevcmp`), epoch first, then version, then release.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::content::deb::version::DebVersion;
use crate::domain::content::kind::ContentType;

/// Epoch, version and release of a package (for a Debian package: epoch, upstream version
/// and revision). Equality is textual (as upstream stores it); use [`Evr::version_cmp`] to
/// order versions the way the package's own tools do (rpm and dnf, or dpkg and apt).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Evr {
    pub epoch: u64,
    pub version: String,
    pub release: String,
    /// Whose rules order it: RPM's (left out of JSON, as before Debian) or Debian's.
    #[serde(default, skip_serializing_if = "is_rpm")]
    pub order: ContentType,
}

fn is_rpm(order: &ContentType) -> bool {
    *order == ContentType::Rpm
}

impl Evr {
    /// An RPM package's epoch, version and release.
    pub fn new(epoch: u64, version: impl Into<String>, release: impl Into<String>) -> Self {
        Self {
            epoch,
            version: version.into(),
            release: release.into(),
            order: ContentType::Rpm,
        }
    }

    /// A Debian package's version, ordered as dpkg orders it.
    pub fn debian(version: &DebVersion) -> Self {
        Self {
            epoch: version.epoch(),
            version: version.upstream().to_owned(),
            release: version.revision().to_owned(),
            order: ContentType::Deb,
        }
    }

    /// The order of the package's own tools: dpkg's between two Debian versions, rpm's
    /// otherwise.
    pub fn version_cmp(&self, other: &Self) -> Ordering {
        // Two types' versions share no order; the default type's (rpm's) decides then.
        let order = if self.order == other.order {
            self.order
        } else {
            ContentType::default()
        };
        self.cmp_by(order, other)
    }

    /// An epoch as upstream sends it (`"0"`, `""`, `"2"`): blank or unreadable means 0.
    pub fn parse_epoch(raw: &str) -> u64 {
        raw.trim().parse().unwrap_or(0)
    }

    /// rpm's order: epoch first, then version, then release.
    pub fn rpm_cmp(&self, other: &Self) -> Ordering {
        self.cmp_by(ContentType::Rpm, other)
    }

    /// Epoch, then version, then release, each field in `order`'s rule.
    fn cmp_by(&self, order: ContentType, other: &Self) -> Ordering {
        self.epoch
            .cmp(&other.epoch)
            .then_with(|| order.field_cmp(&self.version, &other.version))
            .then_with(|| order.field_cmp(&self.release, &other.release))
    }

    /// The package's own order ([`Self::version_cmp`]), with builds it holds equal but
    /// spelled differently (`1.0` and `1.00`) ordered by their text, so that one of several
    /// builds is always the newest.
    pub fn total_cmp(&self, other: &Self) -> Ordering {
        self.version_cmp(other)
            .then_with(|| (&self.version, &self.release).cmp(&(&other.version, &other.release)))
    }
}

/// `version-release`, with `epoch:` in front when the epoch is not 0 (as rpm prints it).
impl fmt::Display for Evr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.epoch != 0 {
            write!(f, "{}:", self.epoch)?;
        }
        // A Debian native version has no revision (an RPM always has a release).
        if self.release.is_empty() {
            return f.write_str(&self.version);
        }
        write!(f, "{}-{}", self.version, self.release)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Ordering::{Equal, Greater, Less};

    #[test]
    fn epoch_wins_over_version_and_version_over_release() {
        assert_eq!(
            Evr::new(1, "1.0", "1").rpm_cmp(&Evr::new(0, "9.9", "9")),
            Greater
        );
        assert_eq!(
            Evr::new(0, "2", "1").rpm_cmp(&Evr::new(0, "1", "99")),
            Greater
        );
        assert_eq!(Evr::new(0, "2", "1").rpm_cmp(&Evr::new(0, "2", "2")), Less);
        assert_eq!(Evr::new(0, "2", "1").rpm_cmp(&Evr::new(0, "2", "1")), Equal);
    }

    #[test]
    fn prints_like_rpm_and_reads_upstream_epochs() {
        assert_eq!(Evr::new(0, "1", "1").to_string(), "1-1");
        assert_eq!(Evr::new(2, "1.4", "3.el9").to_string(), "2:1.4-3.el9");
        assert_eq!(Evr::parse_epoch("0"), 0);
        assert_eq!(Evr::parse_epoch(""), 0);
        assert_eq!(Evr::parse_epoch("3"), 3);
    }
}
