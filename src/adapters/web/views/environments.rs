//! The environments on the versions page: each with the version it serves, in path order,
//! drift per environment, how far one is ahead of the next, and the natural next step,
//! promoting what an environment serves to the next one, in one click.

use maud::{html, Markup};

use crate::app::pages::versions::{PageEnvironment, VersionsPage};
use crate::domain::environment::ahead_by;
use crate::domain::repository::VersionNumber;

use super::version_anchor::version_anchor;

/// The strip of environments, first to last.
pub fn environment_strip(data: &VersionsPage) -> Markup {
    let environments = &data.environments;
    html! {
        section.environments aria-label="Environments" {
            ol.env-path {
                @for (i, env) in environments.iter().enumerate() {
                    li.env-card data-env=(env.name)
                        data-env-version=(env.serving.map(|n| n.get().to_string()).unwrap_or_default()) {
                        span.env-name { (env.name) }
                        (serving(data, env))
                        @if env.drift.is_some() {
                            " " span.badge.warn data-env-drift title={ (env.name) " was changed outside the console" } { "changed outside" }
                        }
                        @if let Some(until) = &env.soak_until {
                            " " span.badge data-soak-until=(until) title={ "What the environment before serves may come here once it has soaked, at " (until) } { "soaks until " (until) }
                        }
                        " " a.env-history href={ "/repos/" (data.uuid) "/history?env=" (env.name) } { "history" }
                        @if let Some(next) = environments.get(i + 1) { (step_to(data, env, next)) }
                    }
                }
            }
        }
    }
}

fn serving(data: &VersionsPage, env: &PageEnvironment) -> Markup {
    let on_screen = |n: VersionNumber| data.versions.iter().any(|v| v.number == Some(n));
    html! {
        @match env.serving {
            Some(n) if on_screen(n) => { " " a.env-version href={ "#" (version_anchor(n)) } { (n.label()) } }
            Some(n) => { " " a.env-version href={ "/repos/" (data.uuid) "/versions?at=" (n.get()) } { (n.label()) } }
            None if env.no_distribution => { " " span.muted data-no-distribution { "no distribution" } }
            None => { " " span.muted { "nothing" } }
        }
    }
}

/// Between `env` and the next one: how far `env` is ahead, and the promotion of what it
/// serves when the next one serves something else and can take it.
fn step_to(data: &VersionsPage, env: &PageEnvironment, next: &PageEnvironment) -> Markup {
    let ahead = ahead_by(env.serving, next.serving);
    let promote = env
        .serving
        .filter(|n| next.serving != Some(*n) && !next.no_distribution);
    html! {
        @if let Some(lead) = ahead {
            " " span.env-ahead data-ahead=(lead) {
                (env.name) " is " (lead) " version" @if lead != 1 { "s" } " ahead of " (next.name)
            }
        }
        @if let Some(n) = promote {
            @if let Some(blocked) = data.blocked(&next.name) {
                " " button.primary.promote type="button" data-promote-env=(next.name) data-promote-version=(n.get())
                    data-denied=(blocked.kind()) disabled title=(blocked.reason()) { "Promote " (n.label()) " to " (next.name) }
            } @else {
                " " button.primary.promote type="button" data-promote-env=(next.name) data-promote-version=(n.get())
                    hx-get={ "/repos/" (data.uuid) "/deploy/confirm?version=" (n.get()) "&env=" (next.name) }
                    hx-target="#modal-host" hx-swap="innerHTML" { "Promote " (n.label()) " to " (next.name) }
            }
        }
    }
}

/// What to do when an environment's distribution is missing (the dashboard and the
/// versions page say it in the same words).
pub(crate) const MISSING_DISTRIBUTION_FIX: &str = "Create the distribution in Pulp (pulp rpm \
    distribution create --name <name> --base-path <path>) under the name the configuration \
    gives it ([production] or [environments.<name>]), or name an existing one there.";
