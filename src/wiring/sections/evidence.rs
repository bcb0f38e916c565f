//! `[evidence]`, checked: the signing key's file and id, the public keys kept after a
//! rotation (`ID=PATH`), where Pulp's content app serves. The files are read at start
//! ([`crate::wiring::startup`]), each failure naming its key.

use std::path::PathBuf;

use serde::Deserialize;

use crate::wiring::sections::error::{invalid, ConfigError};

/// `[evidence]` as written (declared here, beside its check; `config/raw.rs` assembles it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEvidence {
    pub key_file: PathBuf,
    pub key_id: String,
    pub previous_public_keys: Vec<String>,
    pub content_url: String,
}

/// What `[evidence]` asks for.
#[derive(Debug, Clone, Default)]
pub struct EvidenceSettings {
    /// The private key's file and its id; `None`: no evidence.
    pub signing: Option<(PathBuf, String)>,
    /// Each older public key: its id and its PEM file.
    pub previous: Vec<(String, PathBuf)>,
    /// Empty: `<pulp.base_url>/pulp/content/`.
    pub content_url: String,
}

pub(crate) fn validate(raw: RawEvidence) -> Result<EvidenceSettings, ConfigError> {
    let key_id = raw.key_id.trim().to_owned();
    let usable_id = |id: &str| {
        !id.is_empty() && id.len() <= 128 && !id.chars().any(|c| c.is_whitespace() || c == '=')
    };
    if !usable_id(&key_id) {
        let reason = format!("'{key_id}': 1 to 128 characters, no spaces nor '='");
        return Err(invalid("evidence.key_id", reason));
    }
    let previous = raw
        .previous_public_keys
        .iter()
        .map(|entry| {
            let (id, path) = entry
                .split_once('=')
                .filter(|(id, _)| usable_id(id.trim()))
                .ok_or_else(|| {
                    invalid(
                        "evidence.previous_public_keys",
                        format!("'{entry}': write each as ID=PATH to the PEM public key"),
                    )
                })?;
            if id.trim() == key_id {
                let reason = format!("'{id}' is the current key's id (evidence.key_id)");
                return Err(invalid("evidence.previous_public_keys", reason));
            }
            Ok((id.trim().to_owned(), PathBuf::from(path.trim())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let content_url = raw.content_url.trim().to_owned();
    let web = content_url.starts_with("http://") || content_url.starts_with("https://");
    if !(content_url.is_empty() || web) {
        let reason = format!("'{content_url}': an http:// or https:// URL");
        return Err(invalid("evidence.content_url", reason));
    }
    Ok(EvidenceSettings {
        signing: (!raw.key_file.as_os_str().is_empty()).then_some((raw.key_file, key_id)),
        previous,
        content_url,
    })
}

#[cfg(test)]
mod tests {
    use crate::wiring::config::{load, Overrides};

    fn refused(key: &str, value: &str) -> String {
        load(&Overrides::default().flag(key, value))
            .err()
            .unwrap_or_else(|| panic!("{key}={value} is refused"))
            .to_string()
    }

    #[test]
    fn without_a_key_file_nothing_is_signed_and_settings_come_from_flags() {
        let config = load(&Overrides::default()).unwrap();
        assert!(config.evidence.signing.is_none());
        let config = load(
            &Overrides::default()
                .flag("evidence.key_file", "/etc/console/evidence.pem")
                .flag("evidence.key_id", "console-2026")
                .flag("evidence.previous_public_keys", "console-2025=/etc/old.pem")
                .flag("audit.verify_interval_secs", "0"),
        )
        .unwrap();
        let (file, id) = config.evidence.signing.unwrap();
        assert_eq!(
            (file.to_str().unwrap(), id.as_str()),
            ("/etc/console/evidence.pem", "console-2026")
        );
        assert_eq!(config.evidence.previous[0].0, "console-2025");
        assert!(config.audit.verify_interval.is_zero());
    }

    #[test]
    fn a_bad_key_id_previous_key_content_url_or_interval_is_refused_naming_its_key() {
        assert!(refused("evidence.key_id", "two words").contains("evidence.key_id"));
        assert!(refused("evidence.key_id", "").contains("evidence.key_id"));
        let no_id = refused("evidence.previous_public_keys", "/etc/old.pem");
        assert!(
            no_id.contains("evidence.previous_public_keys") && no_id.contains("ID=PATH"),
            "{no_id}"
        );
        let same = refused("evidence.previous_public_keys", "repo-console=/etc/old.pem");
        assert!(same.contains("current key"), "{same}");
        assert!(refused("evidence.content_url", "ftp://pulp/").contains("evidence.content_url"));
        assert!(
            refused("audit.verify_interval_secs", "9999999").contains("audit.verify_interval_secs")
        );
    }
}
