//! A record's JSON as written, every object's keys in their order and duplicates kept: what a
//! reader needs to tell a record that holds a key twice, which `serde_json::Value` would
//! silently collapse (the last one winning). The stores' readers use it to read an old line
//! unambiguously; the round-trip properties use it to show that no record type writes a key
//! twice. Also what the stores say of a record they cannot read ([`Unreadable`]), and the
//! id a damaged record still names ([`leading_string`]).

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The id of a kind of record, and what such a record is called in messages.
pub trait RecordId: fmt::Display {
    /// `schedule`, `request`.
    const WHAT: &'static str;
}

/// A record that cannot be read: the record it concerns (when it still tells), where it is
/// (a line of a file, a row) and why it cannot be read. The record is never skipped in
/// silence: what it concerns is held (not run, not changed) until an operator mends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable<Id> {
    /// `None`: too damaged to tell.
    pub id: Option<Id>,
    pub place: String,
    pub why: String,
}

impl<Id: RecordId> fmt::Display for Unreadable<Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(
                f,
                "{} {id} cannot be read ({}: {})",
                Id::WHAT,
                self.place,
                self.why
            ),
            None => write!(
                f,
                "a {} record cannot be read ({}: {})",
                Id::WHAT,
                self.place,
                self.why
            ),
        }
    }
}

/// The string value of `key` in the object `bytes` holds: read as JSON when it is whole, else
/// (a record torn by a crash) taken from its start when `key` is its first key and its value
/// is whole there. The stores write each record's id first, so a torn record still names it.
pub fn leading_string(bytes: &[u8], key: &str) -> Option<String> {
    if let Ok(Written::Object(entries)) = Written::parse(bytes) {
        return entries.into_iter().find_map(|(k, value)| match value {
            Written::Scalar(Value::String(text)) if k == key => Some(text),
            _ => None,
        });
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => std::str::from_utf8(&bytes[..error.valid_up_to()]).ok()?,
    };
    let rest = text.trim_start().strip_prefix('{')?.trim_start();
    let rest = rest.strip_prefix(&format!("\"{key}\""))?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let (value, _) = rest.split_once('"')?;
    (!value.contains('\\')).then(|| value.to_owned())
}

/// A JSON value with its objects' entries as written, in order, duplicates kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    Object(Vec<(String, Written)>),
    Array(Vec<Written>),
    Scalar(Value),
}

impl Written {
    /// `bytes` read as JSON, keys kept as written.
    pub fn parse(bytes: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// Every key written twice in one object, as a path from the top (`state.reason`), in
    /// the order met.
    pub fn duplicate_keys(&self) -> Vec<String> {
        let mut found = Vec::new();
        self.collect_duplicates("", &mut found);
        found
    }

    fn collect_duplicates(&self, at: &str, found: &mut Vec<String>) {
        match self {
            Self::Object(entries) => {
                for (i, (key, value)) in entries.iter().enumerate() {
                    let path = if at.is_empty() {
                        key.clone()
                    } else {
                        format!("{at}.{key}")
                    };
                    if entries[..i].iter().any(|(earlier, _)| earlier == key) {
                        found.push(path.clone());
                    }
                    value.collect_duplicates(&path, found);
                }
            }
            Self::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    item.collect_duplicates(&format!("{at}[{i}]"), found);
                }
            }
            Self::Scalar(_) => {}
        }
    }

    /// The plain JSON value: for an object holding a key twice, the last one wins (as
    /// `serde_json` reads it).
    pub fn into_value(self) -> Value {
        match self {
            Self::Object(entries) => Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key, value.into_value()))
                    .collect(),
            ),
            Self::Array(items) => Value::Array(items.into_iter().map(Self::into_value).collect()),
            Self::Scalar(value) => value,
        }
    }
}

impl<'de> Deserialize<'de> for Written {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(WrittenVisitor)
    }
}

struct WrittenVisitor;

impl<'de> Visitor<'de> for WrittenVisitor {
    type Value = Written;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Written, E> {
        Ok(Written::Scalar(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Written, E> {
        Ok(Written::Scalar(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Written, E> {
        Ok(Written::Scalar(Value::from(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Written, E> {
        Ok(Written::Scalar(Value::from(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Written, E> {
        Ok(Written::Scalar(Value::String(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Written, E> {
        Ok(Written::Scalar(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Written, E> {
        Ok(Written::Scalar(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Written, E> {
        Ok(Written::Scalar(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Written, D::Error> {
        Written::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Written, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Written::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Written, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Written>()? {
            entries.push((key, value));
        }
        Ok(Written::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_written_twice_is_found_where_it_is() {
        let written =
            Written::parse(br#"{"a":1,"b":{"c":1,"c":2},"d":[{"e":1,"e":1}],"a":2}"#).unwrap();
        assert_eq!(written.duplicate_keys(), ["b.c", "d[0].e", "a"]);
        assert_eq!(
            written.into_value()["a"],
            2,
            "the last one wins, as serde_json reads it"
        );
    }

    #[test]
    fn distinct_keys_are_not_duplicates() {
        let written = Written::parse(br#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#).unwrap();
        assert!(written.duplicate_keys().is_empty());
    }
}
