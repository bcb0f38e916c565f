//! The answer of a release promotion: the release, the environment, what it serves now (the
//! old set, the new set, a mix, or not known), and one element per member saying what is
//! true of it (`data-member-outcome`: moved, restored, unchanged, unknown).

use maud::{html, Markup};

use crate::app::releases::ReleaseEnded;
use crate::domain::release::{MemberOutcome, ReleaseRecord};

use crate::adapters::web::views::layout::notice;

/// The answer of a promotion that touched upstream.
pub fn release_ended(ended: &ReleaseEnded) -> Markup {
    let record = &ended.record;
    let kind = if record.finished() { "ok" } else { "error" };
    html! {
        div.release-outcome data-release=(record.release.name) data-release-id=(record.release.id.as_str())
            data-env=(record.environment) data-served-set=(record.served.as_str()) {
            (notice(kind, Some("release-answer"), html! {
                strong { (headline(record)) }
                " " (record.served.sentence(record.environment.as_str())) "."
                @if let Some(error) = &record.error { " Why it stopped: " (error) "." }
            }))
            (member_list(record))
            @if let Err(error) = &ended.audit {
                (notice("error", None, html! {
                    "The audit log could not take every line of this promotion (" (error) "); the outcome above is what happened."
                }))
            }
        }
    }
}

fn headline(record: &ReleaseRecord) -> String {
    let what = match record.kind {
        crate::domain::deploy::DeployKind::Rollback => "Rollback of release",
        crate::domain::deploy::DeployKind::Deploy => "Promotion of release",
    };
    let how = if record.finished() { "done" } else { "stopped" };
    format!(
        "{what} {} to {}: {how}.",
        record.release.name, record.environment
    )
}

/// One item per member, in the release's order.
pub fn member_list(record: &ReleaseRecord) -> Markup {
    html! {
        ul.release-members {
            @for member in &record.members {
                li data-release-member=(member.repository_name) data-member-outcome=(member.outcome.as_str()) {
                    strong { (member.repository_name) } ": "
                    (outcome_words(member.outcome, member.previous_version, member.target_version))
                    @if let Some(detail) = &member.detail { " — " (detail) }
                }
            }
        }
    }
}

fn outcome_words(outcome: MemberOutcome, from: Option<u64>, to: u64) -> String {
    let from = from.map_or_else(|| "nothing".to_owned(), |v| format!("v{v}"));
    match outcome {
        MemberOutcome::Moved => format!("moved ({from} → v{to})"),
        MemberOutcome::Restored => format!("restored (serves {from} again)"),
        MemberOutcome::Unchanged => format!("unchanged (serves {from})"),
        MemberOutcome::Unknown => format!("unknown ({from} or v{to})"),
    }
}
