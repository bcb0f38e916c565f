//! The gates each member of a promotion passes, in one order, whatever asked for the move (a
//! single deploy, a rollback, a schedule, an approval, an automatic promotion, a member of a
//! release): the checks the environment requires (or their override), then the plan against
//! upstream's facts read now (verification, the path's order, the version the environment is
//! expected to serve, a rollback's target, the soak). The caller holds the member's deploy
//! lock, so that what is read here stays true until the move.

use crate::domain::deploy::{ChecksOverride, DeployRequest};
use crate::domain::identity::Operator;
use crate::domain::repository::RepoId;

use crate::app::promotion::checks_gate;
use crate::app::promotion::outcome::Stop;
use crate::app::promotion::turn::{checked, Checked};
use crate::app::state::AppState;

/// A member's plan that passed every gate, and the required checks it goes without.
pub(crate) type Gated = (Checked, Option<ChecksOverride>);

/// Passes `request` of `operator` for repository `id` through the member's gates.
pub(crate) async fn pass(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
) -> Result<Gated, Stop> {
    let checks_override = checks_gate::pass(state, id, request, operator).await?;
    let checked = checked(state, id, request, operator).await?;
    Ok((checked, checks_override))
}
