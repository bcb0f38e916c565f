//! The question an exposure answer is for: a package (with an arch and a bound, or not),
//! an advisory, or a CVE. Parsed once from what a form or a script sent; a wrong question
//! is refused with what to write instead.

use std::cmp::Ordering;
use std::fmt;

use serde::Serialize;

use crate::domain::diff::Evr;

/// Characters shown of a refused value, at most.
const SHOWN_CHARS: usize = 60;
/// The longest name, id or version accepted.
const MAX_CHARS: usize = 200;

/// One question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExposureQuery {
    /// Which builds of `name` each environment serves (`arch`: of that arch only); with
    /// `below`, judged against that bound.
    Package {
        name: String,
        arch: Option<String>,
        below: Option<EvrBound>,
    },
    /// Judged against the packages one advisory names.
    Advisory(String),
    /// Judged against every advisory whose references name this CVE.
    Cve(CveId),
}

/// What a form or a script sent, each field as typed (blank is absent).
#[derive(Debug, Clone, Default)]
pub struct RawQuery<'a> {
    pub package: Option<&'a str>,
    pub arch: Option<&'a str>,
    pub below: Option<&'a str>,
    pub advisory: Option<&'a str>,
    pub cve: Option<&'a str>,
}

/// Why a question cannot be asked, in words saying what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadExposureQuery(pub String);

impl ExposureQuery {
    /// The question `raw` asks; `Ok(None)` when it asks nothing (the empty form).
    pub fn parse(raw: &RawQuery<'_>) -> Result<Option<Self>, BadExposureQuery> {
        fn given(v: Option<&str>) -> Option<&str> {
            v.map(str::trim).filter(|v| !v.is_empty())
        }
        let (package, arch, below) = (given(raw.package), given(raw.arch), given(raw.below));
        let (advisory, cve) = (given(raw.advisory), given(raw.cve));
        let asked = [package, advisory, cve]
            .iter()
            .filter(|v| v.is_some())
            .count();
        if asked > 1 {
            return Err(BadExposureQuery(
                "Ask one question at a time: package, advisory or cve.".into(),
            ));
        }
        if package.is_none() && (arch.is_some() || below.is_some()) {
            return Err(BadExposureQuery(
                "'arch' and 'below' go with 'package': name the package too.".into(),
            ));
        }
        if let Some(name) = package {
            return Ok(Some(Self::Package {
                name: token("package", name)?,
                arch: arch.map(|a| token("arch", a)).transpose()?,
                below: below.map(EvrBound::parse).transpose()?,
            }));
        }
        if let Some(id) = advisory {
            return Ok(Some(Self::Advisory(token("advisory", id)?)));
        }
        cve.map(|c| CveId::parse(c).map(Self::Cve)).transpose()
    }

    /// The query as a form or a URL carries it (`package=…&arch=…&below=…`, `advisory=…`,
    /// `cve=…`), unencoded: pairs of name and value.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        match self {
            Self::Package { name, arch, below } => {
                let mut pairs = vec![("package", name.clone())];
                pairs.extend(arch.iter().map(|a| ("arch", a.clone())));
                pairs.extend(below.iter().map(|b| ("below", b.to_string())));
                pairs
            }
            Self::Advisory(id) => vec![("advisory", id.clone())],
            Self::Cve(cve) => vec![("cve", cve.to_string())],
        }
    }
}

/// A name, arch or advisory id: printable, no spaces or commas (Pulp's `name__in` separator),
/// at most 200 characters.
fn token(field: &str, value: &str) -> Result<String, BadExposureQuery> {
    let fine = value.chars().count() <= MAX_CHARS
        && value
            .chars()
            .all(|c| c.is_ascii_graphic() && c != ',' && c != '"');
    if fine {
        Ok(value.to_owned())
    } else {
        Err(BadExposureQuery(format!(
            "'{}' is not a {field}: write it without spaces, commas or quotes, as Pulp names it.",
            shown(value)
        )))
    }
}

fn shown(value: &str) -> String {
    value.chars().take(SHOWN_CHARS).collect()
}

/// A CVE identifier, `CVE-<year>-<number>`, upper case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct CveId(String);

impl CveId {
    /// `CVE-2026-1234` (any case; 4 digits of year, at least 4 of number).
    pub fn parse(raw: &str) -> Result<Self, BadExposureQuery> {
        let upper = raw.trim().to_ascii_uppercase();
        let fine = upper
            .strip_prefix("CVE-")
            .and_then(|rest| rest.split_once('-'))
            .is_some_and(|(year, number)| {
                year.len() == 4
                    && (4..=19).contains(&number.len())
                    && year
                        .bytes()
                        .chain(number.bytes())
                        .all(|b| b.is_ascii_digit())
            });
        if fine {
            Ok(Self(upper))
        } else {
            Err(BadExposureQuery(format!(
                "'{}' is not a CVE identifier: write it as CVE-2026-1234.",
                shown(raw)
            )))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CveId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A bound to judge builds against: `[epoch:]version[-release]`. Without a release, only
/// epoch and version are compared (as rpm compares a dependency `openssl < 3.0.7`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvrBound {
    pub epoch: u64,
    pub version: String,
    pub release: Option<String>,
}

impl EvrBound {
    pub fn parse(raw: &str) -> Result<Self, BadExposureQuery> {
        let bad = || {
            BadExposureQuery(format!(
                "'{}' is not a version to compare with: write [epoch:]version[-release], e.g. \
                 3.0.7, 1:3.0.7 or 3.0.7-25.el9.",
                shown(raw)
            ))
        };
        let text = raw.trim();
        let allowed = |s: &str| {
            !s.is_empty()
                && s.chars().count() <= MAX_CHARS
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._+~^".contains(c))
        };
        let (epoch, rest) = match text.split_once(':') {
            Some((epoch, rest)) => (epoch.parse::<u64>().map_err(|_| bad())?, rest),
            None => (0, text),
        };
        let (version, release) = match rest.split_once('-') {
            Some((version, release)) => (version, Some(release)),
            None => (rest, None),
        };
        if !allowed(version) || release.is_some_and(|r| !allowed(r)) {
            return Err(bad());
        }
        Ok(Self {
            epoch,
            version: version.to_owned(),
            release: release.map(str::to_owned),
        })
    }

    /// The bound an advisory's build sets: its whole EVR.
    pub fn of(evr: &Evr) -> Self {
        Self {
            epoch: evr.epoch,
            version: evr.version.clone(),
            release: Some(evr.release.clone()),
        }
    }

    /// How `evr` compares with this bound, in the order of `evr`'s own tools (rpm's, or
    /// dpkg's for a Debian package), the release only when the bound has one.
    pub fn compare(&self, evr: &Evr) -> Ordering {
        let part = |a: &str, b: &str| evr.order.field_cmp(a, b);
        evr.epoch
            .cmp(&self.epoch)
            .then_with(|| part(&evr.version, &self.version))
            .then_with(|| match &self.release {
                Some(release) => part(&evr.release, release),
                None => Ordering::Equal,
            })
    }

    /// `evr` is at or above this bound.
    pub fn reached_by(&self, evr: &Evr) -> bool {
        self.compare(evr) != Ordering::Less
    }
}

/// As typed back: `epoch:` only when not 0.
impl fmt::Display for EvrBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.epoch != 0 {
            write!(f, "{}:", self.epoch)?;
        }
        f.write_str(&self.version)?;
        if let Some(release) = &self.release {
            write!(f, "-{release}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debian_build_is_held_against_the_bound_in_dpkg_s_order() {
        use crate::domain::content::deb::version::DebVersion;
        let deb = |v: &str| Evr::debian(&DebVersion::parse(v).unwrap());
        let bound = EvrBound::parse("2.0-1").unwrap();
        assert!(!bound.reached_by(&deb("2.0~rc1-1")));
        assert!(bound.reached_by(&deb("2.0-1+b1")));
        assert!(bound.reached_by(&deb("1:0.9-1")));
        // rpm holds 2.0+1 and 2.0.1 equal; dpkg sorts "+" before ".".
        let dotted = EvrBound::parse("2.0.1").unwrap();
        assert!(!dotted.reached_by(&deb("2.0+1")));
        assert!(dotted.reached_by(&Evr::new(0, "2.0+1", "1")));
    }

    fn raw<'a>(package: &'a str, arch: &'a str, below: &'a str) -> RawQuery<'a> {
        RawQuery {
            package: Some(package),
            arch: Some(arch),
            below: Some(below),
            ..RawQuery::default()
        }
    }

    #[test]
    fn one_question_at_a_time_and_blank_is_none() {
        assert_eq!(ExposureQuery::parse(&RawQuery::default()), Ok(None));
        assert_eq!(ExposureQuery::parse(&raw(" ", "", "")), Ok(None));
        let both = RawQuery {
            package: Some("openssl"),
            cve: Some("CVE-2026-1234"),
            ..RawQuery::default()
        };
        assert!(ExposureQuery::parse(&both)
            .unwrap_err()
            .0
            .contains("one question"));
        let lonely = RawQuery {
            below: Some("3.0.7"),
            ..RawQuery::default()
        };
        assert!(ExposureQuery::parse(&lonely)
            .unwrap_err()
            .0
            .contains("package"));
    }

    #[test]
    fn a_package_question_reads_its_arch_and_bound() {
        let q = ExposureQuery::parse(&raw("openssl", "x86_64", "1:3.0.7-25.el9"))
            .unwrap()
            .unwrap();
        let ExposureQuery::Package { name, arch, below } = &q else {
            panic!("a package question")
        };
        assert_eq!(
            (name.as_str(), arch.as_deref()),
            ("openssl", Some("x86_64"))
        );
        let below = below.clone().unwrap();
        assert_eq!((below.epoch, below.version.as_str()), (1, "3.0.7"));
        assert_eq!(below.release.as_deref(), Some("25.el9"));
        assert_eq!(
            q.pairs(),
            [
                ("package", "openssl".to_owned()),
                ("arch", "x86_64".to_owned()),
                ("below", "1:3.0.7-25.el9".to_owned())
            ]
        );
        assert!(ExposureQuery::parse(&raw("open ssl", "", "")).is_err());
        assert!(ExposureQuery::parse(&raw("a,b", "", "")).is_err());
        assert!(ExposureQuery::parse(&raw("openssl", "", "3.0-1-2")).is_err());
        assert!(ExposureQuery::parse(&raw("openssl", "", "x:3.0")).is_err());
    }

    #[test]
    fn a_cve_is_read_in_any_case_and_refused_otherwise() {
        assert_eq!(
            CveId::parse(" cve-2026-01234 ").unwrap().as_str(),
            "CVE-2026-01234"
        );
        for bad in [
            "CVE-26-1234",
            "CVE-2026-12",
            "2026-1234",
            "CVE-2026-12a4",
            "CVE-2026",
        ] {
            assert!(CveId::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bound_without_release_compares_epoch_and_version_only() {
        let bound = EvrBound::parse("3.0.7").unwrap();
        assert!(bound.reached_by(&Evr::new(0, "3.0.7", "1.el9")));
        assert!(bound.reached_by(&Evr::new(0, "3.0.10", "1")));
        assert!(
            !bound.reached_by(&Evr::new(0, "3.0.7~rc1", "1")),
            "a tilde is older"
        );
        assert!(
            bound.reached_by(&Evr::new(0, "3.0.7^git1", "1")),
            "a caret is newer"
        );
        assert!(bound.reached_by(&Evr::new(1, "1.0", "1")), "the epoch wins");
        let with_release = EvrBound::parse("3.0.7-25.el9").unwrap();
        assert!(!with_release.reached_by(&Evr::new(0, "3.0.7", "24.el9")));
        assert!(with_release.reached_by(&Evr::new(0, "3.0.7", "25.el9")));
        let epoch = EvrBound::parse("2:1.0").unwrap();
        assert!(!epoch.reached_by(&Evr::new(1, "9.9", "9")));
        assert_eq!(epoch.to_string(), "2:1.0");
    }
}
