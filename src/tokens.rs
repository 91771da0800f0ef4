//! Random tokens of the account pages (sign-in links, sessions, form nonces): 256 bits from
//! the operating system, written as 64 hex characters, stored only as their SHA-256.

use crate::keys::{hash, RandomError};

/// Hex characters of a token (32 random bytes).
pub const TOKEN_CHARS: usize = 64;

/// A new random token.
pub fn generate() -> Result<String, RandomError> {
    let mut raw = [0u8; 32];
    getrandom::fill(&mut raw).map_err(|e| RandomError::new(e.to_string()))?;
    Ok(raw.iter().map(|b| format!("{b:02x}")).collect())
}

/// The stored form of a token: its hex SHA-256, as for API keys.
pub fn digest(token: &str) -> String {
    hash(token)
}

/// Whether `text` has the shape of a token, so malformed ones never reach the database.
pub fn looks_like_token(text: &str) -> bool {
    text.len() == TOKEN_CHARS && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Compares two strings in time that depends on their lengths only.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_characters_and_differ() {
        let (a, b) = (generate().unwrap(), generate().unwrap());
        assert!(looks_like_token(&a) && looks_like_token(&b));
        assert_ne!(a, b);
        assert_eq!(digest(&a).len(), 64);
        assert_ne!(digest(&a), a);
    }

    #[test]
    fn malformed_tokens_are_refused() {
        assert!(!looks_like_token("abc"));
        assert!(!looks_like_token(&"G".repeat(64)));
        assert!(!looks_like_token(&"A".repeat(64)), "upper case is not what we issue");
    }

    #[test]
    fn same_compares_whole_strings() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "abcd"));
    }
}
