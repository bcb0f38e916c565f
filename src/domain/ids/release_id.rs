//! What names one release promotion: the release and the promotion's id, as its own line
//! and each member's deploy lines carry them.

use serde::{Deserialize, Serialize};

use crate::domain::ids::ReleaseName;

/// Links the lines of one release promotion.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ReleaseId(String);

impl ReleaseId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The release a member's deploy belongs to, as its audit lines name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseRef {
    pub name: ReleaseName,
    pub id: ReleaseId,
}
