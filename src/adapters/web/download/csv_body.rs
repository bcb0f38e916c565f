//! The comparison's package changes as CSV (RFC 4180: quoted where needed, CRLF), written a
//! piece at a time: `kind,name,arch,old,new,security`, a row per change, the EVRs of a side
//! joined with a space, every cell [`neutralised`]. Advisories are in the JSON download only.

use std::io;

use csv::{Terminator, Writer, WriterBuilder};

use crate::domain::diff::{Evr, PackageChange, VersionDiff};

use super::chunks::DocumentWriter;
use super::csv_cell::neutralised;

/// The header row.
pub const HEADER: [&str; 6] = ["kind", "name", "arch", "old", "new", "security"];

/// Writes the CSV document.
pub struct CsvDocument;

fn writer(out: &mut Vec<u8>) -> Writer<&mut Vec<u8>> {
    WriterBuilder::new()
        .terminator(Terminator::CRLF)
        .from_writer(out)
}

impl DocumentWriter for CsvDocument {
    fn head(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        let mut csv = writer(out);
        csv.write_record(HEADER)?;
        csv.flush()
    }

    fn changes(
        &mut self,
        out: &mut Vec<u8>,
        changes: &[&PackageChange],
        _: bool,
    ) -> io::Result<()> {
        let evrs = |list: &[Evr]| {
            list.iter()
                .map(Evr::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut csv = writer(out);
        for c in changes {
            let security = if c.security { "true" } else { "false" };
            let (old, new) = (evrs(&c.old), evrs(&c.new));
            let cells = [c.kind.as_str(), &c.name, &c.arch, &old, &new, security];
            csv.write_record(cells.map(neutralised).iter().map(|c| c.as_bytes()))?;
        }
        csv.flush()
    }

    fn tail(&mut self, _: &mut Vec<u8>, _: &VersionDiff) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::ChangeKind;

    #[test]
    fn a_row_per_change_quoted_where_needed() {
        let change = PackageChange {
            name: "odd,\"name\"".into(),
            arch: "noarch".into(),
            kind: ChangeKind::Upgraded,
            old: vec![Evr::new(0, "1", "1")],
            new: vec![Evr::new(2, "3", "1"), Evr::new(0, "4", "1")],
            security: true,
            kept: None,
        };
        let mut out = Vec::new();
        CsvDocument.head(&mut out).unwrap();
        CsvDocument.changes(&mut out, &[&change], true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "kind,name,arch,old,new,security\r\n\
             upgraded,\"odd,\"\"name\"\"\",noarch,1-1,2:3-1 4-1,true\r\n"
        );
    }

    #[test]
    fn a_name_that_starts_like_a_formula_is_neutralised() {
        let change = PackageChange {
            name: "@SUM(A1)".into(),
            arch: "=1+1".into(),
            kind: ChangeKind::Added,
            old: vec![],
            new: vec![Evr::new(0, "1", "1")],
            security: false,
            kept: None,
        };
        let mut out = Vec::new();
        CsvDocument.changes(&mut out, &[&change], true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "added,'@SUM(A1),'=1+1,,1-1,false\r\n"
        );
    }
}
