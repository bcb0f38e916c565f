//! The audit file's hash chain (see [`crate::domain::audit_chain`]): the link of the next
//! line, read from the file's end under the writers' lock, and a check of the whole file
//! from its first line.

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind};
use std::ops::ControlFlow;
use std::path::Path;

use crate::domain::audit_chain::seal::{next_after, Next, StartDigest};
use crate::domain::audit_chain::verify::{Anchor, ChainBreak, ChainSummary, Verifier};

use crate::adapters::files::audit_tail::newest_lines;

/// What the next line links to: the newest line (or the one before a torn newest line), or,
/// when the file has no chained line at its end, a start after every line it holds (the whole
/// file is read once, on the first write of a console that chains its lines).
pub fn next_link(path: &Path) -> std::io::Result<Next> {
    let newest: Vec<Vec<u8>> = newest_lines(path, 2, |line| Some(line.to_vec()))?;
    let newest: Vec<&[u8]> = newest.iter().map(Vec::as_slice).collect();
    if let Some(next) = next_after(&newest) {
        return Ok(next);
    }
    let mut digest = StartDigest::default();
    each_line(path, |line| {
        digest.add(line);
        ControlFlow::Continue(())
    })?;
    Ok(digest.start())
}

/// Reads the file from its first line and checks its chain; a missing file is an empty log.
pub fn verify_file(
    path: &Path,
    anchor: Option<Anchor>,
) -> std::io::Result<Result<ChainSummary, ChainBreak>> {
    let mut verifier = Verifier::expecting(anchor);
    let mut broken = None;
    each_line(path, |line| match verifier.feed(line) {
        Ok(()) => ControlFlow::Continue(()),
        Err(found) => {
            broken = Some(found);
            ControlFlow::Break(())
        }
    })?;
    Ok(match broken {
        Some(found) => Err(found),
        None => verifier.finish(),
    })
}

/// Calls `each` with every line of the file (without its newline; a last line without one
/// too), from the first, until it breaks. A missing file has no lines.
fn each_line(path: &Path, mut each: impl FnMut(&[u8]) -> ControlFlow<()>) -> std::io::Result<()> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error),
    };
    let mut reader = BufReader::with_capacity(256 * 1024, file);
    let mut line = Vec::with_capacity(1024);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if each(&line).is_break() {
            return Ok(());
        }
    }
}
