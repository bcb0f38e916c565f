//! The pins on the versions page: each environment a rollback pinned, to which version, by
//! whom, why and since when, how many moves it held back, and (for those who may deploy
//! there) the form that unpins it with a reason. Hooks: `data-pin` (the environment),
//! `data-pin-version`, `data-pin-by`, `data-pin-since`, `data-pin-held`, `data-unpin`.

use maud::{html, Markup};

use crate::app::pages::versions::VersionsPage;
use crate::app::promotion::policy_gate::Blocked;
use crate::domain::pin::Pin;

use super::layout::notice;
use super::moment;

/// The pinned environments of the page's repository (nothing when none is).
pub fn repository_pins(data: &VersionsPage) -> Markup {
    html! {
        @if let Some(why) = &data.pins_unreadable {
            (notice("error", Some("pins-unreadable"), html! {
                strong { "The pins cannot be read. " }
                "Automatic promotions and schedules do not move this repository's environments until they can: "
                (why)
            }))
        }
        @if !data.pins.holding.is_empty() {
            section.panel id="pins" aria-label="Pinned environments" {
                h2 { "Pinned by a rollback" }
                p.muted {
                    "Automatic promotions and schedules do not move a pinned environment. "
                    "A deploy by hand lifts the pin (its confirm step says so), or unpin it with a reason."
                }
                @for (environment, pin) in &data.pins.holding {
                    (pin_row(data, pin, data.pins.held_back(environment)))
                }
            }
        }
    }
}

fn pin_row(data: &VersionsPage, pin: &Pin, held: usize) -> Markup {
    let since = pin.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let may_unpin = !matches!(data.blocked(&pin.environment), Some(Blocked::Policy(_)));
    html! {
        div.pin data-pin=(pin.environment) data-pin-version=(pin.version.get())
            data-pin-by=(pin.set_by) data-pin-since=(since) data-pin-held=(held) {
            p {
                strong { (pin.environment) " is pinned to " (pin.version.label()) }
                " by " bdi { (pin.set_by) } "'s rollback, since " (moment::time(&pin.at))
                ": " q data-pin-reason { (pin.reason) }
                @if held > 0 {
                    " \u{2014} held back " (held) " move" @if held != 1 { "s" } " since."
                }
            }
            @if may_unpin {
                form.unpin-form method="post" action={ "/repos/" (data.uuid) "/environments/" (pin.environment) "/unpin" }
                    data-unpin=(pin.environment) {
                    label for={ "unpin-reason-" (pin.environment) } { "Reason to unpin " (pin.environment) }
                    input id={ "unpin-reason-" (pin.environment) } type="text" name="reason" required maxlength="500"
                        autocomplete="off";
                    button.ghost type="submit" { "Unpin " (pin.environment) }
                }
            }
        }
    }
}

/// What the confirm step of a deploy (or a rollback) says of the pin on its environment.
pub fn confirm_notice(pin: &Pin, rollback: bool) -> Markup {
    notice(
        "warn",
        Some("pin-notice"),
        html! {
            span data-pin-notice=(if rollback { "replace" } else { "lift" }) data-pin=(pin.environment) {
                strong { (pin.environment) " is pinned to " (pin.version.label()) }
                " by " bdi { (pin.set_by) } "'s rollback since " (moment::time(&pin.at)) " (" (pin.reason) "). "
                @if rollback {
                    "This rollback replaces the pin: " (pin.environment) " stays pinned, to the version it restores."
                } @else {
                    "Confirming this deploy lifts the pin: automatic promotions and schedules move "
                    (pin.environment) " again afterwards. A deploy scheduled for later is refused while the pin holds."
                }
            }
        },
    )
}
