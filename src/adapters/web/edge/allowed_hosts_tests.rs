use super::*;

fn authority(text: &str) -> Authority {
    Authority::parse(text).unwrap_or_else(|| panic!("{text} parses"))
}

fn allowed(extra: &[&str]) -> AllowedHosts {
    let extra: Vec<Site> = extra
        .iter()
        .map(|e| Site::parse_entry(e).unwrap())
        .collect();
    AllowedHosts::for_listener("127.0.0.1:8080".parse().unwrap(), &extra)
}

#[test]
fn authorities_parse_with_and_without_port() {
    assert_eq!(authority("C.Example:8080").shown(), "c.example:8080");
    assert_eq!(authority("[::1]:8080").shown(), "[::1]:8080");
    assert_eq!(authority("[::1]").shown(), "[::1]");
    for bad in [
        "",
        "::1",
        "a:b",
        "host:",
        "a b",
        "u@host",
        "host/x",
        "host:99999",
        "h\u{e9}",
    ] {
        assert_eq!(Authority::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn the_listen_address_localhost_and_loopback_are_admitted_on_the_listen_port_only() {
    let hosts = allowed(&[]);
    for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"] {
        assert!(hosts.admits_host(&authority(ok)), "{ok}");
    }
    for refused in [
        "evil.example:8080",
        "127.0.0.1:8081",
        "127.0.0.1",
        "localhost",
    ] {
        assert!(!hosts.admits_host(&authority(refused)), "{refused}");
    }
    let v6 = AllowedHosts::for_listener("[::1]:9000".parse().unwrap(), &[]);
    assert!(v6.admits_host(&authority("[::1]:9000")));
}

#[test]
fn entries_name_a_scheme_and_a_port_or_their_defaults() {
    let hosts = allowed(&["https://console.example", "intranet:8443"]);
    assert!(hosts.admits_host(&authority("console.example")));
    assert!(hosts.admits_host(&authority("console.example:443")));
    assert!(!hosts.admits_host(&authority("console.example:80")));
    assert!(hosts.admits_host(&authority("intranet:8443")));
    let origin = |o: &str| Site::parse_origin(o).unwrap();
    assert!(hosts.admits_origin(&origin("https://console.example")));
    assert!(!hosts.admits_origin(&origin("http://console.example")));
    assert!(hosts.admits_origin(&origin("http://intranet:8443")));
    assert!(!hosts.admits_origin(&origin("https://intranet:8443")));
    assert!(hosts.admits_origin(&origin("http://localhost:8080")));
    assert!(!hosts.admits_origin(&origin("https://localhost:8080")));
}

#[test]
fn bad_entries_and_origins_are_refused_with_a_reason() {
    for bad in ["", "*", "ftp://x", "https://", "a b", "host:port"] {
        assert!(Site::parse_entry(bad).is_err(), "{bad:?}");
    }
    assert!(Site::parse_entry("*").unwrap_err().contains("wildcards"));
    for bad in ["null", "127.0.0.1:8080", "ftp://h", "http://h/", "http://"] {
        assert_eq!(Site::parse_origin(bad), None, "{bad:?}");
    }
}
