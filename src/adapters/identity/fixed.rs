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
