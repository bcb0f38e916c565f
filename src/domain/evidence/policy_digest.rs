//! The digest of the policy in force, as each attestation names it (`policy.sha256`): the
//! SHA-256 of one canonical JSON text of the `[policy]` and `[environments]` tables the
//! console read, so that an auditor recomputes it from the configuration file with any JSON
//! library (the recipe is in the book's Evidence reference).
//!
//! The text is `{"environments":{...},"policy":{...}}` in the form of RFC 8785 (JCS): no
//! whitespace, the members of every object sorted by their names' UTF-16 code units, strings
//! escaped as JSON's minimum (`"`, `\` and the control characters, the short forms `\b \f \n
//! \r \t`, else `\u00xx` in lowercase hexadecimal), integers in decimal. A policy holds no
//! fractions; a fraction is written as serde_json writes it.

use serde_json::Value;

use crate::domain::audit_chain::link::Sha256Hex;

use super::predicate::PolicyFacts;

impl PolicyFacts {
    /// The facts of the policy whose `[policy]` table is `policy` and whose `[environments]`
    /// table is `environments`, as JSON values.
    pub fn of_tables(policy: &Value, environments: &Value) -> Self {
        let tables = serde_json::json!({ "environments": environments, "policy": policy });
        Self {
            sha256: Sha256Hex::of(canonical_json(&tables).as_bytes()),
        }
    }
}

/// `value` as RFC 8785 canonical JSON (see the module's doc).
pub fn canonical_json(value: &Value) -> String {
    let mut text = String::new();
    write(value, &mut text);
    text
}

fn write(value: &Value, text: &mut String) {
    match value {
        Value::Null => text.push_str("null"),
        Value::Bool(yes) => text.push_str(if *yes { "true" } else { "false" }),
        Value::Number(number) => text.push_str(&number.to_string()),
        Value::String(string) => write_string(string, text),
        Value::Array(items) => {
            text.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    text.push(',');
                }
                write(item, text);
            }
            text.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
            text.push('{');
            for (index, (name, member)) in sorted.into_iter().enumerate() {
                if index > 0 {
                    text.push(',');
                }
                write_string(name, text);
                text.push(':');
                write(member, text);
            }
            text.push('}');
        }
    }
}

fn write_string(string: &str, text: &mut String) {
    text.push('"');
    for c in string.chars() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            '\u{8}' => text.push_str("\\b"),
            '\u{c}' => text.push_str("\\f"),
            '\n' => text.push_str("\\n"),
            '\r' => text.push_str("\\r"),
            '\t' => text.push_str("\\t"),
            c if u32::from(c) < 0x20 => text.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => text.push(c),
        }
    }
    text.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn production(deployers: &[&str], approvals: i64) -> Value {
        json!({
            "automation": "",
            "request_ttl_hours": 24,
            "production": {"deployers": deployers, "approvals": approvals, "approvers": ["group:release"]},
        })
    }

    #[test]
    fn the_text_is_sorted_compact_and_minimally_escaped() {
        let value = json!({"b": [1, true, null], "a": {"z": "x\"y\\\n\u{1}é", "B": 2}, "": 0});
        assert_eq!(
            canonical_json(&value),
            r#"{"":0,"a":{"B":2,"z":"x\"y\\\n\u0001é"},"b":[1,true,null]}"#
        );
    }

    #[test]
    fn names_are_sorted_by_utf16_code_units() {
        // U+FF61 sorts after U+1F600 by code point but before it by UTF-16 code unit (a
        // surrogate pair starts with 0xD83D), as RFC 8785 asks.
        let value = json!({"\u{1F600}": 1, "\u{FF61}": 2});
        assert_eq!(canonical_json(&value), "{\"\u{1F600}\":1,\"\u{FF61}\":2}");
    }

    #[test]
    fn the_same_policy_written_in_another_order_has_the_same_digest() {
        let environments = json!({"order": ["staging", "production"]});
        let written = production(&["group:release", "user:alice"], 1);
        let reordered: Value = serde_json::from_str(
            r#"{"production": {"approvers": ["group:release"], "approvals": 1,
                 "deployers": ["group:release", "user:alice"]},
                "request_ttl_hours": 24, "automation": ""}"#,
        )
        .unwrap();
        assert_eq!(
            PolicyFacts::of_tables(&written, &environments),
            PolicyFacts::of_tables(&reordered, &environments)
        );
    }

    #[test]
    fn a_changed_rule_changes_the_digest() {
        let environments = json!({"order": ["staging", "production"]});
        let before = PolicyFacts::of_tables(&production(&["group:release"], 1), &environments);
        let fewer_approvals =
            PolicyFacts::of_tables(&production(&["group:release"], 0), &environments);
        let another_deployer = PolicyFacts::of_tables(
            &production(&["group:release", "user:mallory"], 1),
            &environments,
        );
        let another_path = PolicyFacts::of_tables(
            &production(&["group:release"], 1),
            &json!({"order": ["production"]}),
        );
        assert_ne!(before, fewer_approvals);
        assert_ne!(before, another_deployer);
        assert_ne!(before, another_path);
    }

    #[test]
    fn the_digest_is_the_sha256_of_the_documented_text() {
        let facts = PolicyFacts::of_tables(&json!({"syncers": ["group:ops"]}), &json!({}));
        let text = r#"{"environments":{},"policy":{"syncers":["group:ops"]}}"#;
        assert_eq!(facts.sha256, Sha256Hex::of(text.as_bytes()));
    }
}
