//! Lists read from JSON without spare room: serde grows a `Vec` as it reads, so a list of
//! one item keeps room for four (`Vec`'s smallest growth). A diff holds two short lists per
//! package change (the builds on each side, almost always one), so a diff read back from a
//! store would hold three unused builds in every list, and giving them back afterwards
//! leaves holes in the heap that the next diff's lists do not fit: kept diffs then cost
//! twice their size in resident memory (measured by `cargo bench --bench diff_store`).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};

/// Reads a JSON list into a `Vec` whose capacity is its length when it holds none or one
/// item (`#[serde(deserialize_with = "exact_vec")]`).
pub fn exact_vec<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_seq(Exact(PhantomData))
}

struct Exact<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Exact<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let Some(first) = seq.next_element()? else {
            return Ok(Vec::new());
        };
        let mut items = Vec::with_capacity(1);
        items.push(first);
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Lists {
        #[serde(deserialize_with = "exact_vec")]
        items: Vec<u32>,
    }

    #[test]
    fn a_list_read_has_no_spare_room() {
        for (json, len) in [
            (r#"{"items":[]}"#, 0),
            (r#"{"items":[7]}"#, 1),
            (r#"{"items":[1,2,3]}"#, 3),
        ] {
            let read: Lists = serde_json::from_str(json).unwrap();
            assert_eq!(
                (read.items.len(), read.items.capacity()),
                (len, len),
                "{json}"
            );
        }
    }
}
