//! The operator identity port: who is deploying. The console has no login (the spec fixes
//! the placeholder `operator`); an adapter reading an authenticating proxy's header, or a
//! directory, plugs in here.

use async_trait::async_trait;

#[async_trait]
pub trait OperatorIdentity: Send + Sync {
    async fn operator(&self) -> String;
}
