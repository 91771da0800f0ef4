//! The passwords of an encrypted PDF, prepared as the standard security handler of
//! revision 6 takes them (ISO 32000-2 §7.6.4.3.3): SASLprep, UTF-8, at most 127 bytes.

/// The most bytes of a password that count (ISO 32000-2 §7.6.4.3.3, step a).
const MAX_BYTES: usize = 127;

/// The passwords a PDF is encrypted with, and what opening it without the owner password
/// allows. Never shown: its `Debug` says only which passwords are set.
#[derive(Clone, PartialEq, Eq)]
pub struct Passwords {
    /// Opens the document; empty when anyone may open it.
    pub(super) user: Vec<u8>,
    /// Opens it with every permission.
    pub(super) owner: Vec<u8>,
    /// Whether an owner password of its own was given, and with it restrictions for
    /// everyone else (see `handler::permissions`).
    pub(super) restricted: bool,
}

/// Why a password cannot be used; names neither the password nor a character of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("holds a character SASLprep (RFC 4013) prohibits or maps to nothing, such as a control character, or mixes left-to-right and right-to-left text")]
pub struct PasswordError {
    /// Whether it is the owner password (else the user password).
    pub owner: bool,
}

impl Passwords {
    /// The passwords given, an empty one counting as not given; `None` when neither is.
    /// With a user password alone, it is the owner password too (a PDF whose owner
    /// password is empty opens with every permission for anyone, ISO 32000-2 §7.6.4.4.1)
    /// and nothing is restricted; with an owner password, changes are restricted for those
    /// who open the document without it.
    pub fn new(user: Option<&str>, owner: Option<&str>) -> Result<Option<Passwords>, PasswordError> {
        let (user, owner) = (user.filter(|p| !p.is_empty()), owner.filter(|p| !p.is_empty()));
        if user.is_none() && owner.is_none() {
            return Ok(None);
        }
        let user = user.map(|p| prepare(p, false)).transpose()?.unwrap_or_default();
        let restricted = owner.is_some();
        let owner = match owner {
            Some(p) => prepare(p, true)?,
            None => user.clone(),
        };
        Ok(Some(Passwords { user, owner, restricted }))
    }

    /// Whether opening the document needs a password.
    pub fn opens_with_password(&self) -> bool {
        !self.user.is_empty()
    }
}

impl std::fmt::Debug for Passwords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Passwords")
            .field("user", &if self.user.is_empty() { "none" } else { "set" })
            .field("owner", &if self.restricted { "set" } else { "the user password" })
            .finish()
    }
}

/// SASLprep (RFC 4013, as ISO 32000-2 §7.6.4.3.3 asks), as UTF-8 cut to 127 bytes.
fn prepare(password: &str, owner: bool) -> Result<Vec<u8>, PasswordError> {
    let prepared = stringprep::saslprep(password).map_err(|_| PasswordError { owner })?;
    if prepared.is_empty() {
        return Err(PasswordError { owner });
    }
    let mut bytes = prepared.as_bytes().to_vec();
    bytes.truncate(MAX_BYTES);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_passwords_are_not_given() {
        assert_eq!(Passwords::new(None, None), Ok(None));
        assert_eq!(Passwords::new(Some(""), Some("")), Ok(None));
    }

    #[test]
    fn a_user_password_alone_is_the_owner_password_too_and_restricts_nothing() {
        let p = Passwords::new(Some("open sesame"), None).unwrap().unwrap();
        assert_eq!((p.user.as_slice(), p.owner.as_slice(), p.restricted), (&b"open sesame"[..], &b"open sesame"[..], false));
        assert!(p.opens_with_password());
        let p = Passwords::new(None, Some("boss")).unwrap().unwrap();
        assert_eq!((p.user.as_slice(), p.owner.as_slice(), p.restricted), (&b""[..], &b"boss"[..], true));
        assert!(!p.opens_with_password());
    }

    #[test]
    fn passwords_are_saslprepped_and_cut_to_127_bytes() {
        // U+00A0 (no-break space) maps to a space; U+00AD (soft hyphen) to nothing.
        let p = Passwords::new(Some("a\u{a0}b\u{ad}c"), None).unwrap().unwrap();
        assert_eq!(p.user, b"a bc");
        let long = "é".repeat(100);
        assert_eq!(Passwords::new(Some(&long), None).unwrap().unwrap().user.len(), 127);
        assert_eq!(Passwords::new(Some("bell\u{7}"), None), Err(PasswordError { owner: false }));
        assert_eq!(Passwords::new(Some("ok"), Some("\u{ad}")), Err(PasswordError { owner: true }));
        // What a form field that is not UTF-8 becomes: refused, not silently another password.
        assert_eq!(Passwords::new(Some("caf\u{fffd}"), None), Err(PasswordError { owner: false }));
    }

    #[test]
    fn debug_output_never_shows_a_password() {
        let p = Passwords::new(Some("hunter2"), Some("swordfish")).unwrap().unwrap();
        let shown = format!("{p:?}");
        assert!(!shown.contains("hunter2") && !shown.contains("swordfish"), "{shown}");
        assert!(!PasswordError { owner: true }.to_string().contains("swordfish"));
    }
}
