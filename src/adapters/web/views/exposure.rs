//! The exposure page: the question's form (a plain GET form: no script needed), then the
//! answer: each environment's counts, the advisories judged, and the matrix of repositories
//! by environment, each cell with its state, the version it serves (a link to the versions
//! page), the builds judged, older builds still served, and "fixed in vN" (a link to that
//! version's confirm step) where a newer version of the repository fixes it.

use maud::{html, Markup};

use crate::app::exposure::{ExposureAnswer, ExposureRow};
use crate::domain::diff::Package;
use crate::domain::exposure::{counts_in_words, ExposureQuery, ExposureState};

use super::super::exposure_params::{query_string, ExposureParams};
use super::layout::{back_link, notice, page};
use super::moment::time;

/// The page: the form filled with what was asked, and the answer when there is one.
pub fn exposure_page(
    params: &ExposureParams,
    answer: Option<&ExposureAnswer>,
    problem: Option<&str>,
) -> Markup {
    let affected_only = params.affected_only();
    page(
        "Exposure",
        html! {
            div.title-row { (back_link()) h1 { "Exposure" } }
            p.muted { "Where a package, an advisory or a CVE is served, in every repository and environment. "
                "Each cell judges the newest build of each package, as dnf would install it." }
            (form(params))
            @if let Some(problem) = problem {
                (notice("error", Some("exposure-error"), html! { (problem) }))
            }
            @if let Some(answer) = answer { (answered(answer, affected_only)) }
            div id="modal-host" {}
        },
    )
}

fn form(params: &ExposureParams) -> Markup {
    let value = |v: &Option<String>| v.clone().unwrap_or_default();
    html! {
        form.exposure-form method="get" action="/exposure" role="search" aria-label="Exposure question" {
            fieldset {
                legend { "Package" }
                label { "Name " input type="text" name="package" value=(value(&params.package)) placeholder="openssl" autocomplete="off"; }
                label { "Arch " input type="text" name="arch" value=(value(&params.arch)) placeholder="any" autocomplete="off"; }
                label { "Below " input type="text" name="below" value=(value(&params.below)) placeholder="[epoch:]version[-release]" autocomplete="off"; }
            }
            fieldset {
                legend { "or an advisory, or a CVE" }
                label { "Advisory " input type="text" name="advisory" value=(value(&params.advisory)) placeholder="RHSA-2026:1234" autocomplete="off"; }
                label { "CVE " input type="text" name="cve" value=(value(&params.cve)) placeholder="CVE-2026-1234" autocomplete="off"; }
            }
            label.affected-only {
                input type="checkbox" name="affected" value="1" checked[params.affected_only()];
                " Affected cells only"
            }
            " "
            button.primary type="submit" { "Ask" }
        }
    }
}

fn answered(answer: &ExposureAnswer, affected_only: bool) -> Markup {
    let query = query_string(&answer.query, false);
    let toggled = query_string(&answer.query, !affected_only);
    html! {
        section.exposure-answer aria-label="Answer" {
            h2 { (question_words(&answer.query)) }
            (advisories(answer))
            ul.exposure-summary {
                @for (environment, counts) in answer.summary() {
                    li data-exposure-summary=(environment) {
                        span.env-name { (environment) } ": " (counts_in_words(&counts))
                    }
                }
            }
            p.exposure-links {
                a href={ "/exposure?" (toggled) } data-exposure-filter=(if affected_only { "all" } else { "affected" }) {
                    @if affected_only { "Show every cell" } @else { "Show affected cells only" }
                }
                " \u{b7} " a href={ "/exposure.csv?" (query) } download { "CSV" }
                " \u{b7} " a href={ "/api/v1/exposure?" (query) } { "JSON" }
            }
            (matrix(answer, affected_only))
        }
    }
}

/// The question in words, as the answer's heading.
fn question_words(query: &ExposureQuery) -> String {
    match query {
        ExposureQuery::Package { name, arch, below } => {
            let mut words = format!("Package {name}");
            if let Some(arch) = arch {
                words.push_str(&format!(" ({arch})"));
            }
            if let Some(below) = below {
                words.push_str(&format!(", affected below {below}"));
            }
            words
        }
        ExposureQuery::Advisory(id) => format!("Advisory {id}"),
        ExposureQuery::Cve(cve) => cve.to_string(),
    }
}

fn advisories(answer: &ExposureAnswer) -> Markup {
    html! {
        @if let ExposureQuery::Cve(cve) = &answer.query {
            @if answer.advisories.is_empty() {
                (notice("warn", Some("exposure-no-advisory"), html! {
                    "No advisory in Pulp names " (cve) " in its references: nothing is judged against it. "
                    "Every served version shows as absent."
                }))
            } @else {
                p id="exposure-advisories" { "Advisories naming " (cve) ": "
                    @for (i, id) in answer.advisories.iter().enumerate() {
                        @if i > 0 { ", " } code { (id) }
                    }
                }
            }
            @if let Some(index) = &answer.index {
                p.muted id="exposure-index" { "From the CVE index of " (index.advisories) " advisories"
                    @if let Some(at) = &index.refreshed { ", up to date as of " (time(at)) } "." }
            }
        }
    }
}

fn matrix(answer: &ExposureAnswer, affected_only: bool) -> Markup {
    let per_repo = answer.environments.len().max(1);
    let rows: Vec<&[ExposureRow]> = answer
        .rows
        .chunks(per_repo)
        .filter(|cells| !affected_only || cells.iter().any(|c| c.state == ExposureState::Affected))
        .collect();
    html! {
        @if rows.is_empty() {
            p.muted id="exposure-empty" {
                @if affected_only { "No cell is affected." } @else { "Pulp holds no repository." }
            }
        } @else {
            div.table-scroll {
                table.exposure {
                    caption.visually-hidden { "Each repository by environment" }
                    thead { tr {
                        th scope="col" { "Repository" }
                        @for environment in &answer.environments { th scope="col" { (environment) } }
                    } }
                    tbody {
                        @for cells in rows {
                            tr {
                                th scope="row" { bdi { (cells[0].repository) } }
                                @for cell in cells {
                                    @if affected_only && cell.state != ExposureState::Affected {
                                        td.muted { "\u{2014}" }
                                    } @else {
                                        (cell_markup(cell))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn cell_markup(cell: &ExposureRow) -> Markup {
    let versions = format!("/repos/{}/versions", cell.repository_uuid);
    html! {
        td class={ "exposure-cell state-" (cell.state.as_str()) }
            data-exposure-repo=(cell.repository) data-env=(cell.environment) data-state=(cell.state.as_str()) {
            strong.exposure-state { (cell.state.as_str()) }
            @if let Some(version) = cell.version {
                " " a href=(versions) title="The repository's versions" { (version.label()) }
            }
            @if !cell.packages.is_empty() {
                ul.exposure-builds { @for p in &cell.packages { li { code { (nevra(p)) } } } }
            }
            @if !cell.older_builds_served.is_empty() {
                p.muted.older-builds { "Older builds served: "
                    @for (i, p) in cell.older_builds_served.iter().enumerate() {
                        @if i > 0 { ", " } code { (nevra(p)) }
                    }
                }
            }
            @if let Some(reason) = &cell.reason { p.exposure-reason { (reason) } }
            @if let Some(fixed) = cell.fixed_in {
                p { a href=(versions) data-fixed-in=(fixed.get())
                    hx-get={ "/repos/" (cell.repository_uuid) "/deploy/confirm?version=" (fixed.get()) "&env=" (cell.environment) }
                    hx-target="#modal-host" hx-swap="innerHTML" { "fixed in " (fixed.label()) } }
            }
        }
    }
}

/// `name-[epoch:]version-release.arch`, as rpm names a build.
pub fn nevra(p: &Package) -> String {
    format!("{}-{}.{}", p.name, p.evr, p.arch)
}
