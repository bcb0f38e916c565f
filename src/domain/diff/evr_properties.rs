//! Property tests of rpm's version comparison.

use std::cmp::Ordering;

use proptest::prelude::*;

use crate::domain::content::rpm::version::rpmvercmp;
use crate::domain::diff::Evr;

/// Version-like text: digits, letters, separators, `~` and `^`.
fn version() -> impl Strategy<Value = String> {
    "[0-9a-z.~^_+]{0,12}"
}

proptest! {
    #[test]
    fn comparison_is_reflexive_and_antisymmetric(a in version(), b in version()) {
        prop_assert_eq!(rpmvercmp(&a, &a), Ordering::Equal);
        prop_assert_eq!(rpmvercmp(&a, &b), rpmvercmp(&b, &a).reverse());
    }

    #[test]
    fn never_panics_on_any_text(a in ".{0,20}", b in ".{0,20}") {
        let _ = rpmvercmp(&a, &b);
    }

    #[test]
    fn numbers_compare_as_numbers_whatever_their_zeros(a in 0u64..1_000_000, b in 0u64..1_000_000, zeros in 0usize..3) {
        let padded = format!("{}{a}", "0".repeat(zeros));
        prop_assert_eq!(rpmvercmp(&padded, &b.to_string()), a.cmp(&b));
        prop_assert_eq!(rpmvercmp(&format!("1.{a}"), &format!("1.{b}")), a.cmp(&b));
    }

    #[test]
    fn a_tilde_suffix_is_older_and_a_caret_suffix_newer(v in "[0-9]{1,3}(\\.[0-9]{1,3}){0,2}", tag in "[a-z0-9]{1,5}") {
        prop_assert_eq!(rpmvercmp(&format!("{v}~{tag}"), &v), Ordering::Less);
        prop_assert_eq!(rpmvercmp(&format!("{v}^{tag}"), &v), Ordering::Greater);
        prop_assert_eq!(rpmvercmp(&format!("{v}^{tag}"), &format!("{v}.1")), Ordering::Less);
        prop_assert_eq!(rpmvercmp(&format!("{v}.{tag}"), &v), Ordering::Greater);
    }

    #[test]
    fn the_epoch_decides_before_anything_else(e1 in 0u64..5, e2 in 0u64..5, v1 in version(), v2 in version()) {
        prop_assume!(e1 != e2);
        let (a, b) = (Evr::new(e1, v1, "1"), Evr::new(e2, v2, "1"));
        prop_assert_eq!(a.rpm_cmp(&b), e1.cmp(&e2));
    }
}
