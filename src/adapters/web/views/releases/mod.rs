//! The release views: the answer of a promotion ([`outcome`]).

pub mod outcome;
