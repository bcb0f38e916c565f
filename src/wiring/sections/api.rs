//! The `[api]` table: who may call the JSON API. `[[api.tokens]]` name a token by the SHA-256
//! of its text (the plain token is never written down), with its groups; the name is the
//! operator in the audit log and the policy (`user:<name>`).

use crate::adapters::identity::bearer::ApiToken;
use crate::domain::Operator;

use crate::wiring::config::error::{invalid, ConfigError};

/// The `[api]` table as written.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawApi {
    pub tokens: Vec<RawToken>,
    pub writes_per_minute: u64,
}

/// One token: a `[[api.tokens]]` table, or (from the environment or a flag, where values
/// are text) `"<name>:<sha256>[:<group>+<group>…]"`.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub(crate) enum RawToken {
    Table(TokenTable),
    Text(String),
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenTable {
    pub name: String,
    pub sha256: String,
    #[serde(default)]
    pub groups: Vec<String>,
}

impl RawToken {
    fn table(self) -> Result<TokenTable, String> {
        match self {
            Self::Table(table) => Ok(table),
            Self::Text(text) => {
                let mut parts = text.trim().splitn(3, ':');
                let (Some(name), Some(sha256)) = (parts.next(), parts.next()) else {
                    return Err(format!(
                        "'{text}' is not a token: write <name>:<sha256>[:<group>+<group>]"
                    ));
                };
                let groups = parts
                    .next()
                    .map(|g| g.split('+').map(str::to_owned).collect())
                    .unwrap_or_default();
                Ok(TokenTable {
                    name: name.to_owned(),
                    sha256: sha256.to_owned(),
                    groups,
                })
            }
        }
    }
}

/// The tokens, each with a valid name and digest, no name or digest twice.
pub(crate) fn validate(raw: RawApi) -> Result<Vec<ApiToken>, ConfigError> {
    let mut tokens: Vec<ApiToken> = Vec::new();
    for (i, token) in raw.tokens.into_iter().enumerate() {
        let key = |field: &str| format!("api.tokens[{i}].{field}");
        let token = token
            .table()
            .map_err(|reason| invalid(format!("api.tokens[{i}]"), reason))?;
        let operator = Operator::new(&token.name)
            .map_err(|e| invalid(key("name"), format!("'{}': {e}", token.name)))?
            .with_groups(token.groups);
        let token = ApiToken::new(operator, &token.sha256)
            .map_err(|e| invalid(key("sha256"), e.to_string()))?;
        if tokens
            .iter()
            .any(|t| t.operator.as_str() == token.operator.as_str())
        {
            let reason = format!("two tokens are named '{}'", token.operator.as_str());
            return Err(invalid(key("name"), reason));
        }
        if tokens.iter().any(|t| t.sha256 == token.sha256) {
            return Err(invalid(
                key("sha256"),
                "two tokens have the same digest".to_owned(),
            ));
        }
        tokens.push(token);
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "4b0a2d3f3a3a0b5f1c5b1c1b7c5b1a36a8a0b8a1b0b0a7e3f6f1a0b1c2d3e4f5";

    fn raw(tokens: Vec<RawToken>) -> RawApi {
        RawApi {
            tokens,
            writes_per_minute: 60,
        }
    }

    fn table(name: &str, sha256: &str) -> RawToken {
        RawToken::Table(TokenTable {
            name: name.into(),
            sha256: sha256.into(),
            groups: vec!["release".into()],
        })
    }

    #[test]
    fn a_token_is_a_table_or_its_text_form() {
        let tokens = validate(raw(vec![
            table("ci-pipeline", DIGEST),
            RawToken::Text(format!("lead:{}:release+sre", DIGEST.replace('4', "5"))),
        ]))
        .unwrap();
        assert_eq!(tokens[0].operator.as_str(), "ci-pipeline");
        assert_eq!(tokens[0].operator.groups(), ["release".to_owned()]);
        assert_eq!(tokens[1].operator.as_str(), "lead");
        assert_eq!(
            tokens[1].operator.groups(),
            ["release".to_owned(), "sre".to_owned()]
        );
    }

    #[test]
    fn bad_tokens_are_refused_naming_the_entry() {
        let cases = [
            (vec![table("ci", "abc")], "api.tokens[0].sha256"),
            (vec![table(" ", DIGEST)], "api.tokens[0].name"),
            (
                vec![table("ci", DIGEST), table("ci", &DIGEST.replace('4', "5"))],
                "api.tokens[1].name",
            ),
            (
                vec![table("a", DIGEST), table("b", DIGEST)],
                "api.tokens[1].sha256",
            ),
            (vec![RawToken::Text("just-a-name".into())], "api.tokens[0]"),
        ];
        for (tokens, key) in cases {
            let error = validate(raw(tokens)).unwrap_err().to_string();
            assert!(error.contains(key), "{key}: {error}");
        }
    }
}
