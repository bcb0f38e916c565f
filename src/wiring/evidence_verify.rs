//! `repo-console evidence verify FILE... --key [ID=]PUBLIC.pem [--pulp-content-url URL]`: each
//! envelope's signature checked against the keys given, the files as a chain (each names the
//! one before it of the same repository and environment), and, with a content URL, that each
//! subject's newest attestation is what the distribution serves now.

use std::path::PathBuf;

use crate::adapters::pulp::PulpContent;
use crate::adapters::signing::ed25519::{check_signature, Ed25519PublicKey};
use crate::domain::evidence::dsse::Envelope;
use crate::domain::evidence::statement::Statement;
use crate::domain::evidence::verify::{check_chain, open, EvidenceRefusal};
use crate::domain::repository::Distribution;
use crate::ports::served_metadata::ServedMetadata;

/// What to verify.
pub struct VerifyEvidence {
    pub files: Vec<PathBuf>,
    /// `[ID=]PATH` to a PEM public key; without an id, the key is tried for any `keyid`.
    pub keys: Vec<String>,
    pub pulp_content_url: Option<String>,
}

/// Every file verified (one line each), or the first refusal; `Err` when the check could
/// not run (a file or key unreadable).
pub async fn verify(check: &VerifyEvidence) -> Result<Result<Vec<String>, String>, String> {
    let keys = check
        .keys
        .iter()
        .map(|given| {
            let (id, path) = match given.split_once('=') {
                Some((id, path)) => (id, path),
                None => ("*", given.as_str()),
            };
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--key {given}: cannot read {path}: {e}"))?;
            Ed25519PublicKey::from_pem(&text, id).map_err(|e| format!("--key {given}: {e}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if keys.is_empty() {
        return Err("name the public key with --key PUBLIC.pem (GET /api/v1/evidence/keys)".into());
    }
    let mut envelopes = Vec::new();
    for file in &check.files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let envelope: Envelope = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a DSSE envelope: {e}", file.display()))?;
        envelopes.push((file.display().to_string(), envelope));
    }
    let mut opened: Vec<(String, &Envelope, Statement)> = Vec::new();
    for (name, envelope) in &envelopes {
        match open(envelope, |signature, message| {
            check_signature(&keys, signature, message)
        }) {
            Ok(statement) => opened.push((name.clone(), envelope, statement)),
            Err(refusal) => return Ok(Err(format!("{name}: refused: {refusal}"))),
        }
    }
    let chain: Vec<(String, &Envelope, &Statement)> = opened
        .iter()
        .map(|(name, envelope, statement)| (name.clone(), *envelope, statement))
        .collect();
    if let Err(refusal) = check_chain(&chain) {
        return Ok(Err(format!("refused: {refusal}")));
    }
    if let Some(url) = &check.pulp_content_url {
        if let Err(refused) = served_now(url, &opened).await? {
            return Ok(Err(refused));
        }
    }
    Ok(Ok(opened
        .iter()
        .map(|(name, envelope, statement)| {
            let p = &statement.predicate;
            format!(
                "{name}: verified: {} {} -> v{} by {} (deploy {}), signed by {}",
                statement.subject.first().map_or("?", |s| s.name.as_str()),
                p.version_from
                    .map_or("nothing".to_owned(), |v| format!("v{v}")),
                p.version_to,
                serde_json::to_string(&p.deployed_by).unwrap_or_default(),
                p.deploy_id.as_str(),
                envelope
                    .signatures
                    .iter()
                    .map(|s| s.keyid.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect()))
}

/// Whether the newest attestation of each subject is what its distribution serves now.
async fn served_now(
    url: &str,
    opened: &[(String, &Envelope, Statement)],
) -> Result<Result<(), String>, String> {
    // The content app's URL has a path (`/pulp/content/`); the client's settings take the
    // server alone.
    let settings =
        crate::wiring::default_pulp_settings(&origin_of(url)?).map_err(|e| e.to_string())?;
    let content = PulpContent::new(&settings, url).map_err(|e| e.to_string())?;
    for (i, (name, _, statement)) in opened.iter().enumerate() {
        let subject = statement.subject.first();
        let newer = opened[i + 1..].iter().any(|(_, _, later)| {
            later.subject.first().map(|s| &s.name) == subject.map(|s| &s.name)
        });
        if newer {
            continue;
        }
        let pulp = &statement.predicate.pulp;
        let distribution = Distribution {
            href: crate::domain::repository::DistributionHref::new(pulp.distribution.clone()),
            name: pulp.distribution_name.clone(),
            base_path: pulp.base_path.clone(),
            publication: None,
            revision: None,
        };
        let served = content.repomd_sha256(&distribution).await?;
        let attested = subject.and_then(|s| s.sha256()).unwrap_or_default();
        if served.as_str() != attested {
            let refusal = EvidenceRefusal::SubjectMoved {
                attested: attested.to_owned(),
                served: served.to_string(),
                url: content.repomd_url(&distribution),
            };
            return Ok(Err(format!("{name}: refused: {refusal}")));
        }
    }
    Ok(Ok(()))
}

/// The scheme, host and port of `url` (`https://pulp.example.com/pulp/content/` gives
/// `https://pulp.example.com`).
fn origin_of(url: &str) -> Result<String, String> {
    let parsed =
        url::Url::parse(url).map_err(|e| format!("--pulp-content-url {url}: not a URL ({e})"))?;
    match parsed.origin() {
        url::Origin::Tuple(..) => Ok(parsed.origin().ascii_serialization()),
        url::Origin::Opaque(_) => Err(format!(
            "--pulp-content-url {url}: write an http or https URL, e.g. https://pulp.example.com/pulp/content/"
        )),
    }
}

#[cfg(test)]
mod origin_tests {
    use super::origin_of;

    #[test]
    fn the_content_urls_server_alone_is_given_to_the_client() {
        assert_eq!(
            origin_of("https://pulp.example.com/pulp/content/").unwrap(),
            "https://pulp.example.com"
        );
        assert_eq!(
            origin_of("http://127.0.0.1:58913/pulp/content/").unwrap(),
            "http://127.0.0.1:58913"
        );
        assert!(origin_of("pulp.example.com/pulp/content/").is_err());
    }
}
