//! The evidence signer: Ed25519 keys read from PEM files (a private key in PKCS#8, public
//! keys in SubjectPublicKeyInfo, as `openssl genpkey -algorithm ed25519` writes them), the
//! signatures made and checked with `ring`.

pub mod ed25519;
mod pem;
