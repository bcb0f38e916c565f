//! A webhook's signing keys, as its `secret_file` holds them: one line, or two while the
//! secret is rotated (the first signs the deprecated header; every delivery is signed with
//! both in `webhook-signature`, so a receiver holding either verifies it). A line written
//! `whsec_<base64>` is the Standard Webhooks form: the key is the decoded bytes; any other
//! line is the key's raw bytes.

use std::fmt;

use base64::Engine;

/// The prefix of a Standard Webhooks secret.
const STANDARD_PREFIX: &str = "whsec_";

/// A webhook's keys (one or two, the signing one first). Its `Debug` shows nothing of them.
#[derive(Clone)]
pub struct WebhookSecret(Vec<Vec<u8>>);

/// Why a secret file's text holds no usable keys (the text itself never appears).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidSecret {
    #[error("it holds no secret (the first line is empty)")]
    Empty,
    #[error("it holds more than two secrets (one, or two while rotating: the new one first)")]
    TooMany,
    #[error("line {0} starts with whsec_ but the rest is not base64: write whsec_ and the key in base64, or the secret itself without the prefix")]
    NotBase64(usize),
    #[error("line {0} is whsec_ with an empty key")]
    EmptyKey(usize),
}

impl WebhookSecret {
    /// One key, its raw bytes.
    pub fn new(secret: impl Into<Vec<u8>>) -> Self {
        Self(vec![secret.into()])
    }

    /// The keys of a secret file's text: its non-empty lines (surrounding spaces trimmed),
    /// one or two, the first one on the first line.
    pub fn parse(text: &str) -> Result<Self, InvalidSecret> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        if lines.first().is_none_or(|first| first.is_empty()) {
            return Err(InvalidSecret::Empty);
        }
        let given: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .filter(|(_, line)| !line.is_empty())
            .map(|(i, line)| (i + 1, *line))
            .collect();
        if given.len() > 2 {
            return Err(InvalidSecret::TooMany);
        }
        let keys = given
            .into_iter()
            .map(|(number, line)| key(number, line))
            .collect::<Result<_, _>>()?;
        Ok(Self(keys))
    }

    /// The keys, the signing one first.
    pub fn keys(&self) -> &[Vec<u8>] {
        &self.0
    }

    /// The key that signs the deprecated `X-Repo-Console-Signature`.
    pub fn signing_key(&self) -> &[u8] {
        &self.0[0]
    }
}

fn key(number: usize, line: &str) -> Result<Vec<u8>, InvalidSecret> {
    let Some(encoded) = line.strip_prefix(STANDARD_PREFIX) else {
        return Ok(line.as_bytes().to_vec());
    };
    let key = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| InvalidSecret::NotBase64(number))?;
    if key.is_empty() {
        return Err(InvalidSecret::EmptyKey(number));
    }
    Ok(key)
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebhookSecret({} key(s), ***)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whsec_line_is_its_base64_key_and_any_other_line_its_raw_bytes() {
        let standard = WebhookSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n").unwrap();
        assert_eq!(
            standard.keys(),
            [base64::engine::general_purpose::STANDARD
                .decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
                .unwrap()]
        );
        let raw = WebhookSecret::parse("  s3cret value \n").unwrap();
        assert_eq!(raw.keys(), [b"s3cret value".to_vec()]);
    }

    #[test]
    fn two_lines_are_two_keys_while_rotating_and_the_first_signs() {
        let rotating = WebhookSecret::parse("new-secret\n\nwhsec_b2xk\n").unwrap();
        assert_eq!(rotating.keys(), [b"new-secret".to_vec(), b"old".to_vec()]);
        assert_eq!(rotating.signing_key(), b"new-secret");
    }

    #[test]
    fn an_empty_a_third_or_a_broken_whsec_line_is_refused_without_showing_it() {
        assert_eq!(WebhookSecret::parse("").unwrap_err(), InvalidSecret::Empty);
        assert_eq!(
            WebhookSecret::parse("\nlate").unwrap_err(),
            InvalidSecret::Empty
        );
        assert_eq!(
            WebhookSecret::parse("a\nb\nc").unwrap_err(),
            InvalidSecret::TooMany
        );
        let broken = WebhookSecret::parse("a\nwhsec_not*base64").unwrap_err();
        assert_eq!(broken, InvalidSecret::NotBase64(2));
        assert!(!broken.to_string().contains("not*base64"));
        assert_eq!(
            WebhookSecret::parse("whsec_").unwrap_err(),
            InvalidSecret::EmptyKey(1)
        );
        assert_eq!(
            format!("{:?}", WebhookSecret::new("topsecret")),
            "WebhookSecret(1 key(s), ***)"
        );
    }
}
