//! The status of every error variant a handler meets, as each renderer answers it: the pages
//! (an HTML page or fragment: [`Answer`], [`WebError`]) and the JSON API ([`ApiError`], a
//! deploy's answer). The two must agree, and both must say what the table says.

use axum::response::IntoResponse;
use maud::html;

use crate::app::approvals::requests::ActError;
use crate::app::checks::{ReadError as ChecksReadError, ReportError};
use crate::app::deploy::{DeployOutcome, NotStarted, PreviewError, StepError};
use crate::app::diffs::compare::CompareError;
use crate::app::exposure::ExposureError;
use crate::app::facts::{ReadError, UnknownRepository};
use crate::app::sync::SyncError;
use crate::domain::approval::RequestRefusal;
use crate::domain::deploy::Refusal;
use crate::domain::environment::{EnvironmentName, UnknownEnvironment};
use crate::domain::identity::PersonName;
use crate::domain::ids::RequestId;
use crate::domain::policy::{Denied, NotListed};
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::{
    AuditError, AuditReadError, LockError, RequestStoreError, Unidentified, UpstreamError,
};

use super::answer::Answer;
use super::api::{outcome, ApiError};
use super::errors::WebError;
use super::status::{HttpStatus, Refused};

/// The page's status and the API's for `error`, through the renderers the handlers use.
fn both(error: &(impl HttpStatus + std::fmt::Display)) -> (u16, u16) {
    let page = Answer::as_of(error, html! { (error.to_string()) }).into_response();
    let web = WebError::of(error).into_response();
    assert_eq!(page.status(), web.status(), "{error}");
    let api = ApiError::of(error).into_response();
    (page.status().as_u16(), api.status().as_u16())
}

/// The page's status and the API's for a deploy's outcome (the API's own answer of it).
fn both_of_outcome(outcome: DeployOutcome) -> (u16, u16) {
    let page = Answer::as_of(&outcome, html! {}).into_response().status();
    let api = outcome::answer(outcome, &EnvironmentName::production()).status();
    (page.as_u16(), api.as_u16())
}

fn assert_table(table: Vec<(&str, (u16, u16), u16)>) {
    for (variant, (page, api), expected) in table {
        assert_eq!(
            page, api,
            "{variant}: the page answers {page}, the API {api}"
        );
        assert_eq!(page, expected, "{variant}");
    }
}

fn production() -> EnvironmentName {
    EnvironmentName::production()
}

fn upstream_errors() -> Vec<(&'static str, UpstreamError, u16)> {
    let http = UpstreamError::Http {
        status: 500,
        message: "boom".into(),
    };
    vec![
        ("Http", http, 502),
        ("Auth", UpstreamError::Auth("no".into()), 503),
        ("Timeout", UpstreamError::Timeout("30 s".into()), 504),
        (
            "Unreachable",
            UpstreamError::Unreachable("refused".into()),
            503,
        ),
        (
            "Interrupted",
            UpstreamError::Interrupted("reset".into()),
            502,
        ),
        (
            "BadResponse",
            UpstreamError::BadResponse("junk".into()),
            502,
        ),
        (
            "TaskFailed",
            UpstreamError::TaskFailed("failed".into()),
            502,
        ),
        (
            "TaskCanceled",
            UpstreamError::TaskCanceled("canceled".into()),
            502,
        ),
    ]
}

fn refusals() -> Vec<(&'static str, Refusal, u16)> {
    let env = production;
    vec![
        ("NotVerified", Refusal::NotVerified("gpgcheck".into()), 409),
        ("UnknownVersion", Refusal::UnknownVersion(9), 404),
        (
            "AlreadyDeployed",
            Refusal::AlreadyDeployed {
                version: 4,
                environment: env(),
            },
            409,
        ),
        ("ConfirmationMismatch", Refusal::ConfirmationMismatch, 422),
        (
            "ExpectedCurrentMissing",
            Refusal::ExpectedCurrentMissing,
            422,
        ),
        (
            "ProductionMoved",
            Refusal::ProductionMoved {
                environment: env(),
                seen: "v2".into(),
                now: "v3".into(),
            },
            409,
        ),
        (
            "OutOfOrder",
            Refusal::OutOfOrder {
                version: 4,
                environment: env(),
                skips: EnvironmentName::parse("staging").unwrap(),
            },
            409,
        ),
        (
            "NoEnvironmentDistribution",
            Refusal::NoEnvironmentDistribution(env()),
            409,
        ),
        (
            "UnknownEnvironment",
            Refusal::UnknownEnvironment("moon".into()),
            409,
        ),
        ("NotAllowed", Refusal::NotAllowed("only alice".into()), 403),
        (
            "Frozen",
            Refusal::Frozen {
                environment: env(),
                until: "until tomorrow".into(),
                may_override: false,
            },
            409,
        ),
        (
            "Soak",
            Refusal::Soak(Box::new(crate::domain::deploy::SoakRefusal {
                environment: env(),
                previous: EnvironmentName::parse("staging").unwrap(),
                version: 7,
                soak: "1d".into(),
                until: Some("2026-12-01T02:00:00Z".into()),
                why: String::new(),
                may_override: false,
            })),
            409,
        ),
        ("ApprovalsNeeded", Refusal::ApprovalsNeeded(env()), 409),
        (
            "Pinned",
            Refusal::Pinned(Box::new(crate::domain::deploy::PinnedRefusal {
                environment: env(),
                version: 3,
                set_by: "alice".into(),
                reason: "v4 breaks logins".into(),
                since: "2026-11-28T10:00:00Z".into(),
            })),
            409,
        ),
        (
            "ChecksMissing",
            Refusal::ChecksMissing {
                version: 4,
                environment: env(),
                checked_in: EnvironmentName::parse("staging").unwrap(),
                unmet: crate::domain::check::Unmet(vec![(
                    crate::domain::check::CheckName::parse("smoke").unwrap(),
                    crate::domain::check::CheckState::Failed,
                )]),
            },
            409,
        ),
        (
            "OverrideReasonMissing",
            Refusal::OverrideReasonMissing(env()),
            422,
        ),
        ("RollbackTargetGone", Refusal::RollbackTargetGone(1), 410),
        (
            "RollbackTargetNeverServed",
            Refusal::RollbackTargetNeverServed {
                version: 1,
                environment: EnvironmentName::production(),
            },
            422,
        ),
        ("ReasonMissing", Refusal::ReasonMissing, 422),
        ("ReasonTooLong", Refusal::ReasonTooLong(500), 422),
        (
            "NoProductionDistribution",
            Refusal::NoProductionDistribution,
            409,
        ),
        (
            "ConfiguredDistributionMissing",
            Refusal::ConfiguredDistributionMissing("base-os-prod".into()),
            409,
        ),
    ]
}

fn not_started() -> Vec<(&'static str, NotStarted, u16)> {
    let unknown = UnknownRepository(RepoId::parse("0199a1b2-0000-7000-8000-00000000000a").unwrap());
    let down = || ("file".to_owned(), "disk full".to_owned());
    vec![
        (
            "Unreadable(UnknownRepository)",
            NotStarted::Unreadable(unknown.into()),
            404,
        ),
        (
            "Unreadable(Upstream)",
            NotStarted::Unreadable(UpstreamError::Timeout("slow".into()).into()),
            504,
        ),
        (
            "AuditUnavailable",
            NotStarted::AuditUnavailable(AuditError {
                target: down().0,
                reason: down().1,
            }),
            503,
        ),
        (
            "LockUnavailable",
            NotStarted::LockUnavailable(LockError {
                target: down().0,
                reason: down().1,
            }),
            503,
        ),
        (
            "ChecksUnreadable",
            NotStarted::ChecksUnreadable(crate::ports::CheckStoreError {
                target: down().0,
                reason: down().1,
            }),
            503,
        ),
        (
            "RequestNotKept",
            NotStarted::RequestNotKept(RequestStoreError::Conflict),
            503,
        ),
    ]
}

fn denied() -> Denied {
    Denied::NotListed(NotListed {
        action: "deploy to production".into(),
        allowed: Vec::new(),
        operator: PersonName::new("mallory").unwrap(),
        groups: Vec::new(),
    })
}

#[test]
fn each_upstream_failure_has_one_status_on_pages_and_in_the_api() {
    let mut table = Vec::new();
    for (name, error, status) in upstream_errors() {
        table.push((name, both(&error), status));
        table.push((name, both(&ReadError::Upstream(error.clone())), status));
        let compared = CompareError::Upstream(error.clone());
        table.push((name, both(&compared), status));
        table.push((name, both(&SyncError::Upstream(error.clone())), status));
        let step = StepError::TaskEnded(error);
        table.push((name, both(&step), status));
    }
    let gone = UpstreamError::Http {
        status: 404,
        message: "Not found.".into(),
    };
    table.push((
        "Compare: Pulp's 404",
        both(&CompareError::Upstream(gone)),
        404,
    ));
    for (name, error, status) in upstream_errors() {
        let exposure = ExposureError::Upstream {
            what: "the repositories",
            error,
        };
        table.push((name, both(&exposure), status));
    }
    let advisory = ExposureError::UnknownAdvisory("RHSA-0".into());
    table.push(("Exposure: UnknownAdvisory", both(&advisory), 404));
    assert_eq!(ApiError::exposure(&advisory).code, "unknown_advisory");
    let question = crate::domain::exposure::BadExposureQuery("Ask one question at a time".into());
    table.push(("Exposure: BadExposureQuery", both(&question), 400));
    let version = CompareError::UnknownVersion(VersionNumber::new(9));
    table.push(("Compare: UnknownVersion", both(&version), 404));
    let moved = StepError::ProductionMoved { now: "v3".into() };
    table.push(("Step: ProductionMoved", both(&moved), 409));
    assert_table(table);
}

#[test]
fn each_deploy_refusal_and_outcome_has_one_status_on_pages_and_in_the_api() {
    let mut table = Vec::new();
    for (name, refusal, status) in refusals() {
        table.push((name, both(&refusal), status));
        let preview = PreviewError::Refused(refusal.clone());
        table.push((name, both(&preview), status));
        table.push((
            name,
            both_of_outcome(DeployOutcome::Refused(refusal)),
            status,
        ));
    }
    for (name, why, status) in not_started() {
        table.push((name, both(&why), status));
        table.push((
            name,
            both_of_outcome(DeployOutcome::NotStarted(why)),
            status,
        ));
    }
    assert_table(table);
}

#[test]
fn each_refused_action_on_a_request_has_one_status_on_pages_and_in_the_api() {
    let id = RequestId::parse("r-1").unwrap();
    let errors = vec![
        ("NotFound", ActError::NotFound(id), 404),
        ("Denied", ActError::Denied(denied()), 403),
        (
            "Refused(Closed)",
            ActError::Refused(RequestRefusal::Closed("expired")),
            409,
        ),
        (
            "Refused(OwnRequest)",
            ActError::Refused(RequestRefusal::OwnRequest(production())),
            403,
        ),
        (
            "Refused(AlreadyApproved)",
            ActError::Refused(RequestRefusal::AlreadyApproved),
            409,
        ),
        (
            "Refused(NotRequester)",
            ActError::Refused(RequestRefusal::NotRequester(
                PersonName::new("alice").unwrap(),
            )),
            403,
        ),
        (
            "Refused(TokenOfRequester)",
            ActError::Refused(RequestRefusal::TokenOfRequester {
                token: PersonName::new("alice-bot").unwrap(),
                owner: PersonName::new("alice").unwrap(),
                environment: EnvironmentName::production(),
            }),
            403,
        ),
        (
            "Stale",
            ActError::Stale {
                environment: "production".into(),
                asked: "v2".into(),
                now: "v3".into(),
            },
            409,
        ),
        (
            "Deploy(NotVerified)",
            ActError::Deploy(Refusal::NotVerified("gpgcheck".into())),
            409,
        ),
        (
            "Deploy(ConfirmationMismatch)",
            ActError::Deploy(Refusal::ConfirmationMismatch),
            422,
        ),
        (
            "NotStarted",
            ActError::NotStarted(NotStarted::RequestNotKept(RequestStoreError::Conflict)),
            503,
        ),
        ("Store", ActError::Store(RequestStoreError::Conflict), 503),
    ];
    let mut table = Vec::new();
    for (name, error, status) in errors {
        let page = Answer::as_of(&error, html! {})
            .into_response()
            .status()
            .as_u16();
        let api = ApiError::act(&error).into_response().status().as_u16();
        table.push((name, (page, api), status));
    }
    assert_table(table);
}

#[test]
fn each_other_failure_has_one_status_on_pages_and_in_the_api() {
    let unknown = UnknownRepository(RepoId::parse("0199a1b2-0000-7000-8000-00000000000a").unwrap());
    let unavailable = RequestStoreError::Unavailable {
        target: "requests.jsonl".into(),
        reason: "disk full".into(),
    };
    let environment = UnknownEnvironment {
        asked: "moon".into(),
        known: "production".into(),
    };
    let table = vec![
        ("UnknownRepository", both(&unknown), 404),
        (
            "Read: UnknownRepository",
            both(&ReadError::UnknownRepository(unknown.clone())),
            404,
        ),
        ("Sync: NoRemote", both(&SyncError::NoRemote), 409),
        (
            "Sync: AlreadyRunning",
            both(&SyncError::AlreadyRunning),
            409,
        ),
        (
            "Sync: UnknownRepository",
            both(&SyncError::UnknownRepository(unknown)),
            404,
        ),
        (
            "Sync: NotAllowed",
            both(&SyncError::NotAllowed(denied())),
            403,
        ),
        ("Denied", both(&denied()), 403),
        ("Unidentified", both(&Unidentified::UnknownPeer), 401),
        ("UnknownEnvironment", both(&environment), 404),
        ("RequestStore: Unavailable", both(&unavailable), 503),
        (
            "RequestStore: Conflict",
            both(&RequestStoreError::Conflict),
            503,
        ),
        (
            "AuditRead: NotReadable",
            both(&AuditReadError::NotReadable {
                target: "standard output".into(),
            }),
            503,
        ),
        (
            "Report: NotAToken",
            both(&ReportError::NotAToken("alice".into())),
            403,
        ),
        (
            "Report: OutOfScope",
            both(&ReportError::OutOfScope(
                crate::domain::identity::MissingScope {
                    token: PersonName::new("deployer").unwrap(),
                    needed: crate::domain::identity::Scope::parse("check:staging").unwrap(),
                    held: "deploy:*".into(),
                },
            )),
            403,
        ),
        (
            "Report: Invalid",
            both(&ReportError::Invalid("bad".into())),
            422,
        ),
        (
            "Report: UnknownEnvironment",
            both(&ReportError::UnknownEnvironment(environment.clone())),
            404,
        ),
        (
            "Report: UnknownRepository",
            both(&ReportError::UnknownRepository("nope".into())),
            404,
        ),
        (
            "Report: UnknownVersion",
            both(&ReportError::UnknownVersion {
                repository: "app".into(),
                version: 9,
            }),
            404,
        ),
        (
            "Report: Upstream",
            both(&ReportError::Upstream(UpstreamError::Timeout(
                "slow".into(),
            ))),
            504,
        ),
        (
            "Report: Store",
            both(&ReportError::Store(check_store_down())),
            503,
        ),
        ("Report: NotKept", both(&ReportError::NotKept), 503),
        (
            "Report: NotServed",
            both(&ReportError::NotServed {
                repository: "app".into(),
                environment: EnvironmentName::parse("testing").unwrap(),
                version: 9,
            }),
            409,
        ),
        (
            "Report: HistoryUnreadable",
            both(&ReportError::HistoryUnreadable(
                EnvironmentName::parse("testing").unwrap(),
            )),
            503,
        ),
        (
            "ChecksRead: Store",
            both(&ChecksReadError::Store(check_store_down())),
            503,
        ),
        ("ChecksRead: NotKept", both(&ChecksReadError::NotKept), 503),
        (
            "Preview: ChecksUnreadable",
            both(&PreviewError::ChecksUnreadable(check_store_down())),
            503,
        ),
        ("Refused: NotFound", status_of(Refused::NotFound), 404),
        ("Refused: BadRequest", status_of(Refused::BadRequest), 400),
        (
            "Refused: Unidentified",
            status_of(Refused::Unidentified),
            401,
        ),
        ("Refused: Unexpected", status_of(Refused::Unexpected), 500),
        (
            "WebError::NotFound",
            both(&WebError::NotFound("none".into())),
            404,
        ),
        (
            "WebError::BadRequest",
            both(&WebError::BadRequest("bad".into())),
            400,
        ),
    ];
    assert_table(table);
}

fn check_store_down() -> crate::ports::CheckStoreError {
    crate::ports::CheckStoreError {
        target: "checks.jsonl".into(),
        reason: "disk full".into(),
    }
}

/// What the web refuses by itself, as a page and as the API says it.
fn status_of(refused: Refused) -> (u16, u16) {
    let page = Answer::as_of(&refused, html! {}).into_response().status();
    let api = ApiError::said(&refused, "refused").into_response().status();
    (page.as_u16(), api.as_u16())
}

/// The page's status and the API's for a release promotion's outcome.
fn both_of_release(outcome: crate::app::releases::ReleaseOutcome) -> (u16, u16) {
    let page = Answer::as_of(&outcome, html! {}).into_response().status();
    let api = super::api::releases::answer(outcome).status();
    (page.as_u16(), api.as_u16())
}

#[test]
fn each_release_refusal_has_one_status_on_pages_and_in_the_api() {
    use crate::app::releases::ReleaseOutcome;
    use crate::domain::ids::ReleaseName;
    use crate::domain::release::ReleaseRefusal;
    let release = || ReleaseName::parse("rhel9").unwrap();
    let mut release_refusals = vec![
        (
            "UnknownRelease",
            ReleaseRefusal::UnknownRelease("x".into()),
            404,
        ),
        (
            "UnknownMember",
            ReleaseRefusal::UnknownMember {
                release: release(),
                repository: "epel".into(),
            },
            409,
        ),
        (
            "NotAMember",
            ReleaseRefusal::NotAMember {
                release: release(),
                repository: "x".into(),
                members: "a, b".into(),
            },
            422,
        ),
        (
            "MemberMissing",
            ReleaseRefusal::MemberMissing {
                field: "versions",
                repository: "a".into(),
                members: "a, b".into(),
            },
            422,
        ),
        (
            "ConfirmationMismatch",
            ReleaseRefusal::ConfirmationMismatch,
            422,
        ),
        (
            "NothingToPromote",
            ReleaseRefusal::NothingToPromote {
                release: release(),
                environment: production(),
            },
            409,
        ),
    ];
    for (name, refusal, status) in refusals() {
        release_refusals.push((name, ReleaseRefusal::Gate(refusal.clone()), status));
        release_refusals.push((
            name,
            ReleaseRefusal::Member {
                repository: "a".into(),
                refusal,
            },
            status,
        ));
    }
    let mut table = Vec::new();
    for (name, refusal, status) in release_refusals {
        table.push((name, both(&refusal), status));
        table.push((
            name,
            both_of_release(ReleaseOutcome::Refused(refusal)),
            status,
        ));
    }
    for (name, why, status) in not_started() {
        table.push((
            name,
            both_of_release(ReleaseOutcome::NotStarted(why)),
            status,
        ));
    }
    assert_table(table);
}
