//! Reading a table by hand (`[policy]`, `[environments]`: serde's flatten would lose the key
//! of an error): each value read as the type its key wants, or a refusal naming the key.

use serde::de::DeserializeOwned;
use toml::Value;

/// `value` read as a `T`, or why not, naming `key`.
pub(crate) fn typed<T: DeserializeOwned>(key: &str, value: Value) -> Result<T, String> {
    value
        .try_into()
        .map_err(|e: toml::de::Error| format!("{key}: {}", e.message().trim_end()))
}
