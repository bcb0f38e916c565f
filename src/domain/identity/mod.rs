//! Who acts: names as sent and the canonical keys people and groups are compared by, the
//! operator as the identity scheme vouched for them, an API token's scopes, and a signed-in
//! session's lifetimes and return path (`session.rs`).

pub mod group;
pub mod matching;
pub mod operator;
pub mod person;
#[cfg(test)]
mod person_key_properties;
pub mod scope;
pub mod session;

pub use group::GroupName;
pub use matching::CaseMatching;
pub use operator::{InvalidOperator, MissingScope, Operator, TokenGrant};
pub use person::{InvalidName, PersonKey, PersonName};
pub use scope::{InvalidScope, Reach, Scope};
