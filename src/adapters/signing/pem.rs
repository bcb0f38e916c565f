//! PEM (RFC 7468): the base64 body between `-----BEGIN <label>-----` and its end line.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// The DER bytes of the first `label` block of `text`.
pub fn decode(text: &str, label: &str) -> Result<Vec<u8>, String> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let start = text
        .find(&begin)
        .ok_or_else(|| format!("no '{begin}' block"))?;
    let body = &text[start + begin.len()..];
    let stop = body.find(&end).ok_or_else(|| format!("no '{end}' line"))?;
    let base64: String = body[..stop].split_whitespace().collect();
    STANDARD
        .decode(base64)
        .map_err(|e| format!("the {label} block is not base64: {e}"))
}

/// `der` as a `label` block, 64 characters a line.
pub fn encode(der: &[u8], label: &str) -> String {
    let base64 = STANDARD.encode(der);
    let mut text = format!("-----BEGIN {label}-----\n");
    for line in base64.as_bytes().chunks(64) {
        text.push_str(std::str::from_utf8(line).unwrap_or_default());
        text.push('\n');
    }
    text.push_str(&format!("-----END {label}-----\n"));
    text
}
