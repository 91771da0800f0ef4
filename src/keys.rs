//! API keys: `d2p_` followed by 40 random base62 characters; stored only as a SHA-256 hash,
//! shown once; the first 12 characters are the prefix used in listings and revocation.

use sha2::{Digest, Sha256};

/// Every key starts with this tag, so leaked keys are easy to recognise.
pub const KEY_TAG: &str = "d2p_";

/// Random characters after the tag (≈ 238 bits).
pub const KEY_RANDOM_CHARS: usize = 40;

/// Length of the displayed prefix.
pub const PREFIX_LEN: usize = 12;

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The operating system's random source failed.
#[derive(Debug, thiserror::Error)]
#[error("the system random source failed: {0}")]
pub struct RandomError(String);

impl RandomError {
    /// The failure, as the random source told it.
    pub fn new(why: String) -> RandomError {
        RandomError(why)
    }
}

/// A freshly generated key with what is stored of it.
#[derive(Debug, Clone)]
pub struct NewKey {
    /// The key text, shown once.
    pub text: String,
    /// Its first 12 characters.
    pub prefix: String,
    /// Hex SHA-256 of the text.
    pub hash: String,
}

/// Generates a key from the operating system's random source, without modulo bias.
pub fn generate() -> Result<NewKey, RandomError> {
    let mut text = String::with_capacity(KEY_TAG.len() + KEY_RANDOM_CHARS);
    text.push_str(KEY_TAG);
    let mut buf = [0u8; 64];
    while text.len() < KEY_TAG.len() + KEY_RANDOM_CHARS {
        getrandom::fill(&mut buf).map_err(|e| RandomError(e.to_string()))?;
        // 248 = 4 × 62: bytes above it would favour the first characters.
        for &b in buf.iter().filter(|&&b| b < 248) {
            if text.len() == KEY_TAG.len() + KEY_RANDOM_CHARS {
                break;
            }
            text.push(BASE62[(b % 62) as usize] as char);
        }
    }
    Ok(NewKey { prefix: prefix_of(&text), hash: hash(&text), text })
}

/// Hex SHA-256 of a key's text: the only form a key is stored or looked up in, so the
/// lookup never compares key text.
pub fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(char::from_digit((b >> 4) as u32, 16).unwrap_or('0'));
        out.push(char::from_digit((b & 15) as u32, 16).unwrap_or('0'));
    }
    out
}

/// The displayed prefix of a key.
pub fn prefix_of(text: &str) -> String {
    text.chars().take(PREFIX_LEN).collect()
}

/// Whether `text` has the shape of a key (cheap check before any database lookup).
pub fn looks_like_key(text: &str) -> bool {
    text.len() >= KEY_TAG.len() + 32
        && text.len() <= 256
        && text.starts_with(KEY_TAG)
        && text[KEY_TAG.len()..].bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_have_the_tag_and_base62_body() {
        let k = generate().unwrap();
        assert!(k.text.starts_with("d2p_"));
        assert_eq!(k.text.len(), 44);
        assert!(looks_like_key(&k.text));
        assert_eq!(k.prefix, k.text[..12]);
        assert_eq!(k.hash, hash(&k.text));
    }

    #[test]
    fn two_keys_differ() {
        assert_ne!(generate().unwrap().text, generate().unwrap().text);
    }

    #[test]
    fn hash_is_hex_sha256() {
        assert_eq!(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn malformed_keys_are_rejected_before_lookup() {
        assert!(!looks_like_key("d2p_short"));
        assert!(!looks_like_key("xyz_0123456789012345678901234567890123"));
        assert!(!looks_like_key("d2p_01234567890123456789012345678901-3"));
    }
}
