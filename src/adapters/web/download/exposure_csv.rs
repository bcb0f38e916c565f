//! An exposure answer as CSV (RFC 4180: quoted where needed, CRLF):
//! `repository,environment,version,state,packages`, a row per repository and environment;
//! `version` is the number served (blank: none or unknown), `packages` the newest builds
//! judged as `name-[epoch:]version-release.arch`, joined with a space; every cell
//! [`neutralised`].

use csv::{Terminator, WriterBuilder};

use crate::app::exposure::ExposureAnswer;
use crate::domain::exposure::ExposureState;
use crate::domain::repository::VersionNumber;

use super::csv_cell::neutralised;

/// The header row.
pub const HEADER: [&str; 5] = ["repository", "environment", "version", "state", "packages"];

/// The whole document (`affected_only`: the affected rows alone).
pub fn exposure_csv(answer: &ExposureAnswer, affected_only: bool) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut csv = WriterBuilder::new()
            .terminator(Terminator::CRLF)
            .from_writer(&mut out);
        // Writing into a Vec cannot fail.
        let _ = csv.write_record(HEADER);
        for row in answer
            .rows
            .iter()
            .filter(|r| !affected_only || r.state == ExposureState::Affected)
        {
            let version = row
                .version
                .map(VersionNumber::get)
                .map_or_else(String::new, |n| n.to_string());
            let packages = row
                .packages
                .iter()
                .map(|p| format!("{}-{}.{}", p.name, p.evr, p.arch))
                .collect::<Vec<_>>()
                .join(" ");
            let cells = [
                row.repository.as_str(),
                row.environment.as_str(),
                &version,
                row.state.as_str(),
                &packages,
            ];
            let _ = csv.write_record(cells.map(neutralised).iter().map(|c| c.as_bytes()));
        }
        let _ = csv.flush();
    }
    out
}
