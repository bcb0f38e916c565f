use super::*;

const DIGEST: &str = "4b0a2d3f3a3a0b5f1c5b1c1b7c5b1a36a8a0b8a1b0b0a7e3f6f1a0b1c2d3e4f5";

fn raw(tokens: Vec<RawToken>) -> RawApi {
    RawApi {
        tokens,
        writes_per_minute: 60,
        anonymous_exposure_per_minute: 30,
    }
}

fn table(name: &str, sha256: &str) -> TokenTable {
    TokenTable {
        name: name.into(),
        sha256: sha256.into(),
        groups: vec!["release".into()],
        scopes: Some(vec!["read".into()]),
        owner: None,
        expires: None,
    }
}

fn validated(tokens: Vec<RawToken>) -> Result<Vec<ApiToken>, ConfigError> {
    validate(raw(tokens), CaseMatching::Caseless)
}

#[test]
fn a_token_is_a_table_or_its_text_form() {
    let tokens = validated(vec![
        RawToken::Table(table("ci-pipeline", DIGEST)),
        RawToken::Text(format!(
            "lead:{}:release+sre:sync+deploy:testing",
            DIGEST.replace('4', "5")
        )),
        RawToken::Text(format!("dash:{}::read", DIGEST.replace('4', "6"))),
    ])
    .unwrap();
    assert_eq!(tokens[0].operator.as_str(), "ci-pipeline");
    assert_eq!(tokens[0].operator.groups(), ["release".to_owned()]);
    assert_eq!(tokens[1].operator.as_str(), "lead");
    assert_eq!(tokens[1].operator.groups(), ["release", "sre"]);
    let scopes: Vec<String> = tokens[1]
        .operator
        .token()
        .unwrap()
        .scopes
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(scopes, ["sync", "deploy:testing"]);
    assert!(tokens[2].operator.groups().is_empty());
}

#[test]
fn owner_and_expiry_are_read_from_a_table() {
    let mut alice_bot = table("alice-bot", DIGEST);
    alice_bot.scopes = Some(vec!["approve:production".into(), "deploy:*".into()]);
    alice_bot.owner = Some("Alice".into());
    alice_bot.expires = Some("2027-06-30T00:00:00Z".into());
    let token = validated(vec![RawToken::Table(alice_bot)])
        .unwrap()
        .remove(0);
    assert_eq!(
        token.operator.person(),
        Operator::new("alice").unwrap().person()
    );
    assert_eq!(
        token.expires.unwrap().to_rfc3339(),
        "2027-06-30T00:00:00+00:00"
    );
}

#[test]
fn bad_tokens_are_refused_naming_the_entry() {
    let t = |name: &str, sha256: &str| RawToken::Table(table(name, sha256));
    let with = |edit: fn(&mut TokenTable)| {
        let mut token = table("ci", DIGEST);
        edit(&mut token);
        RawToken::Table(token)
    };
    let cases = [
        (vec![t("ci", "abc")], "api.tokens[0].sha256"),
        (vec![t(" ", DIGEST)], "api.tokens[0].name"),
        (
            vec![t("ci", DIGEST), t("CI", &DIGEST.replace('4', "5"))],
            "api.tokens[1].name",
        ),
        (vec![t("a", DIGEST), t("b", DIGEST)], "api.tokens[1].sha256"),
        (vec![RawToken::Text("just-a-name".into())], "api.tokens[0]"),
        (
            vec![with(|t| t.scopes = None)],
            "api.tokens[0].scopes: required",
        ),
        (
            vec![with(|t| t.scopes = Some(vec!["write".into()]))],
            "api.tokens[0].scopes",
        ),
        (
            vec![with(|t| t.scopes = Some(vec!["approve:production".into()]))],
            "api.tokens[0].owner: a token with an approve: scope",
        ),
        (
            vec![with(|t| t.expires = Some("June".into()))],
            "api.tokens[0].expires",
        ),
        (
            vec![with(|t| t.owner = Some(" ".into()))],
            "api.tokens[0].owner",
        ),
    ];
    for (tokens, key) in cases {
        let error = validated(tokens).unwrap_err().to_string();
        assert!(error.contains(key), "{key}: {error}");
    }
}

#[test]
fn a_multibyte_digest_in_the_text_form_is_refused_not_a_panic() {
    let multibyte = format!("ci:{}é:release:read", &DIGEST[..62]);
    let error = validated(vec![RawToken::Text(multibyte)])
        .unwrap_err()
        .to_string();
    assert!(error.contains("api.tokens[0].sha256"), "{error}");
}

mod from_every_layer {
    use std::io::Write;

    use crate::wiring::config::{load, Overrides};

    use super::DIGEST;

    #[test]
    fn a_token_comes_from_the_environment_a_flag_or_a_file() {
        let text = format!("ci:{DIGEST}:release:sync+deploy:testing");
        let from_env = load(&Overrides::default().env("REPO_CONSOLE_API_TOKENS", &text)).unwrap();
        let from_flag = load(&Overrides::default().flag("api.tokens", &text)).unwrap();
        for config in [from_env, from_flag] {
            let scopes = &config.api_tokens[0].operator.token().unwrap().scopes;
            assert_eq!(scopes.len(), 2);
        }
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            file,
            "[[api.tokens]]\nname = \"alice-bot\"\nsha256 = \"{DIGEST}\"\nowner = \"alice\"\n\
             scopes = [\"approve:production\"]\nexpires = \"2027-06-30T00:00:00Z\""
        )
        .unwrap();
        let config = load(&Overrides {
            config_file: Some(file.path().into()),
            ..Default::default()
        })
        .unwrap();
        assert!(config.api_tokens[0].expires.is_some());
    }

    #[test]
    fn a_token_without_scopes_is_refused_at_start_naming_the_key() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            file,
            "[[api.tokens]]\nname = \"ci\"\nsha256 = \"{DIGEST}\"\ngroups = [\"release\"]"
        )
        .unwrap();
        let error = load(&Overrides {
            config_file: Some(file.path().into()),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(error.contains("api.tokens[0].scopes: required"), "{error}");
        let old_text_form = format!("ci:{DIGEST}:release");
        let error = load(&Overrides::default().env("REPO_CONSOLE_API_TOKENS", &old_text_form))
            .unwrap_err()
            .to_string();
        assert!(error.contains("api.tokens[0]"), "{error}");
    }

    #[test]
    fn a_multibyte_digest_from_the_environment_is_refused_not_a_panic() {
        for digest in [
            format!("{}é", &DIGEST[..62]),
            "é".repeat(32),
            "€".repeat(22),
        ] {
            let text = format!("ci:{digest}::read");
            let error = load(&Overrides::default().env("REPO_CONSOLE_API_TOKENS", &text))
                .unwrap_err()
                .to_string();
            assert!(error.contains("api.tokens[0].sha256"), "{error}");
        }
    }
}

/// Issue 43: a token's name, groups and owner are admitted as the proxy's are: an invisible
/// code point or a `token:` prefix is refused at start, naming the key.
#[test]
fn a_token_name_group_or_owner_with_an_invisible_code_point_is_refused() {
    let refused = |token: TokenTable| match validated(vec![RawToken::Table(token)]) {
        Err(ConfigError::Invalid { key, reason }) => format!("{key}: {reason}"),
        other => panic!("refused, not {other:?}"),
    };
    let named = refused(table("ci\u{200B}", DIGEST));
    assert!(named.starts_with("api.tokens[0].name"), "{named}");
    assert!(named.contains("U+200B (zero-width space)"), "{named}");
    let mut grouped = table("ci", DIGEST);
    grouped.groups = vec!["rel\u{00AD}ease".into()];
    assert!(refused(grouped).starts_with("api.tokens[0].groups"));
    let mut owned = table("ci", DIGEST);
    owned.owner = Some("ali\u{202E}ce".into());
    let owner = refused(owned);
    assert!(owner.starts_with("api.tokens[0].owner"), "{owner}");
    assert!(owner.contains("bidirectional control U+202E"), "{owner}");
    let prefixed = refused(table("token:ci", DIGEST));
    assert!(
        prefixed.contains("names beginning with 'token:'"),
        "{prefixed}"
    );
}
