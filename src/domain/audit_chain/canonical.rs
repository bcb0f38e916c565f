//! The canonical form of a line, the bytes its hash is computed over: the JSON value with
//! the members of every object sorted by name (by their UTF-16 code units, as RFC 8785
//! sorts them), no whitespace, strings escaped as `serde_json` writes them. Two writers
//! (or a writer and a verifier in another program) that agree on the value agree on the
//! bytes, whatever order the members were written in.

use serde_json::Value;

/// The canonical bytes of `value` (see the module's doc).
pub fn canonical_bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(members) => {
            let mut names: Vec<&String> = members.keys().collect();
            names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push(b'{');
            for (i, name) in names.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(name, out);
                out.push(b':');
                write(&members[name.as_str()], out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(item, out);
            }
            out.push(b']');
        }
        Value::String(text) => write_string(text, out),
        // Null, booleans and numbers have one spelling in serde_json (the audit's numbers
        // are integers).
        other => out.extend_from_slice(other.to_string().as_bytes()),
    }
}

fn write_string(text: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(Value::from(text).to_string().as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_are_sorted_at_every_depth_and_whitespace_is_dropped() {
        let value: Value =
            serde_json::from_str(r#"{ "b": 1, "a": {"z": [true, null], "y": "x\"y"} }"#).unwrap();
        assert_eq!(
            String::from_utf8(canonical_bytes(&value)).unwrap(),
            r#"{"a":{"y":"x\"y","z":[true,null]},"b":1}"#
        );
    }

    #[test]
    fn the_order_members_were_written_in_does_not_matter() {
        let one = json!({"deploy_id": "d1", "operator": "alice", "target_version": 7});
        let other: Value =
            serde_json::from_str(r#"{"target_version":7,"operator":"alice","deploy_id":"d1"}"#)
                .unwrap();
        assert_eq!(canonical_bytes(&one), canonical_bytes(&other));
    }

    #[test]
    fn names_sort_by_utf16_code_units() {
        // U+1F600 (surrogates 0xD83D 0xDE00) sorts before U+FB01 (one unit, 0xFB01), although
        // its code point is the greater.
        let value = json!({"\u{1F600}": 1, "\u{FB01}": 2});
        assert_eq!(
            String::from_utf8(canonical_bytes(&value)).unwrap(),
            "{\"\u{1F600}\":1,\"\u{FB01}\":2}"
        );
    }
}
