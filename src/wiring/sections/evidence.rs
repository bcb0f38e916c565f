//! `[evidence]`, checked: the signing key's file and id, the public keys kept after a
//! rotation (`ID=PATH`), where Pulp's content app serves. The files are read at start
//! ([`crate::wiring::startup`]), each failure naming its key.

use std::path::PathBuf;

use crate::wiring::config::error::{invalid, ConfigError};
use crate::wiring::config::raw::RawEvidence;

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
