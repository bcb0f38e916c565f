//! The capabilities the application needs from the outside world, in domain terms only:
//! no HTTP, I/O or serialization types cross these traits.

pub mod advisory_catalog;
pub mod audit_chain;
pub mod audit_sink;
pub mod check_store;
pub mod clock;
pub mod content_catalog;
pub mod correlation;
pub mod cve_index_store;
pub mod deploy_lock;
pub mod diff_store;
pub mod edge_replicator;
pub mod edge_state_store;
pub mod event_metrics;
pub mod event_outbox;
pub mod evidence_signer;
pub mod evidence_store;
pub mod operator_identity;
pub mod pin_store;
pub mod repository_manager;
pub mod request_store;
pub mod schedule_store;
pub mod served_metadata;
pub mod session_store;
pub mod sign_in_provider;
pub mod task_progress;
pub mod upstream_error;
pub mod webhook_sender;

pub use advisory_catalog::AdvisoryCatalog;
pub use audit_sink::{AuditError, AuditReadError, AuditSink};
pub use check_store::{CheckStore, CheckStoreError};
pub use clock::Clock;
pub use content_catalog::{ContentCatalog, PackageCatalog};
pub use cve_index_store::{CveIndexStore, CveIndexStoreError};
pub use deploy_lock::{DeployLock, DeployTurn, LockError};
pub use diff_store::{DiffStore, DiffStoreError};
pub use edge_replicator::{EdgeError, EdgeReplicator};
pub use edge_state_store::{EdgeStateStore, EdgeStoreError};
pub use event_metrics::{AttemptEnd, DeployAsked, DeployEnd, DriftReading, EventMetrics};
pub use event_outbox::{EventOutbox, OutboxError, Recorded};
pub use operator_identity::{HeaderProblem, IdentityContext, OperatorIdentity, Unidentified};
pub use pin_store::{PinStore, PinStoreError};
pub use repository_manager::{Page, PageRequest, RepositoryManager, UpstreamError, WriteOutcome};
pub use request_store::{RequestStore, RequestStoreError};
pub use schedule_store::{ScheduleStore, ScheduleStoreError};
pub use webhook_sender::{SendError, WebhookSender};
