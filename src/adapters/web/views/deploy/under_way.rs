//! The deploys under way, as their steps: in the confirm dialog while its deploy runs
//! (polled by `console.js`), and on the versions page (polled by htmx while one runs).

use chrono::{DateTime, SecondsFormat, Utc};
use maud::{html, Markup};

use crate::domain::deploy::progress::{DeployPhase, StepProgress, UnderWay};
use crate::domain::deploy::ProductionChanged;
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::RepoId;

use crate::adapters::web::views::moment::time;

/// How often the versions page asks again while a deploy runs.
const PAGE_POLL: &str = "every 2s";

/// Where the versions page's region asks again.
fn page_url(repo: &RepoId) -> String {
    format!("/repos/{repo}/deploys/under-way")
}

/// The confirm dialog's place for its deploy's steps: hidden until the form is sent, then
/// filled from `data-progress-url` by `console.js` until the answer comes. It shows the
/// deploys to `environment` started since the dialog opened (`opened`), not those that
/// ended before.
pub fn dialog_progress(
    repo: &RepoId,
    environment: &EnvironmentName,
    opened: &DateTime<Utc>,
) -> Markup {
    progress_box(format!(
        "{}?env={environment}&since={}",
        page_url(repo),
        since(opened)
    ))
}

/// The release confirm dialog's place for its members' steps, as [`dialog_progress`]: the
/// deploys to `environment` of the repositories `members` started since `opened`.
pub fn release_dialog_progress(
    members: &[&RepoId],
    environment: &EnvironmentName,
    opened: &DateTime<Utc>,
) -> Markup {
    let repos: Vec<String> = members.iter().map(|id| id.to_string()).collect();
    progress_box(format!(
        "/deploys/under-way?repos={}&env={environment}&since={}",
        repos.join(","),
        since(opened)
    ))
}

/// A dialog's opening time as its progress URL says it.
fn since(opened: &DateTime<Utc>) -> String {
    opened.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn progress_box(url: String) -> Markup {
    html! {
        div.deploy-progress id="deploy-progress" role="status" aria-live="polite" hidden
            data-progress-url=(url) {}
    }
}

/// The versions page's region: the repository's deploys under way (or just ended), asked
/// again every 2 s while one of them runs; empty (and silent) when there is none.
pub fn page_region(repo: &RepoId, deploys: &[UnderWay]) -> Markup {
    let running = deploys.iter().any(|d| !d.phase.has_ended());
    html! {
        @if deploys.is_empty() {
            div id="under-way" {}
        } @else if running {
            section.panel id="under-way" aria-label="Deploys under way"
                hx-get=(page_url(repo)) hx-trigger=(PAGE_POLL) hx-swap="outerHTML" {
                (runs(deploys))
            }
        } @else {
            section.panel id="under-way" aria-label="Deploys under way" {
                (runs(deploys))
                p.muted { a href={ "/repos/" (repo) "/versions" } { "Reload the page" } " to see the versions as they are now." }
            }
        }
    }
}

/// Each deploy with its steps, oldest first; a line saying so when there is none.
pub fn runs(deploys: &[UnderWay]) -> Markup {
    html! {
        @if deploys.is_empty() {
            p.muted data-under-way="none" { "No deploy of it is under way in this console yet." }
        }
        @for deploy in deploys {
            div.deploy-run data-deploy-id=(deploy.deploy_id.as_str()) data-env=(deploy.environment)
                data-target=(deploy.target.get()) data-phase=(phase_key(&deploy.phase)) {
                p {
                    strong { "Deploy of " (deploy.target.label()) " to " (deploy.environment) }
                    " by " bdi { (deploy.operator.as_str()) } ", started " (time(&deploy.started_at))
                }
                (steps(deploy))
                @if !deploy.phase.has_ended() {
                    p.muted { "It goes on if this page is closed; its outcome is kept in the history." }
                }
            }
        }
    }
}

fn steps(deploy: &UnderWay) -> Markup {
    let reached = deploy.phase.rank();
    let state = |rank: u8| match rank.cmp(&reached) {
        std::cmp::Ordering::Less => "done",
        std::cmp::Ordering::Equal => "current",
        std::cmp::Ordering::Greater => "todo",
    };
    let progress = match &deploy.phase {
        DeployPhase::Publishing(Some(progress)) => Some(progress),
        _ => None,
    };
    html! {
        ol.deploy-steps {
            li data-step="checking" data-state=(state(0)) { "Check the policy, the checks and the versions again" }
            li data-step="publishing" data-state=(state(1)) {
                "Publish " (deploy.target.label()) " in Pulp"
                @if let Some(progress) = progress { ": " (progress_text(progress)) }
            }
            li data-step="moving" data-state=(state(2)) {
                "Point the " (deploy.environment) " distribution at the publication"
            }
            li data-step="ended" data-state=(if deploy.phase.has_ended() { "done" } else { "todo" }) {
                (ending(deploy))
            }
        }
    }
}

fn progress_text(progress: &StepProgress) -> String {
    let message = if progress.message.is_empty() {
        "working"
    } else {
        progress.message.as_str()
    };
    match (progress.total, progress.percent()) {
        (Some(total), Some(percent)) => {
            format!("{message}, {} of {total} ({percent}%)", progress.done)
        }
        _ => format!("{message}, {} done", progress.done),
    }
}

fn ending(deploy: &UnderWay) -> Markup {
    match &deploy.phase {
        DeployPhase::Deployed => html! {
            span data-outcome="deployed" { "Deployed: " (deploy.environment) " serves " (deploy.target.label()) "." }
        },
        DeployPhase::Ended {
            production_changed,
            summary,
        } => html! {
            span data-outcome="ended" data-production-changed=(changed_key(*production_changed)) {
                "Ended without deploying: " (summary) " " (changed_words(*production_changed, &deploy.environment))
            }
        },
        _ => html! { "The outcome" },
    }
}

fn changed_words(changed: ProductionChanged, environment: &EnvironmentName) -> String {
    match changed {
        ProductionChanged::No => format!("{environment} did not change."),
        ProductionChanged::Yes => format!("{environment} changed."),
        ProductionChanged::Unknown => format!(
            "Whether {environment} changed is unknown: check its distribution in Pulp, and the history."
        ),
    }
}

fn changed_key(changed: ProductionChanged) -> &'static str {
    match changed {
        ProductionChanged::No => "no",
        ProductionChanged::Yes => "yes",
        ProductionChanged::Unknown => "unknown",
    }
}

/// The `data-phase` of a deploy: what tests and scripts read.
fn phase_key(phase: &DeployPhase) -> &'static str {
    match phase {
        DeployPhase::Checking => "checking",
        DeployPhase::Publishing(_) => "publishing",
        DeployPhase::Moving => "moving",
        DeployPhase::Deployed => "deployed",
        DeployPhase::Ended { .. } => "ended",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::deploy::DeployId;
    use crate::domain::identity::Operator;
    use crate::domain::repository::VersionNumber;
    use chrono::DateTime;

    fn deploy(phase: DeployPhase) -> UnderWay {
        UnderWay {
            deploy_id: DeployId::new("d-1"),
            repo: RepoId::parse("0188a0a0-0000-7000-8000-000000000001").expect("a uuid"),
            environment: EnvironmentName::production(),
            target: VersionNumber::new(3),
            operator: Operator::new("<b>alice</b>").expect("a name"),
            started_at: DateTime::UNIX_EPOCH,
            phase,
            ended_at: None,
        }
    }

    fn step_states(html: &str) -> Vec<(String, String)> {
        let document = scraper::Html::parse_fragment(html);
        let li = scraper::Selector::parse("li[data-step]").unwrap();
        document
            .select(&li)
            .map(|li| {
                let attr = |name| li.value().attr(name).unwrap_or_default().to_owned();
                (attr("data-step"), attr("data-state"))
            })
            .collect()
    }

    #[test]
    fn the_steps_before_the_phase_are_done() {
        let publishing = DeployPhase::Publishing(Some(StepProgress {
            message: "Generating metadata".into(),
            done: 1,
            total: Some(4),
        }));
        let html = runs(&[deploy(publishing)]).into_string();
        let states = step_states(&html);
        let expected = [
            ("checking", "done"),
            ("publishing", "current"),
            ("moving", "todo"),
            ("ended", "todo"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect();
        assert_eq!(states, expected);
        assert!(html.contains("Generating metadata, 1 of 4 (25%)"));
        assert!(
            html.contains("&lt;b&gt;alice"),
            "the name is escaped: {html}"
        );
        assert!(html.contains("goes on if this page is closed"));
    }

    #[test]
    fn an_ended_deploy_says_whether_its_environment_changed() {
        let ended = DeployPhase::Ended {
            production_changed: ProductionChanged::Unknown,
            summary: "the update may still land".into(),
        };
        let html = runs(&[deploy(ended)]).into_string();
        assert!(html.contains(r#"data-production-changed="unknown""#));
        assert!(html.contains("check its distribution in Pulp"));
        assert!(!html.contains("goes on if this page is closed"));
        let states = step_states(&html);
        assert!(
            states.iter().all(|(_, state)| state == "done"),
            "{states:?}"
        );
    }

    #[test]
    fn the_page_polls_only_while_a_deploy_runs() {
        let repo = RepoId::parse("0188a0a0-0000-7000-8000-000000000001").expect("a uuid");
        let running = page_region(&repo, &[deploy(DeployPhase::Moving)]).into_string();
        assert!(running.contains("hx-trigger=\"every 2s\""));
        let ended = page_region(&repo, &[deploy(DeployPhase::Deployed)]).into_string();
        assert!(!ended.contains("hx-trigger"));
        let none = page_region(&repo, &[]).into_string();
        assert_eq!(none, r#"<div id="under-way"></div>"#);
    }
}
