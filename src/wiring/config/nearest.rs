//! The known name nearest to a mistyped one, for "did you mean" in the refusals of unknown
//! keys, flags and variables.

/// Levenshtein's distance between two names (their bytes: the names are ASCII).
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The candidate nearest to `name`, when it is near enough to be a typo of it (at most a
/// third of the name's letters apart, at least two); `None` when nothing is.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let near = name.len().div_ceil(3).max(2);
    candidates
        .into_iter()
        .map(|known| (distance(name, known), known))
        .filter(|(d, _)| *d <= near)
        .min()
        .map(|(_, known)| known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_finds_its_key_and_a_stranger_finds_none() {
        let keys = ["listen", "page_size", "base_url"];
        assert_eq!(nearest("listen_addr", keys), None, "5 letters apart");
        assert_eq!(nearest("lisen", keys), Some("listen"));
        assert_eq!(nearest("baseurl", keys), Some("base_url"));
        assert_eq!(nearest("page-size", keys), Some("page_size"));
        assert_eq!(nearest("webhooks", keys), None);
    }
}
