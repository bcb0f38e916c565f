//! Properties of the canonical person key: one person, one key, whatever the spelling.

use proptest::prelude::*;

use crate::domain::identity::matching::CaseMatching;
use crate::domain::identity::person::PersonName;

fn key(text: &str) -> String {
    PersonName::new(text)
        .unwrap()
        .key(CaseMatching::Caseless)
        .as_str()
        .to_owned()
}

#[test]
fn sharp_s_is_double_s_in_any_case() {
    assert_eq!(key("Straße"), key("STRASSE"));
    assert_eq!(key("Straße"), key("strasse"));
}

#[test]
fn composed_and_decomposed_zoe_are_one_person() {
    let composed = "zo\u{00eb}";
    let decomposed = "zoe\u{0308}";
    assert_ne!(composed, decomposed);
    assert_eq!(key(composed), key(decomposed));
    assert_eq!(key(composed), key("ZOË"));
}

#[test]
fn case_sensitive_matching_unifies_only_the_encoding() {
    let exact = |t: &str| CaseMatching::CaseSensitive.canonical(t);
    assert_eq!(exact("zo\u{00eb}"), exact("zoe\u{0308}"));
    assert_ne!(exact("alice"), exact("ALICE"));
}

proptest! {
    #[test]
    fn the_key_of_a_key_is_itself(name in "\\PC{1,40}") {
        for matching in [CaseMatching::Caseless, CaseMatching::CaseSensitive] {
            let once = matching.canonical(&name);
            prop_assert_eq!(matching.canonical(&once), once.clone());
        }
    }

    /// Over ASCII and Latin-1 letters (ß and ÿ included). Not over every letter: a dotless
    /// `ı` is upper-cased to `I`, which folds to `i`, another letter (as Unicode says).
    #[test]
    fn upper_and_lower_case_spellings_share_a_key(name in "[a-zA-Z0-9À-ÿ .@_-]{1,40}") {
        let caseless = |t: &str| CaseMatching::Caseless.canonical(t);
        prop_assert_eq!(caseless(&name.to_uppercase()), caseless(&name.to_lowercase()));
    }

    #[test]
    fn composed_and_decomposed_spellings_share_a_key(name in "\\PC{1,40}") {
        use unicode_normalization::UnicodeNormalization;
        for matching in [CaseMatching::Caseless, CaseMatching::CaseSensitive] {
            let composed: String = name.nfc().collect();
            let decomposed: String = name.nfd().collect();
            prop_assert_eq!(matching.canonical(&composed), matching.canonical(&decomposed));
        }
    }

    #[test]
    fn surrounding_space_does_not_change_the_key(name in "\\PC{1,40}") {
        let caseless = |t: &str| CaseMatching::Caseless.canonical(t);
        prop_assert_eq!(caseless(&format!("  {name}\t")), caseless(&name));
    }
}
