//! The release views: the list of releases ([`list`]), the release page ([`page`]), the
//! confirm step of a promotion ([`confirm`]) and the answer of a promotion ([`outcome`]).

pub mod confirm;
pub mod list;
pub mod outcome;
pub mod page;
