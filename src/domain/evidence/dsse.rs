//! The DSSE envelope (Dead Simple Signing Envelope, v1): a payload, its type, and signatures
//! over its pre-authentication encoding ([`pae`]), never over the payload alone.

use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use base64::Engine;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The payload type of an in-toto statement.
pub const IN_TOTO_PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";

/// An envelope as it is served and stored: JSON with `payload` and each `sig` in base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    #[serde(with = "base64_bytes")]
    pub payload: Vec<u8>,
    #[serde(rename = "payloadType")]
    pub payload_type: String,
    pub signatures: Vec<Signature>,
}

/// One signature: the key's id (`[evidence] key_id`) and the signature's bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signature {
    pub keyid: String,
    #[serde(with = "base64_bytes")]
    pub sig: Vec<u8>,
}

impl Envelope {
    /// The bytes each signature covers.
    pub fn signed_bytes(&self) -> Vec<u8> {
        pae(&self.payload_type, &self.payload)
    }
}

/// DSSE's pre-authentication encoding:
/// `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, lengths in ASCII decimal.
pub fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "DSSEv1 {} {} {} ",
        payload_type.len(),
        payload_type,
        payload.len()
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

/// Base64 as DSSE writes it (standard alphabet, padded); read in either alphabet.
mod base64_bytes {
    use super::*;

    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        STANDARD
            .decode(&text)
            .or_else(|_| URL_SAFE.decode(&text))
            .map_err(|_| serde::de::Error::custom("not base64"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pre_authentication_encoding_is_the_specs() {
        // The DSSE specification's test vector.
        assert_eq!(
            pae("http://example.com/HelloWorld", b"hello world"),
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world".to_vec()
        );
    }

    #[test]
    fn an_envelope_reads_back_as_written() {
        let envelope = Envelope {
            payload: b"{\"a\":1}".to_vec(),
            payload_type: IN_TOTO_PAYLOAD_TYPE.into(),
            signatures: vec![Signature {
                keyid: "console-2026".into(),
                sig: vec![0xfb, 0xff, 0x00],
            }],
        };
        let json = serde_json::to_string(&envelope).unwrap();
        assert!(json.contains("\"payload\":\"eyJhIjoxfQ==\""), "{json}");
        assert!(json.contains("\"payloadType\":\"application/vnd.in-toto+json\""));
        assert_eq!(serde_json::from_str::<Envelope>(&json).unwrap(), envelope);
    }
}
