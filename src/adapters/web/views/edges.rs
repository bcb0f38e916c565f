//! The edges page (`/edges`): a row per edge Pulp, a cell per distribution it copies
//! (`data-edge`, `data-distribution`, `data-edge-state`: serving, behind, replicating, other,
//! failed, unreachable or missing; empty while not judged yet), with its lag since
//! production moved, the edge's last replication (its task and error), and a "replicate
//! again" button (through the policy). Also the line "production: moved; edges: 1 of 2
//! serve it" of the deploy's answer and the versions page ([`edge_line`]).

use maud::{html, Markup};

use crate::app::edges::view::{EdgeCell, EdgeLine, EdgeRow};

use super::layout::{back_link, notice, page};
use super::moment::time;

/// The page; `none`: the console follows no edge.
pub fn edges_page(rows: &[EdgeRow]) -> Markup {
    page(
        "Edges",
        html! {
            div.title-row { (back_link()) h1 { "Edges" } }
            @if rows.is_empty() {
                (notice("info", Some("edges-none"), html! {
                    "The console follows no edge Pulp: add [[edges]] to its configuration (see the book's Edges page)."
                }))
            }
            @for row in rows {
                section.panel aria-label={ "Edge " (row.name) } data-edge-row=(row.name) {
                    h2 { (row.name) }
                    p {
                        "Copies " (row.environments.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", ")) ". "
                        (last_replication(row))
                    }
                    div.table-wrap { table.edges {
                        thead { tr {
                            th scope="col" { "Distribution" } th scope="col" { "State" }
                            th scope="col" { "Lag" } th scope="col" { "Judged" }
                        } }
                        tbody {
                            @for cell in &row.cells { (cell_row(row, cell)) }
                        }
                    } }
                    form.inline method="post" action={ "/edges/" (row.name) "/replicate" } {
                        button.ghost type="submit" aria-label={ "Replicate " (row.name) " again" } { "Replicate again" }
                    }
                }
            }
        },
    )
}

fn last_replication(row: &EdgeRow) -> Markup {
    html! {
        @match &row.last {
            None => { "No replication started by this console yet." }
            Some(last) => {
                "Last replication: " code data-edge-task=(last.task.as_str()) { (last.task.as_str()) }
                ", started " (time(&last.started_at)) ", "
                @match &last.end {
                    crate::domain::edge::ReplicationEnd::Running => { "running." }
                    crate::domain::edge::ReplicationEnd::Completed => { "completed." }
                    crate::domain::edge::ReplicationEnd::Failed(error) => { "failed: " span data-edge-error { (error) } }
                }
            }
        }
        @if row.following { " Followed now." }
        @if let Some(at) = &row.next_retry { " Tried again at " span data-edge-next-retry { (time(at)) } "." }
    }
}

fn cell_row(row: &EdgeRow, cell: &EdgeCell) -> Markup {
    let state = cell.state.as_ref().map(|s| s.kind().as_str()).unwrap_or("");
    html! {
        tr data-edge=(row.name) data-distribution=(cell.distribution) data-edge-state=(state) {
            td { bdi { (cell.distribution) } }
            td {
                span.badge { @if state.is_empty() { "not judged yet" } @else { (state) } }
                @if let Some(error) = cell.state.as_ref().and_then(|s| s.error()) {
                    " " span data-edge-error { (error) }
                }
            }
            td { (cell.lag.num_seconds()) " s" }
            td { @if let Some(at) = &cell.judged_at { (time(at)) } @else { "never" } }
        }
    }
}

/// How often a line whose edges do not all serve production yet asks again.
const LINE_POLL: &str = "every 2s";

/// The URL a line asks again.
fn line_url(line: &EdgeLine) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("env", line.environment.as_str());
    query.append_pair("distribution", &line.distribution);
    format!("/edges/line?{}", query.finish())
}

/// The deploy's answer and the versions page's place for the edge lines (`#edge-lines`).
pub fn edge_lines(lines: &[EdgeLine]) -> Markup {
    html! {
        div id="edge-lines" {
            @for line in lines { (edge_line(line)) }
        }
    }
}

/// "production: moved; edges: 1 of 2 serve it" (`data-edge-line`, `data-edges-serving`,
/// `data-edges`), each edge's state beside it (`data-edge`, `data-edge-state`); asked again
/// every 2 s until every edge serves production, then still. Only an edge judged `serving`
/// is counted: one not judged yet is not.
pub fn edge_line(line: &EdgeLine) -> Markup {
    let complete = line.tally.complete();
    let id = format!("edge-line-{}-{}", line.environment, line.distribution).replace(
        |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_',
        "_",
    );
    html! {
        p.edge-line id=(id) role="status" aria-live="polite"
            data-edge-line=(line.distribution) data-env=(line.environment)
            data-edges-serving=(line.tally.serving) data-edges=(line.tally.edges)
            hx-get=[(!complete).then(|| line_url(line))]
            hx-trigger=[(!complete).then_some(LINE_POLL)]
            hx-swap=[(!complete).then_some("outerHTML")] {
            strong { (line.environment) ": " @if line.moved { "moved; " } (line.tally) }
            " ("
            @for (n, (edge, state, _)) in line.edges.iter().enumerate() {
                @if n > 0 { ", " }
                span data-edge=(edge) data-edge-state=(state.as_ref().map(|s| s.kind().as_str()).unwrap_or("")) {
                    (edge) " " (state.as_ref().map(|s| s.kind().as_str()).unwrap_or("not judged yet"))
                }
            }
            "; " a href="/edges" { "the edges" } ")"
        }
    }
}
