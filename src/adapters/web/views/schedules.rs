//! Scheduled deploys: the answer to a deploy scheduled from the confirm step, the list on
//! `/schedules` and on a repository's versions page (`data-schedule-id`,
//! `data-schedule-state`: waiting, running, done, failed, cancelled or refused), each
//! waiting one with its cancel button; on `/schedules`, those whose record cannot be read
//! (`data-schedule-unreadable`: the schedule's id, empty when the record names none).

use maud::{html, Markup};

use crate::app::schedules::list::Listed;
use crate::domain::schedule::record::UnreadableSchedule;
use crate::domain::schedule::{Schedule, ScheduleState};

use super::layout::{back_link, notice, page};
use super::moment::time;

/// The answer to a deploy scheduled: nothing moved yet; when it runs.
pub fn scheduled(schedule: &Schedule) -> Markup {
    html! {
        div.modal-backdrop {
            div.modal id="deploy-modal" role="dialog" aria-modal="true" aria-labelledby="deploy-title" data-confirm="" {
                h2 id="deploy-title" { "Deploy scheduled" }
                div data-schedule-id=(schedule.id) data-schedule-state=(schedule.state.word()) {
                    (notice("info", Some("schedule-made"), html! {
                        "Nothing was deployed yet: v" (schedule.target_version) " goes to " (schedule.environment)
                        " at " (time(&schedule.at)) ", every check made again then, if " (schedule.environment)
                        " still serves " (label(schedule.expected)) ". See " a href="/schedules" { "the schedules" } "."
                    }))
                }
                div.modal-actions { button.ghost type="button" data-modal-cancel { "Close" } }
            }
        }
    }
}

fn label(version: Option<u64>) -> String {
    version.map_or_else(|| "nothing".to_owned(), |n| format!("v{n}"))
}

/// The outcome of an ended schedule, in words.
fn outcome(schedule: &Schedule) -> Markup {
    html! {
        @match &schedule.state {
            ScheduleState::Waiting => { "waits" }
            ScheduleState::Running { claim } => { "running on " code { (claim.by) } }
            ScheduleState::Done { deploy_id, ended } => {
                "deployed " (time(ended)) " (deploy " code { (deploy_id.as_str()) } ")"
            }
            ScheduleState::Failed { message, ended, .. } => { "failed " (time(ended)) ": " (message) }
            ScheduleState::Cancelled { by, ended } => { "cancelled by " bdi { (by) } " " (time(ended)) }
            ScheduleState::Refused { reason, ended } => { "refused " (time(ended)) ": " (reason) }
        }
    }
}

/// A table of schedules, each waiting one with its cancel button.
pub fn schedule_table(schedules: &[Schedule]) -> Markup {
    html! {
        div.table-wrap { table.schedules {
            thead { tr {
                th scope="col" { "Runs at" } th scope="col" { "Repository" } th scope="col" { "Environment" }
                th scope="col" { "Change" } th scope="col" { "Author" } th scope="col" { "State" }
                th scope="col" { "Outcome" }
            } }
            tbody {
                @for schedule in schedules {
                    tr data-schedule-id=(schedule.id) data-schedule-state=(schedule.state.word()) data-env=(schedule.environment) {
                        td { (time(&schedule.at)) }
                        td { a href={ "/repos/" (schedule.repository_uuid) "/versions" } { bdi { (schedule.repository_name) } } }
                        td { (schedule.environment) }
                        td { (label(schedule.expected)) " \u{2192} v" (schedule.target_version) }
                        td { bdi { (schedule.author) } }
                        td { span.badge { (schedule.state.word()) } }
                        td {
                            (outcome(schedule))
                            @if schedule.state == ScheduleState::Waiting {
                                form.inline method="post" action={ "/schedules/" (schedule.id) "/cancel" } {
                                    button.ghost type="submit" aria-label={ "Cancel the schedule of v" (schedule.target_version) " to " (schedule.environment) } { "Cancel" }
                                }
                            }
                        }
                    }
                }
            }
        } }
    }
}

/// The waiting and running schedules of a repository, on its versions page.
pub fn repository_schedules(schedules: &[Schedule]) -> Markup {
    html! {
        @if !schedules.is_empty() {
            section.panel id="schedules" aria-label="Scheduled deploys" {
                h2 { "Scheduled deploys" }
                (schedule_table(schedules))
                p { a href="/schedules" { "Every scheduled deploy" } }
            }
        }
    }
}

/// `/schedules`: every schedule, newest made first, after those that cannot be read; `error`
/// when they could not be read at all.
pub fn schedules_page(listed: &Listed, error: Option<&str>) -> Markup {
    page(
        "Scheduled deploys",
        html! {
            div.title-row { (back_link()) h1 { "Scheduled deploys" } }
            p.muted { "Deploys made to run later: each runs at its time once, every check made again, if its environment still serves what it served when it was made." }
            @if let Some(error) = error {
                (notice("error", Some("page-error"), html! { strong { "Could not read the schedules. " } (error) }))
            }
            @if !listed.unreadable.is_empty() {
                (unreadable_list(&listed.unreadable))
            }
            @if listed.schedules.is_empty() && error.is_none() {
                p.muted data-schedules-empty { "No deploy is scheduled." }
            } @else {
                (schedule_table(&listed.schedules))
            }
        },
    )
}

/// The schedules whose record cannot be read: not run, and why (where the record is, the
/// log and `/readyz` say).
fn unreadable_list(unreadable: &[UnreadableSchedule]) -> Markup {
    html! {
        (notice("error", Some("schedules-unreadable"), html! {
            strong { "Some schedules cannot be read, and are not run. " }
            "The log and /readyz say where each record is; an administrator mends or removes it."
            ul {
                @for one in unreadable {
                    li data-schedule-unreadable=(one.id.as_ref().map(|id| id.as_str()).unwrap_or("")) {
                        @match &one.id {
                            Some(id) => { "Schedule " code { (id) } ": " }
                            None => { "A record naming no schedule: " }
                        }
                        (one.why)
                    }
                }
            }
        }))
    }
}
