//! What a pin (`domain::pin`) means for a promotion, by how it was asked and why. A rollback
//! pins the environment to the version it restores, so that nothing moves it again by
//! itself:
//!
//! - an automatic promotion or a schedule is refused while the environment is pinned (even
//!   a schedule that runs an approved request: its approvals were given before the rollback);
//! - a person's deploy (from the pages or the API, or an approved request, run by the person
//!   whose approval completed it, now) goes on, and lifts the pin once its member moved: a
//!   person chose, after the rollback, to move the environment again;
//! - a rollback goes on (by a person, or a schedule when nothing pins the environment), and
//!   pins the member to its target once moved, replacing a pin that held.

use crate::domain::deploy::DeployKind;
use crate::domain::promotion::{AskedBy, Promotion};

/// What a member's pin means for a promotion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtPin {
    /// Refused: the environment is pinned, and this promotion was not asked by a person.
    Refuse,
    /// It goes on, and leaves pins as they are.
    Proceed,
    /// It goes on, and once the member moved its pin is lifted.
    LiftAfter,
    /// It goes on, and once the member moved it is pinned to its target.
    PinAfter,
}

impl Promotion {
    /// What it does at a member's environment, `pinned` there or not.
    pub fn at_pin(&self, pinned: bool) -> AtPin {
        let by_a_person = match &self.asked_by {
            AskedBy::Operator | AskedBy::Approval(_) => true,
            AskedBy::Schedule { .. } | AskedBy::Automation(_) => false,
        };
        match (by_a_person, pinned, self.intent.kind()) {
            (false, true, _) => AtPin::Refuse,
            (_, _, DeployKind::Rollback) => AtPin::PinAfter,
            (true, true, DeployKind::Deploy) => AtPin::LiftAfter,
            (_, false, DeployKind::Deploy) => AtPin::Proceed,
        }
    }
}
