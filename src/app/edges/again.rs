//! "Replicate again": an operator asks the console to follow an edge now (the edges page's
//! button, the JSON API), under the policy: who may deploy to every environment the edge
//! copies.

use super::EdgeWorld;
use crate::domain::edge::EdgeName;
use crate::domain::identity::Operator;
use crate::domain::policy::Denied;

use super::follow::replicate_again;

/// Why an edge was not asked to replicate.
#[derive(Debug, thiserror::Error)]
pub enum NotReplicated {
    /// No edge of that name is configured.
    #[error("There is no edge named '{0}': the edges the console follows are the [[edges]] of its configuration.")]
    UnknownEdge(String),
    /// The operator may not deploy to an environment the edge copies.
    #[error(transparent)]
    Denied(#[from] Denied),
}

/// Asks `edge` to replicate now, on behalf of `operator`; the follow-up runs on its own.
pub fn ask(state: &EdgeWorld, operator: &Operator, edge: &str) -> Result<EdgeName, NotReplicated> {
    let unknown = || NotReplicated::UnknownEdge(edge.to_owned());
    let edges = state.edges.as_ref().ok_or_else(unknown)?;
    let followed = EdgeName::parse(edge)
        .ok()
        .and_then(|name| edges.followed().iter().find(|e| e.name == name))
        .ok_or_else(unknown)?;
    for environment in &followed.environments {
        state.policy.may_deploy(environment, operator)?;
    }
    tracing::info!(edge = %followed.name, operator = %operator, "edge replication asked again");
    replicate_again(state, &followed.name);
    Ok(followed.name.clone())
}
