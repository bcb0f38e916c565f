//! A line of the check file (`checks.jsonl`): a report, a promotion claimed, or a claim given
//! back. Written by the check store and read by its index.

use serde::{Deserialize, Serialize};

use crate::domain::check::{CheckReport, PromotionKey};

/// One line of the file.
#[derive(Serialize, Deserialize)]
#[serde(tag = "line", rename_all = "snake_case")]
pub enum Line {
    Report(CheckReport),
    Claimed(PromotionKey),
    Released(PromotionKey),
}
