//! The one rule every CSV the console writes follows for its cells: a value a spreadsheet
//! would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return)
//! is written with a single quote `'` before it, as OWASP's "CSV Injection" page recommends,
//! so that opening the file never runs what a repository, package or advisory name holds.
//!
//! None of the console's own values starts with those characters (versions are whole
//! numbers, EVRs start with a digit or an epoch, states and kinds are words), so the rule
//! only ever changes names that came from outside.

use std::borrow::Cow;

/// The first characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `value` as it is safe to write in a CSV cell: unchanged, or with `'` before it when it
/// starts like a formula.
pub fn neutralised(value: &str) -> Cow<'_, str> {
    if value.starts_with(FORMULA_STARTS) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_that_starts_like_a_formula_gets_a_quote_before_it() {
        for attack in [
            "=HYPERLINK(\"http://evil\",\"x\")",
            "+cmd|' /C calc'!A0",
            "-2+3",
            "@SUM(A1)",
            "\t=1",
            "\r=1",
        ] {
            assert_eq!(neutralised(attack), format!("'{attack}"), "{attack:?}");
        }
    }

    #[test]
    fn any_other_cell_is_kept_as_it_is() {
        for plain in [
            "acme",
            "1:2.0-1",
            "",
            "a=b",
            "'quoted",
            " =space first",
            "5",
        ] {
            assert!(matches!(neutralised(plain), Cow::Borrowed(p) if p == plain));
        }
    }
}
