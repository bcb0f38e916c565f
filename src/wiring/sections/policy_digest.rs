//! The policy in force as each attestation names it: the `[policy]` and `[environments]`
//! tables as the layers wrote them (the built-in defaults included), turned from TOML into
//! JSON value by value and digested by the domain's rule
//! ([`crate::domain::evidence::policy_digest`]).

use serde_json::Value as Json;
use toml::{Table, Value};

use crate::domain::evidence::predicate::PolicyFacts;

/// The facts of the policy whose tables are `policy` and `environments`.
pub(crate) fn policy_in_force(policy: &Table, environments: &Table) -> PolicyFacts {
    PolicyFacts::of_tables(&json_of_table(policy), &json_of_table(environments))
}

fn json_of_table(table: &Table) -> Json {
    Json::Object(
        table
            .iter()
            .map(|(key, value)| (key.clone(), json_of(value)))
            .collect(),
    )
}

/// A TOML value as JSON: a date or time as the text TOML writes it (RFC 3339).
fn json_of(value: &Value) -> Json {
    match value {
        Value::String(text) => Json::String(text.clone()),
        Value::Integer(number) => Json::from(*number),
        Value::Float(number) => Json::from(*number),
        Value::Boolean(yes) => Json::Bool(*yes),
        Value::Datetime(at) => Json::String(at.to_string()),
        Value::Array(items) => Json::Array(items.iter().map(json_of).collect()),
        Value::Table(table) => json_of_table(table),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::audit_chain::link::Sha256Hex;

    fn table(text: &str) -> Table {
        text.parse().unwrap()
    }

    #[test]
    fn the_digest_covers_the_tables_as_written_in_toml() {
        let policy = table(
            "automation = \"\"\nrequest_ttl_hours = 24\n[production]\ndeployers = [\"group:release\"]\napprovals = 1\n",
        );
        let environments = table("order = []\n");
        let text = r#"{"environments":{"order":[]},"policy":{"automation":"","production":{"approvals":1,"deployers":["group:release"]},"request_ttl_hours":24}}"#;
        assert_eq!(
            policy_in_force(&policy, &environments).sha256,
            Sha256Hex::of(text.as_bytes())
        );
    }

    #[test]
    fn inline_tables_and_dotted_keys_read_the_same() {
        let dotted =
            table("production.deployers = [\"group:release\"]\nproduction.approvals = 1\n");
        let inline = table("production = { approvals = 1, deployers = [\"group:release\"] }\n");
        let environments = Table::new();
        assert_eq!(
            policy_in_force(&dotted, &environments),
            policy_in_force(&inline, &environments)
        );
    }
}
