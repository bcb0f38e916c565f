//! Who acts: the operator as the identity scheme vouched for them, with their groups.

pub mod operator;
