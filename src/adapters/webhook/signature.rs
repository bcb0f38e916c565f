//! The signatures of a delivery. As the Standard Webhooks specification says: headers
//! `webhook-id` (the event's id, the same at every attempt), `webhook-timestamp` (the send
//! time, in seconds) and `webhook-signature`: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
//! per key, space-separated. A receiver refuses a timestamp far from its clock (the
//! reference libraries: more than 5 minutes), so a captured delivery cannot be replayed
//! later. Also, only where `webhook_delivery.deprecated_signature` asks for it, the deprecated
//! `X-Repo-Console-Signature`: `sha256=<hex HMAC-SHA256 of the body>` (no timestamp:
//! replayable forever).

use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::secret::WebhookSecret;

pub const ID_HEADER: &str = "webhook-id";
pub const TIMESTAMP_HEADER: &str = "webhook-timestamp";
pub const STANDARD_SIGNATURE_HEADER: &str = "webhook-signature";

/// The deprecated header (sent only where configured; see the upgrade notes).
pub const SIGNATURE_HEADER: &str = "x-repo-console-signature";

fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    // HMAC accepts a key of any length.
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().to_vec()
}

/// `webhook-signature`: one `v1,<base64>` per key of `secret`, space-separated.
pub fn sign_standard(secret: &WebhookSecret, id: &str, timestamp: i64, body: &[u8]) -> String {
    let timestamp = timestamp.to_string();
    secret
        .keys()
        .iter()
        .map(|key| {
            let mac = hmac_sha256(
                key,
                &[id.as_bytes(), b".", timestamp.as_bytes(), b".", body],
            );
            format!(
                "v1,{}",
                base64::engine::general_purpose::STANDARD.encode(mac)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Deprecated: `sha256=` and the lowercase hex HMAC-SHA256 of the exact `body` with `secret`.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let hex: String = hmac_sha256(secret, &[body])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deprecated_signature_is_the_hmac_sha256_of_the_body_in_hex() {
        // RFC 4231, test case 2.
        assert_eq!(
            sign(b"Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_ne!(
            sign(b"Jefe", b"what do ya want for nothing!"),
            sign(b"Jefe", b"what do ya want for nothing?")
        );
    }

    #[test]
    fn the_standard_signature_matches_the_specifications_example() {
        // The example of the Standard Webhooks reference libraries' tests.
        let secret = WebhookSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let signed = sign_standard(
            &secret,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(signed, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn while_rotating_every_key_signs_in_turn() {
        let secret = WebhookSecret::parse("new\nold").unwrap();
        let both = sign_standard(&secret, "id", 1, b"{}");
        let new = sign_standard(&WebhookSecret::new("new"), "id", 1, b"{}");
        let old = sign_standard(&WebhookSecret::new("old"), "id", 1, b"{}");
        assert_eq!(both, format!("{new} {old}"));
        assert_ne!(
            new,
            sign_standard(&WebhookSecret::new("new"), "id", 2, b"{}")
        );
    }
}
