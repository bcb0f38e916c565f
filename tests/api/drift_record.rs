//! Production's record (Pulp's tasks on the production distribution) is what drift is
//! judged on. It is read only once the console changed production, and not again while the
//! distribution is unwritten since a whole record of it was read: a steady page costs no
//! call for it, and any write of the distribution (an outside change, even one that sets
//! the same publication again) makes the next page read it again.

use std::sync::Arc;

use repo_console::adapters::memory::{InMemoryPulp, OUTSIDE_USER};
use repo_console::app::{deploy, pages::versions::versions_page, AppState};
use repo_console::domain::deploy::DeployKind;
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::{RepoId, VersionNumber};

use crate::helpers::*;

/// Reads of production's record made by `load`.
async fn record_reads<T>(
    memory: &InMemoryPulp,
    load: impl std::future::Future<Output = T>,
) -> (T, usize) {
    let before = memory.calls().len();
    let out = load.await;
    let reads = memory.calls()[before..]
        .iter()
        .filter(|c| c.starts_with("distribution_changes"))
        .count();
    (out, reads)
}

async fn deploy_v(state: &AppState, id: &RepoId, target: u64) {
    let request = deploy_request(target, "base-os");
    let outcome = deploy::deploy(state, id, &request, &Operator::placeholder()).await;
    assert!(
        matches!(outcome, deploy::DeployOutcome::Deployed { .. }),
        "{outcome:?}"
    );
}

/// The outside change the page's drift banner names, when it shows one.
async fn drift_by(state: &AppState, id: &RepoId, memory: &InMemoryPulp) -> (Option<String>, usize) {
    let (page, reads) = record_reads(memory, versions_page(state, id, first_screen())).await;
    let page = page.expect("a page");
    let by = page
        .drift
        .map(|d| d.change.map_or_else(|| "unnamed".into(), |c| c.by));
    (by, reads)
}

#[tokio::test]
async fn a_whole_record_is_read_once_and_again_after_any_write_of_the_distribution() {
    let memory = Arc::new(InMemoryPulp::new(Default::default()));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("audit.jsonl"));
    let id = &fx.base_os;

    assert_eq!(
        drift_by(&state, id, &memory).await,
        (None, 0),
        "never deployed: not read"
    );
    deploy_v(&state, id, 4).await;
    let mut reads = Vec::new();
    for _ in 0..4 {
        let (drift, read) = drift_by(&state, id, &memory).await;
        assert_eq!(drift, None, "production as the console left it");
        reads.push(read);
    }
    assert!(
        reads[0] == 1,
        "read once the console changed production: {reads:?}"
    );
    assert_eq!(
        reads[2..],
        [0, 0],
        "then kept while the distribution is unwritten: {reads:?}"
    );

    // Pulp records an outside change that points production at the publication it served:
    // the distribution was written, so its record is read again, and the change is drift.
    let serving = memory
        .distribution("base-os-prod")
        .unwrap()
        .publication
        .unwrap();
    memory.point_distribution("base-os-prod", &serving);
    let (drift, read) = drift_by(&state, id, &memory).await;
    assert_eq!((drift.as_deref(), read), (Some(OUTSIDE_USER), 1));
    let (drift, read) = drift_by(&state, id, &memory).await;
    assert_eq!(
        (drift.as_deref(), read),
        (Some(OUTSIDE_USER), 0),
        "the kept record still names the outside change"
    );

    // The preview judges on the same record: kept while unwritten, read after a write.
    let production = repo_console::domain::environment::EnvironmentName::production();
    let preview = || {
        deploy::preview(
            &state,
            id,
            &production,
            VersionNumber::new(3),
            DeployKind::Deploy,
            None,
        )
    };
    let (preview_now, read) = record_reads(&memory, preview()).await;
    assert!(preview_now.expect("a preview").overwrites.is_some());
    assert_eq!(read, 0, "kept");
    let v2 = memory.publish(id, VersionNumber::new(2));
    memory.point_distribution("base-os-prod", &v2);
    let (preview_now, read) = record_reads(&memory, preview()).await;
    assert!(preview_now.expect("a preview").overwrites.is_some());
    assert_eq!(read, 1, "written since: read again");
}
