//! `FixedOperator`: the same operator for every request (the spec's placeholder `operator`),
//! for a console without an identity scheme.

use async_trait::async_trait;

use crate::domain::identity::Operator;
use crate::ports::{IdentityContext, OperatorIdentity, Unidentified};

pub struct FixedOperator(pub Operator);

impl Default for FixedOperator {
    fn default() -> Self {
        Self(Operator::placeholder())
    }
}

#[async_trait]
impl OperatorIdentity for FixedOperator {
    async fn identify(&self, _: &IdentityContext) -> Result<Operator, Unidentified> {
        Ok(self.0.clone())
    }
}

/// Nobody: every request is unidentified (the stand-in of a scheme whose adapter is built
/// later, at start, so that nothing is ever let in by mistake before it).
pub struct Nobody;

#[async_trait]
impl OperatorIdentity for Nobody {
    async fn identify(&self, _: &IdentityContext) -> Result<Operator, Unidentified> {
        Err(Unidentified::NotSignedIn)
    }
}
