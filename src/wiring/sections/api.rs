//! The `[api]` table: who may call the JSON API. `[[api.tokens]]` name a token by the SHA-256
//! of its text (the plain token is never written down), with its groups, its scopes (what it
//! may do at most; required), its owner (the person behind it, required with an `approve:`
//! scope) and when it expires; the name is the operator in the audit log and the policy
//! (`token:<name>`). Names, groups and owners are refused when the identity rule does not
//! admit them (an invisible or bidirectional-control code point, a `token:` prefix...).

use chrono::{DateTime, Utc};

use crate::adapters::identity::bearer::ApiToken;
use crate::domain::identity::{CaseMatching, GroupName, Operator, PersonName, Scope};

use crate::wiring::sections::error::{invalid, ConfigError};

/// The `[api]` table as written.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawApi {
    pub tokens: Vec<RawToken>,
    pub writes_per_minute: u64,
    pub anonymous_exposure_per_minute: u64,
}

/// One token: a `[[api.tokens]]` table, or (from the environment or a flag, where values
/// are text) `"<name>:<sha256>:<group>+<group>…:<scope>+<scope>…"` (scopes last, as they
/// hold colons themselves; owner and expiry in a file only).
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
    /// Required; optional here so that its absence is refused naming the key.
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
    #[serde(default)]
    pub owner: Option<String>,
    /// RFC 3339, e.g. "2027-06-30T00:00:00Z".
    #[serde(default)]
    pub expires: Option<String>,
}

/// How the text form is written, for refusals.
const TEXT_FORM: &str = "write <name>:<sha256>:<group>+<group>:<scope>+<scope> (groups may be \
                         empty, e.g. ci:<sha256>::sync+deploy:testing)";

impl RawToken {
    fn table(self) -> Result<TokenTable, String> {
        match self {
            Self::Table(table) => Ok(table),
            Self::Text(text) => {
                let mut parts = text.trim().splitn(4, ':');
                let (Some(name), Some(sha256), Some(groups), Some(scopes)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(format!("'{text}' is not a token: {TEXT_FORM}"));
                };
                let list = |text: &str| -> Vec<String> {
                    text.split('+')
                        .map(str::trim)
                        .filter(|item| !item.is_empty())
                        .map(str::to_owned)
                        .collect()
                };
                Ok(TokenTable {
                    name: name.to_owned(),
                    sha256: sha256.to_owned(),
                    groups: list(groups),
                    scopes: Some(list(scopes)),
                    owner: None,
                    expires: None,
                })
            }
        }
    }
}

/// The tokens, each with a valid name, digest, scopes (an owner with an `approve:` one) and
/// expiry, no name or digest twice.
pub(crate) fn validate(raw: RawApi, matching: CaseMatching) -> Result<Vec<ApiToken>, ConfigError> {
    let mut tokens: Vec<ApiToken> = Vec::new();
    for (i, token) in raw.tokens.into_iter().enumerate() {
        let token = token
            .table()
            .map_err(|reason| invalid(format!("api.tokens[{i}]"), reason))?;
        let token = checked(i, token, matching)?;
        let key = |field: &str| format!("api.tokens[{i}].{field}");
        if tokens
            .iter()
            .any(|t| t.operator.key() == token.operator.key())
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

/// The `i`th token, every field checked, each refusal naming its key.
fn checked(i: usize, token: TokenTable, matching: CaseMatching) -> Result<ApiToken, ConfigError> {
    let key = |field: &str| format!("api.tokens[{i}].{field}");
    for group in &token.groups {
        GroupName::new(group, matching)
            .map_err(|e| invalid(key("groups"), format!("'{}': {e}", group.escape_debug())))?;
    }
    let operator = Operator::with_matching(&token.name, matching)
        .map_err(|e| invalid(key("name"), format!("'{}': {e}", token.name)))?
        .with_groups(token.groups);
    let scopes = scopes(&key("scopes"), token.scopes)?;
    let approves = scopes.iter().any(Scope::approves);
    let mut api_token = ApiToken::new(operator, &token.sha256, scopes)
        .map_err(|e| invalid(key("sha256"), e.to_string()))?;
    match token.owner {
        Some(owner) => {
            let owner = PersonName::admit(&owner, matching)
                .map_err(|e| invalid(key("owner"), format!("'{owner}': {e}")))?;
            api_token = api_token.owned_by(owner);
        }
        None if approves => {
            let reason = "a token with an approve: scope must name the person behind it (owner = \
                          \"<user name>\"), so that nobody approves their own request with it"
                .to_owned();
            return Err(invalid(key("owner"), reason));
        }
        None => {}
    }
    if let Some(expires) = token.expires {
        let at = DateTime::parse_from_rfc3339(expires.trim()).map_err(|_| {
            let reason =
                format!("'{expires}' is not an RFC 3339 time such as 2027-06-30T00:00:00Z");
            invalid(key("expires"), reason)
        })?;
        api_token = api_token.expiring(at.with_timezone(&Utc));
    }
    Ok(api_token)
}

/// The token's scopes: required (a token without them could do anything its name allows).
fn scopes(key: &str, written: Option<Vec<String>>) -> Result<Vec<Scope>, ConfigError> {
    let Some(written) = written else {
        let reason = "required: list what the token may do, e.g. [\"read\"] or [\"sync\", \
                      \"deploy:testing\"] (read, sync, deploy:<environment>, \
                      approve:<environment>, * for every environment)"
            .to_owned();
        return Err(invalid(key.to_owned(), reason));
    };
    written
        .iter()
        .map(|text| Scope::parse(text).map_err(|e| invalid(key.to_owned(), e.to_string())))
        .collect()
}

#[cfg(test)]
#[path = "api_tests.rs"]
mod tests;
