//! Asking for approvals: a promotion whose environment needs them becomes a request, recorded
//! after every check passed, against what the environment serves now; asking again what an
//! open request asks answers that request. This room sits below the promotion pipeline that
//! asks here, and below the rest of `approvals` (approve, reject, cancel, run), which runs
//! promotions.

pub(crate) mod ask;
pub(crate) mod one_open;
pub(crate) mod release_ask;
pub(crate) mod report;
