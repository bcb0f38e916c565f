//! Properties of the canonical person key: one person, one key, whatever the spelling.

use proptest::prelude::*;

use crate::domain::identity::{CaseMatching, PersonName};

fn key(text: &str) -> String {
    PersonName::new(text)
        .unwrap()
        .key(CaseMatching::Caseless)
        .as_str()
        .to_owned()
}

/// RFC 8265 maps case with Unicode's toLowerCase, not with full case folding: `ß` stays
/// `ß`, so `Straße` and `STRASSE` are two names (as most directories hold them).
#[test]
fn sharp_s_is_kept_as_rfc_8265_says() {
    assert_eq!(key("Straße"), key("STRAßE"));
    assert_eq!(key("STRASSE"), key("strasse"));
    assert_ne!(key("Straße"), key("STRASSE"));
}

#[test]
fn fullwidth_letters_are_their_usual_width() {
    assert_eq!(key("ＡＬＩＣＥ"), key("alice"));
    assert_eq!(key("ａｌｉｃｅ"), key("Alice"));
}

#[test]
fn invisible_and_bidirectional_code_points_are_not_admitted() {
    use crate::domain::identity::InvalidName;
    let admit = |t: &str| PersonName::admit(t, CaseMatching::Caseless).map(|_| ());
    assert_eq!(
        admit("alice\u{200B}"),
        Err(InvalidName::Invisible('\u{200B}'))
    );
    assert_eq!(
        admit("ali\u{00AD}ce"),
        Err(InvalidName::Invisible('\u{00AD}'))
    );
    assert_eq!(
        admit("\u{202E}ecila"),
        Err(InvalidName::BidiControl('\u{202E}'))
    );
    assert_eq!(admit("ali\u{7}ce"), Err(InvalidName::ControlCharacter));
    assert_eq!(
        admit("alice\u{2615}"),
        Err(InvalidName::NotAUserName('\u{2615}'))
    );
    assert_eq!(admit("Token:ci"), Err(InvalidName::TokenPrefix));
    assert_eq!(admit("ｔｏｋｅｎ:ci"), Err(InvalidName::TokenPrefix));
    assert_eq!(admit("Guybrush Threepwood"), Ok(()));
    let said = PersonName::admit("alice\u{200B}", CaseMatching::Caseless)
        .unwrap_err()
        .to_string();
    assert!(said.contains("U+200B (zero-width space)"), "{said}");
    // Read back from a record kept before, the same name is still a name.
    assert!(PersonName::new("alice\u{200B}").is_ok());
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

    /// Over ASCII and Latin-1 letters (ÿ included, ß not: it upper-cases to `SS`, another
    /// name under RFC 8265). Not over every letter: a dotless `ı` is upper-cased to `I`,
    /// another letter (as Unicode says).
    #[test]
    fn upper_and_lower_case_spellings_share_a_key(name in "[a-zA-Z0-9À-Þà-ÿ.@_-]{1,40}") {
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

    /// The fullwidth spelling of a printable ASCII name is that name (RFC 8265's width
    /// mapping), in either matching.
    #[test]
    fn fullwidth_spellings_share_a_key(name in "[!-~]{1,40}") {
        let wide: String = name
            .chars()
            .map(|c| char::from_u32(u32::from(c) - 0x21 + 0xFF01).unwrap())
            .collect();
        for matching in [CaseMatching::Caseless, CaseMatching::CaseSensitive] {
            prop_assert_eq!(matching.canonical(&wide), matching.canonical(&name));
        }
    }

    /// A default-ignorable code point anywhere in an admitted name makes it refused: it
    /// never comes in as another spelling of a person.
    #[test]
    fn an_invisible_code_point_is_never_admitted(
        name in "[a-z]{1,20}",
        at in 0usize..20,
        invisible in prop::sample::select(vec!['\u{00AD}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{180E}', '\u{E0041}']),
    ) {
        let at = at.min(name.len());
        let sent = format!("{}{invisible}{}", &name[..at], &name[at..]);
        prop_assert!(PersonName::admit(&sent, CaseMatching::Caseless).is_err());
    }

    #[test]
    fn surrounding_space_does_not_change_the_key(name in "\\PC{1,40}") {
        let caseless = |t: &str| CaseMatching::Caseless.canonical(t);
        prop_assert_eq!(caseless(&format!("  {name}\t")), caseless(&name));
    }
}
