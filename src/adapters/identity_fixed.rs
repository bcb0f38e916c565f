//! `FixedOperator`: the same operator name for everyone (the spec's placeholder `operator`).

use async_trait::async_trait;

use crate::ports::OperatorIdentity;

pub struct FixedOperator(pub String);

impl Default for FixedOperator {
    fn default() -> Self {
        Self("operator".to_owned())
    }
}

#[async_trait]
impl OperatorIdentity for FixedOperator {
    async fn operator(&self) -> String {
        self.0.clone()
    }
}
