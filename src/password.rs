//! Account holders' passwords: Argon2id with the crate's defaults (19 MiB, 2 passes, one
//! lane: OWASP's recommendation), stored as a PHC string with a random salt.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Fewest characters a password may have.
pub const MIN_CHARS: usize = 10;

/// Most bytes a password may have: hashing is bounded, so a huge one costs no more.
pub const MAX_BYTES: usize = 1024;

/// Why a password could not be hashed.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("the system random source failed: {0}")]
    Random(String),
    #[error("the password could not be hashed: {0}")]
    Hash(String),
}

/// What is wrong with a chosen password, for the form to say beside the field.
pub fn problem(password: &str) -> Option<String> {
    if password.chars().count() < MIN_CHARS {
        Some(format!("Choose a password of at least {MIN_CHARS} characters."))
    } else if password.len() > MAX_BYTES {
        Some(format!("Choose a password of at most {MAX_BYTES} bytes."))
    } else {
        None
    }
}

/// The PHC string of `password` with a fresh 128-bit salt.
pub fn hash(password: &str) -> Result<String, PasswordError> {
    let mut raw = [0u8; 16];
    getrandom::fill(&mut raw).map_err(|e| PasswordError::Random(e.to_string()))?;
    let salt = SaltString::encode_b64(&raw).map_err(|e| PasswordError::Hash(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Whether `password` matches the PHC string `stored`. With no stored hash (an unknown
/// name, an account without a password) a fixed hash is checked instead and `false`
/// returned, so every answer costs one Argon2 computation and none is quicker.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    let password = if password.len() > MAX_BYTES { &password[..0] } else { password };
    let (phc, real) = match stored {
        Some(phc) => (phc, true),
        None => (decoy(), false),
    };
    let Ok(parsed) = PasswordHash::new(phc) else { return false };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok() && real
}

/// A hash of a random password, made once per process, with the same parameters as real
/// ones. It holds nothing: only its cost matters.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let mut raw = [0u8; 24];
        let _ = getrandom::fill(&mut raw);
        let text: String = raw.iter().map(|b| format!("{b:02x}")).collect();
        hash(&text).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hashed_password_verifies_and_another_does_not() {
        let h = hash("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse battery", Some(&h)));
        assert!(!verify("correct horse battery!", Some(&h)));
        assert!(!verify("correct horse battery", None));
    }

    #[test]
    fn the_same_password_gets_a_different_salt_each_time() {
        assert_ne!(hash("correct horse battery").unwrap(), hash("correct horse battery").unwrap());
    }

    #[test]
    fn short_and_huge_passwords_are_refused_with_a_reason() {
        assert!(problem("short").unwrap().contains("at least 10"));
        assert!(problem(&"x".repeat(2000)).unwrap().contains("at most"));
        assert_eq!(problem("long enough password"), None);
    }
}
