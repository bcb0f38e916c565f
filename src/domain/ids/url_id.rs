//! The shape every id made by the application shares: a UUID in its records and URLs, read
//! back from a URL by one rule (letters, digits and `-`, 1 to 64 of them), shown as it is.

/// Declares an id type made by the application: a transparent string with `parse` by the URL
/// rule ([`is_url_id`]), `as_str` and `Display`.
macro_rules! url_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            #[doc = concat!("A ", $what, " id as found in a URL: letters, digits and `-`, 1 to 64 of them.")]
            pub fn parse(text: &str) -> Option<Self> {
                crate::domain::ids::url_id::is_url_id(text).then(|| Self(text.to_owned()))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

pub(crate) use url_id;

/// Whether `text` can name an id made by the application: letters, digits and `-`, 1 to 64.
pub fn is_url_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 64
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::is_url_id;

    #[test]
    fn an_id_is_letters_digits_and_dashes_of_1_to_64() {
        assert!(is_url_id("0f9c2b1e-7d43-4a51-9a55-2f3c4d5e6f70"));
        assert!(is_url_id(&"a".repeat(64)));
        assert!(!is_url_id(""));
        assert!(!is_url_id(&"a".repeat(65)));
        assert!(!is_url_id("../etc/passwd"));
        assert!(!is_url_id("a b"));
        assert!(!is_url_id("é"));
    }
}
