//! The password a protected document is opened with: a secret that never prints, and is
//! wiped from memory when dropped.

use std::fmt;

/// A document's open password. Its `Debug` shows no character of it and it has no
/// `Display`, so it cannot reach a log or an error message by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// A password of these characters.
    pub fn new(text: impl Into<String>) -> Password {
        Password(text.into())
    }

    /// The password as [MS-OFFCRYPTO] §2.3.4.7 and §2.3.4.11 hash it: UTF-16LE, no
    /// terminator.
    pub(crate) fn utf16le(&self) -> Vec<u8> {
        self.0.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    /// How many characters it has.
    pub fn chars(&self) -> usize {
        self.0.chars().count()
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

impl Drop for Password {
    fn drop(&mut self) {
        // SAFETY: zero bytes are valid UTF-8, so the string stays a string; the volatile
        // writes keep the compiler from dropping them as dead stores.
        for b in unsafe { self.0.as_bytes_mut() } {
            unsafe { std::ptr::write_volatile(b, 0) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_prints() {
        let p = Password::new("hunter2");
        assert_eq!(format!("{p:?}"), "Password(<redacted>)");
        assert_eq!(p.utf16le(), b"h\0u\0n\0t\0e\0r\x002\0");
        assert_eq!(p.chars(), 7);
    }
}
