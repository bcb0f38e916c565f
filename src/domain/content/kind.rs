//! The content type of a repository: which packaging world its versions belong to. Upstream
//! says it (the repository comes from the plugin that serves it); the console never guesses.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kind of packages a repository holds, and so the rules its versions follow.
/// The default is RPM: what every repository was before the console knew other types, so a
/// record written then reads as RPM.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ContentType {
    /// RPM packages (RHEL, Fedora, SUSE), read by dnf, yum and zypper.
    #[default]
    Rpm,
    /// Debian packages (Debian, Ubuntu), read by apt.
    Deb,
}

impl ContentType {
    /// Every content type, in the order pages list them.
    pub const ALL: [ContentType; 2] = [Self::Rpm, Self::Deb];

    /// The stable key: in the JSON API, the audit and page hooks (`data-content-type`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rpm => "rpm",
            Self::Deb => "deb",
        }
    }

    /// The word shown to an operator.
    pub fn label(self) -> &'static str {
        match self {
            Self::Rpm => "RPM",
            Self::Deb => "Debian",
        }
    }

    /// The content type with this key, if any.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == key)
    }
}

impl fmt::Display for ContentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_reads_back_as_its_type_and_nothing_else_does() {
        for t in ContentType::ALL {
            assert_eq!(ContentType::from_key(t.as_str()), Some(t));
        }
        assert_eq!(ContentType::from_key("RPM"), None);
        assert_eq!(ContentType::from_key("apt"), None);
        assert_eq!(ContentType::from_key(""), None);
    }

    #[test]
    fn the_key_is_what_json_says() {
        assert_eq!(serde_json::to_string(&ContentType::Deb).unwrap(), "\"deb\"");
        assert_eq!(
            serde_json::from_str::<ContentType>("\"rpm\"").unwrap(),
            ContentType::Rpm
        );
    }
}
