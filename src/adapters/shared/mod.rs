//! What several adapters share, named so that no adapter imports another: the outbox ledger
//! (memory and file outboxes), the rule of a task's outcome (the Pulp client and the
//! in-memory Pulp), the stored diff's encoding (file and PostgreSQL stores), the TLS roots
//! (the Pulp client, the webhook sender and the OIDC client), the book of sessions
//! (memory and file session stores), a pin record's encoding (file and PostgreSQL pin
//! stores), and the edge state store's records (every store).

pub mod diff_codec;
pub mod edge_record;
pub mod outbox_ledger;
pub mod pin_codec;
pub mod session_book;
pub mod sync_failure;
pub mod task_outcome;
pub mod tls_roots;
