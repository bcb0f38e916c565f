//! DTO conversions on real JSON captured from pulpcore 3.123.1 + pulp_rpm 3.39.4
//! (/work/shared/pulp/API-SAMPLES.md), trimmed only where marked.

use serde_json::json;

use super::*;
use crate::domain::repository::{Badge, UnsignedMetadata, VersionNumber};

const REPO: &str = r#"{
  "pulp_href": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/",
  "prn": "prn:rpm.rpmrepository:01a202de-e818-7629-a483-70ecc3240361",
  "pulp_created": "2026-11-22T10:48:12.569356Z",
  "pulp_last_updated": "2026-11-22T10:48:16.789414Z",
  "versions_href": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/",
  "pulp_labels": {},
  "latest_version_href": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/5/",
  "name": "demo",
  "description": "seeded by seed.sh",
  "retain_repo_versions": null,
  "retain_checkpoints": null,
  "remote": null,
  "autopublish": false,
  "metadata_signing_service": null,
  "package_signing_service": null,
  "package_signing_fingerprint": null,
  "retain_package_versions": 0,
  "checksum_type": "sha256",
  "metadata_checksum_type": null,
  "package_checksum_type": null,
  "sqlite_metadata": false,
  "repo_config": {"gpgcheck": 0, "repo_gpgcheck": 0},
  "compression_type": null,
  "layout": null,
  "osv_config": null
}"#;

/// `versions/?limit=2&offset=4` of the sample repository: v1 (+2) and v0 (empty).
const VERSIONS_PAGE: &str = r#"{
  "count": 6,
  "next": null,
  "previous": "http://127.0.0.1:24817/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/?limit=2&offset=2",
  "results": [
    {
      "pulp_href": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/1/",
      "prn": "prn:core.repositoryversion:01a202de-e973-74a0-9e09-13587b9aae18",
      "pulp_created": "2026-11-22T10:48:12.922364Z",
      "pulp_last_updated": "2026-11-22T10:48:13.042731Z",
      "number": 1,
      "repository": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/",
      "base_version": null,
      "content_summary": {
        "added": {"rpm.package": {"count": 2, "href": "/pulp/api/v3/content/rpm/packages/?repository_version_added=/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/1/"}},
        "removed": {},
        "present": {"rpm.package": {"count": 2, "href": "/pulp/api/v3/content/rpm/packages/?repository_version=/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/1/"}}
      },
      "vuln_report": "/pulp/api/v3/vuln_report/?repo_versions=prn:core.repositoryversion:01a202de-e973-74a0-9e09-13587b9aae18"
    },
    {
      "pulp_href": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/0/",
      "prn": "prn:core.repositoryversion:01a202de-e829-725e-9d4a-e535570e8673",
      "pulp_created": "2026-11-22T10:48:12.592292Z",
      "pulp_last_updated": "2026-11-22T10:48:12.592309Z",
      "number": 0,
      "repository": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/",
      "base_version": null,
      "content_summary": {"added": {}, "removed": {}, "present": {}},
      "vuln_report": "/pulp/api/v3/vuln_report/?repo_versions=prn:core.repositoryversion:01a202de-e829-725e-9d4a-e535570e8673"
    }
  ]
}"#;

const VERSION_5: &str = r#"{
  "pulp_href": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/5/",
  "pulp_created": "2026-11-22T10:48:16.593434Z",
  "number": 5,
  "content_summary": {
    "added": {"rpm.package": {"count": 1, "href": "/pulp/api/v3/content/rpm/packages/?repository_version_added=x"}},
    "removed": {"rpm.package": {"count": 1, "href": "/pulp/api/v3/content/rpm/packages/?repository_version_removed=x"}},
    "present": {"rpm.package": {"count": 4, "href": "/pulp/api/v3/content/rpm/packages/?repository_version=x"}}
  }
}"#;

const DISTRIBUTIONS: &str = r#"{
  "count": 2, "next": null, "previous": null,
  "results": [
    {
      "pulp_href": "/pulp/api/v3/distributions/rpm/rpm/01a202df-084c-7247-b2c8-bd99f3e6b587/",
      "prn": "prn:rpm.rpmdistribution:01a202df-084c-7247-b2c8-bd99f3e6b587",
      "pulp_created": "2026-11-22T10:48:20.818905Z",
      "pulp_last_updated": "2026-11-22T10:48:20.818931Z",
      "base_path": "staging",
      "base_url": "http://127.0.0.1:24816/pulp/content/staging/",
      "content_guard": null, "content_guard_prn": null, "no_content_change_since": null,
      "hidden": false, "pulp_labels": {}, "name": "staging",
      "repository": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/",
      "repository_version": null, "publication": null,
      "generate_repo_config": false, "checkpoint": false
    },
    {
      "pulp_href": "/pulp/api/v3/distributions/rpm/rpm/01a202df-033e-7512-86d4-6c1685444e44/",
      "prn": "prn:rpm.rpmdistribution:01a202df-033e-7512-86d4-6c1685444e44",
      "pulp_created": "2026-11-22T10:48:19.523016Z",
      "pulp_last_updated": "2026-11-22T10:48:20.068029Z",
      "base_path": "prod",
      "base_url": "http://127.0.0.1:24816/pulp/content/prod/",
      "content_guard": null, "content_guard_prn": null,
      "no_content_change_since": "2026-11-22T10:48:20.068029Z",
      "hidden": false, "pulp_labels": {}, "name": "prod",
      "repository": null, "repository_version": null,
      "publication": "/pulp/api/v3/publications/rpm/rpm/01a202de-fee5-7e06-aead-aeedd04bf6cf/",
      "generate_repo_config": false, "checkpoint": false
    }
  ]
}"#;

const PUBLICATION: &str = r#"{
  "pulp_href": "/pulp/api/v3/publications/rpm/rpm/01a202de-fee5-7e06-aead-aeedd04bf6cf/",
  "prn": "prn:rpm.rpmpublication:01a202de-fee5-7e06-aead-aeedd04bf6cf",
  "pulp_created": "2026-11-22T10:48:18.407789Z",
  "pulp_last_updated": "2026-11-22T10:48:18.856621Z",
  "repository_version": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/5/",
  "repository": "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/",
  "checkpoint": false, "checksum_type": "sha256", "metadata_checksum_type": null,
  "package_checksum_type": null, "sqlite_metadata": false,
  "repo_config": {"gpgcheck": 0, "repo_gpgcheck": 0},
  "compression_type": null, "layout": "nested_alphabetically"
}"#;

/// A sync from a refused port (traceback trimmed).
const TASK_FAILED: &str = r#"{
  "pulp_href": "/pulp/api/v3/tasks/01a202df-907b-73c7-a002-9e80e7ec08b8/",
  "prn": "prn:core.task:01a202df-907b-73c7-a002-9e80e7ec08b8",
  "pulp_created": "2026-11-22T10:48:55.680824Z",
  "state": "failed",
  "name": "pulp_rpm.app.tasks.synchronizing.synchronize",
  "error": {
    "traceback": "  File \"tasks.py\", line 86, in _execute_task",
    "description": "Cannot connect to host 127.0.0.1:9 ssl:default [Connect call failed ('127.0.0.1', 9)]"
  },
  "worker": null, "parent_task": null, "child_tasks": [], "task_group": null,
  "progress_reports": [],
  "created_resources": [],
  "created_resource_prns": [],
  "reserved_resources_record": [
    "prn:rpm.rpmrepository:01a202df-8f9b-7bf1-b64c-ebcd5e57dca5",
    "shared:prn:rpm.rpmremote:01a202df-8ecc-7a2e-9f73-af9e4ada7eb3",
    "shared:prn:core.domain:c0893a67-c18e-45ec-9900-5e1a8dd0c8d3"
  ],
  "result": null,
  "pulp_api_version": "v3"
}"#;

const TASK_PUBLISH_COMPLETED: &str = r#"{
  "pulp_href": "/pulp/api/v3/tasks/01a202df-67d6-7a94-be1c-545118cc5c50/",
  "state": "completed",
  "name": "pulp_rpm.app.tasks.publishing.publish",
  "error": null,
  "progress_reports": [
    {"message": "Generating repository metadata", "code": "publish.generating_metadata",
     "state": "completed", "total": 1, "done": 1, "suffix": null}
  ],
  "created_resources": ["/pulp/api/v3/publications/rpm/rpm/01a202df-6852-7875-8e73-1503cb833757/"],
  "created_resource_prns": ["prn:rpm.rpmpublication:01a202df-6852-7875-8e73-1503cb833757"]
}"#;

fn repo(json: serde_json::Value) -> Repository {
    serde_json::from_value::<RepositoryDto>(json)
        .unwrap()
        .into_domain()
        .unwrap()
}

const HREF: &str = "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/";

#[test]
fn a_real_repository_reads_its_settings_from_repo_config() {
    let r = serde_json::from_str::<RepositoryDto>(REPO)
        .unwrap()
        .into_domain()
        .unwrap();
    assert_eq!(r.id.as_str(), "01a202de-e818-7629-a483-70ecc3240361");
    assert_eq!(r.name.as_deref(), Some("demo"));
    assert_eq!(r.verification.gpgcheck, Some(false));
    assert_eq!(r.verification.repo_gpgcheck, Some(false));
    assert_eq!(r.verification.checksum, Some(ChecksumType::Sha256));
    assert_eq!(
        r.latest_version.unwrap().number(),
        Some(VersionNumber::new(5))
    );
    assert_eq!(r.remote, None);
}

#[test]
fn gpg_switches_may_be_ints_bools_or_strings() {
    for (on, off) in [
        (json!(1), json!(0)),
        (json!(true), json!(false)),
        (json!("1"), json!("0")),
        (json!("yes"), json!("no")),
    ] {
        let r = repo(
            json!({"pulp_href": HREF, "checksum_type": "sha512", "repo_config": {"gpgcheck": on, "repo_gpgcheck": off}}),
        );
        assert_eq!(
            (r.verification.gpgcheck, r.verification.repo_gpgcheck),
            (Some(true), Some(false))
        );
    }
    let verified = repo(
        json!({"pulp_href": HREF, "checksum_type": "sha256", "repo_config": {"gpgcheck": 1, "repo_gpgcheck": "1"}}),
    );
    assert_eq!(
        verified.verification.badge(UnsignedMetadata::Refuse),
        Badge::Verified
    );
}

#[test]
fn absent_or_odd_repo_config_means_unknown_settings() {
    for config in [
        json!(null),
        json!({}),
        json!("gpgcheck=1"),
        json!([1]),
        json!({"gpgcheck": "maybe"}),
    ] {
        let r = repo(json!({"pulp_href": HREF, "repo_config": config}));
        assert_eq!(r.verification.gpgcheck, None, "{config}");
        assert_eq!(
            r.verification.badge(UnsignedMetadata::Refuse),
            Badge::Unverified
        );
    }
    let bare = repo(json!({"pulp_href": HREF}));
    assert_eq!(bare.name, None);
    assert_eq!(bare.verification.checksum, None);
}

#[test]
fn old_top_level_settings_are_read_when_repo_config_lacks_them() {
    let r = repo(
        json!({"pulp_href": HREF, "gpgcheck": 1, "repo_gpgcheck": 0, "metadata_checksum_type": "sha384", "checksum_type": null}),
    );
    assert_eq!(r.verification.gpgcheck, Some(true));
    assert_eq!(r.verification.repo_gpgcheck, Some(false));
    assert_eq!(r.verification.checksum, Some(ChecksumType::Sha384));
}

#[test]
fn dead_top_level_settings_are_ignored_when_repo_config_is_present() {
    let r = repo(json!({
        "pulp_href": HREF, "repo_config": {"gpgcheck": 0},
        "gpgcheck": 1, "repo_gpgcheck": 1
    }));
    assert_eq!(r.verification.gpgcheck, Some(false));
    assert_eq!(r.verification.repo_gpgcheck, None);
}

#[test]
fn a_metadata_signing_service_is_read_as_set_unset_or_unknown() {
    let config = json!({"gpgcheck": 1, "repo_gpgcheck": 1});
    let unsigned =
        repo(json!({"pulp_href": HREF, "repo_config": config, "metadata_signing_service": null}));
    assert_eq!(unsigned.verification.metadata_signed, Some(false));
    assert!(unsigned.verification.unsigned_metadata());
    let signed = repo(json!({"pulp_href": HREF, "repo_config": config,
        "metadata_signing_service": "/pulp/api/v3/signing-services/01a2/"}));
    assert_eq!(signed.verification.metadata_signed, Some(true));
    assert!(!signed.verification.unsigned_metadata());
    let unknown = repo(json!({"pulp_href": HREF, "repo_config": config}));
    assert_eq!(unknown.verification.metadata_signed, None);
}

#[test]
fn a_repository_address_without_a_uuid_is_a_bad_response() {
    let dto: RepositoryDto =
        serde_json::from_value(json!({"pulp_href": "/pulp/api/v3/tasks/x/"})).unwrap();
    assert!(matches!(
        dto.into_domain(),
        Err(UpstreamError::BadResponse(_))
    ));
}

#[test]
fn version_counts_come_from_the_content_summary() {
    let page: PageDto<VersionDto> = serde_json::from_str(VERSIONS_PAGE).unwrap();
    assert_eq!(page.count, 6);
    assert_eq!(page.next, None);
    let versions: Vec<RepoVersion> = page
        .results
        .into_iter()
        .map(|v| v.into_domain().unwrap())
        .collect();
    assert_eq!(versions[0].number(), Some(VersionNumber::new(1)));
    assert_eq!(
        (
            versions[0].package_count,
            versions[0].added,
            versions[0].removed
        ),
        (2, 2, 0)
    );
    assert_eq!(
        (
            versions[1].package_count,
            versions[1].added,
            versions[1].removed
        ),
        (0, 0, 0)
    );
    assert_eq!(
        versions[1].created.to_rfc3339(),
        "2026-11-22T10:48:12.592292+00:00"
    );

    let v5 = serde_json::from_str::<VersionDto>(VERSION_5)
        .unwrap()
        .into_domain()
        .unwrap();
    assert_eq!(
        (v5.package_count, v5.added, v5.removed, v5.net_change()),
        (4, 1, 1, 0)
    );
}

#[test]
fn a_version_without_summary_counts_zero() {
    let v: VersionDto = serde_json::from_value(json!({"pulp_href": format!("{HREF}versions/2/"), "pulp_created": "2026-11-22T10:48:12Z", "content_summary": {"present": {"rpm.advisory": {"count": 3}}}})).unwrap();
    let v = v.into_domain().unwrap();
    assert_eq!((v.package_count, v.added, v.removed), (0, 0, 0));
}

#[test]
fn distributions_serve_a_publication_or_nothing_the_console_follows() {
    let page: PageDto<DistributionDto> = serde_json::from_str(DISTRIBUTIONS).unwrap();
    let dists: Vec<Distribution> = page
        .results
        .into_iter()
        .map(DistributionDto::into_domain)
        .collect();
    assert_eq!(dists[0].name, "staging");
    assert_eq!(dists[0].publication, None);
    assert_eq!(dists[1].base_path, "prod");
    assert_eq!(
        dists[1].publication.as_ref().map(PublicationHref::as_str),
        Some("/pulp/api/v3/publications/rpm/rpm/01a202de-fee5-7e06-aead-aeedd04bf6cf/")
    );
}

#[test]
fn a_publication_names_its_version() {
    let p = serde_json::from_str::<PublicationDto>(PUBLICATION)
        .unwrap()
        .into_domain()
        .unwrap();
    assert_eq!(p.repository_version.number(), Some(VersionNumber::new(5)));
    let none: PublicationDto =
        serde_json::from_value(json!({"pulp_href": "/p/", "repository_version": null})).unwrap();
    assert!(matches!(
        none.into_domain(),
        Err(UpstreamError::BadResponse(_))
    ));
}

#[test]
fn a_failed_task_carries_its_description() {
    let t = serde_json::from_str::<TaskDto>(TASK_FAILED).unwrap();
    assert_eq!(t.reserved_resources_record.len(), 3);
    let t = t.into_domain().unwrap();
    assert_eq!(t.state, TaskState::Failed);
    assert!(t
        .error
        .unwrap()
        .starts_with("Cannot connect to host 127.0.0.1:9"));
}

#[test]
fn a_completed_publish_task_names_the_publication() {
    let t = serde_json::from_str::<TaskDto>(TASK_PUBLISH_COMPLETED)
        .unwrap()
        .into_domain()
        .unwrap();
    assert_eq!(t.state, TaskState::Completed);
    assert_eq!(t.error, None);
    assert_eq!(
        t.created_resources,
        vec!["/pulp/api/v3/publications/rpm/rpm/01a202df-6852-7875-8e73-1503cb833757/"]
    );
    assert_eq!(t.progress[0].code, "publish.generating_metadata");
    assert_eq!((t.progress[0].done, t.progress[0].total), (1, Some(1)));
}

#[test]
fn every_task_state_is_understood_and_unknown_ones_are_refused() {
    for (raw, state) in [
        ("waiting", TaskState::Waiting),
        ("running", TaskState::Running),
        ("canceling", TaskState::Canceling),
        ("canceled", TaskState::Canceled),
        ("skipped", TaskState::Canceled),
    ] {
        let t: TaskDto = serde_json::from_value(json!({"pulp_href": "/t/", "state": raw})).unwrap();
        assert_eq!(t.into_domain().unwrap().state, state);
    }
    let odd: TaskDto =
        serde_json::from_value(json!({"pulp_href": "/t/", "state": "exploded"})).unwrap();
    assert!(matches!(
        odd.into_domain(),
        Err(UpstreamError::BadResponse(_))
    ));
}
