//! The signature of a webhook's body: `sha256=<hex of HMAC-SHA256(secret, body)>`, sent as
//! `X-Repo-Console-Signature`, so a receiver knows the body came from the console unchanged.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The header the signature travels in.
pub const SIGNATURE_HEADER: &str = "x-repo-console-signature";

/// `sha256=` and the lowercase hex HMAC-SHA256 of the exact `body` with `secret`.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    // HMAC accepts a key of any length.
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(body);
    let digest = mac.finalize().into_bytes();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_hmac_sha256_of_the_body_in_hex() {
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
}
