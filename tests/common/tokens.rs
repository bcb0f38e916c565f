//! API tokens as tests make them: the token `text` known to the test, its SHA-256 as the
//! console keeps it, the token's groups and scopes. Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use repo_console::adapters::identity::bearer::ApiToken;
use repo_console::domain::identity::{Operator, Scope};
use sha2::{Digest, Sha256};

/// The hex SHA-256 of `text`, as `[[api.tokens]] sha256` holds it.
pub fn digest_of(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Token `name` whose text is `text`, in `groups`, allowed `scopes` (e.g. `"deploy:*"`).
pub fn token(name: &str, text: &str, groups: &[&str], scopes: &[&str]) -> ApiToken {
    let operator = Operator::new(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .with_groups(groups.iter().map(|g| (*g).to_owned()).collect());
    let scopes = scopes
        .iter()
        .map(|s| Scope::parse(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect();
    ApiToken::new(operator, &digest_of(text), scopes).expect("a SHA-256 in hex")
}
