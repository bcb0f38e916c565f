//! The audit log's hash chain: every line carries its own SHA-256 and the one of the line
//! before it, so a line changed, removed or moved after it was written shows, in the file as
//! in the database.
//!
//! A chained line is the record's JSON object with one more member, `chain`:
//! `{"sha256": H, "prev_sha256": P}` (see [`link::Link`]). `H` is the SHA-256 of the line's
//! [canonical form](canonical) without `chain.sha256`; `P` is the `sha256` of the line before.
//! The first chained line of a log names its start (`chain.start`): the lines written before
//! the chain began (by a console older than the chain) are counted and `P` is the SHA-256 of
//! their bytes, each followed by a newline, so that they are a verified starting point rather
//! than a failure. A line left torn by a crash (it never was acknowledged) is named by the
//! next line's `chain.torn`, the SHA-256 of its bytes.
//!
//! Writers call [`seal::seal`] with what [`seal::next_after`] (or [`seal::StartDigest`]) read
//! from the end of the log; [`verify::Verifier`] reads a log from its first line and names
//! the first line that breaks the chain. Pure: the adapters read and write.

pub mod canonical;
pub mod link;
pub mod seal;
pub mod verify;
