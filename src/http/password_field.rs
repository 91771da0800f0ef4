//! The `password` form field of `POST /api/convert`: the open password of a protected DOCX.
//! It is held as a secret from the moment it is read (no `Debug` of it, wiped when
//! dropped), is never logged or echoed, and is refused with 400 `invalid_option` only
//! for its shape, never quoting it.

use docx2pdf_render::docx::Password;

use super::ApiError;

/// Word takes passwords of at most 255 characters.
const MAX_CHARS: usize = 255;

/// The field's bytes as sent.
#[derive(Default)]
pub struct PasswordField(Vec<u8>);

impl PasswordField {
    /// The field holding `bytes`.
    pub fn new(bytes: Vec<u8>) -> PasswordField {
        PasswordField(bytes)
    }
}

impl std::fmt::Debug for PasswordField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordField(<redacted>)")
    }
}

impl Drop for PasswordField {
    fn drop(&mut self) {
        for b in &mut self.0 {
            // SAFETY: a plain write to a byte we own; volatile so it is not optimised away.
            unsafe { std::ptr::write_volatile(b, 0) };
        }
    }
}

/// The password to open the document with: `None` when the field was not sent or is
/// empty (forms often send every field). Spaces are part of a password: nothing is
/// trimmed.
pub fn parse(field: Option<&PasswordField>) -> Result<Option<Password>, ApiError> {
    let Some(PasswordField(bytes)) = field else { return Ok(None) };
    if bytes.is_empty() {
        return Ok(None);
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ApiError::InvalidOption("the form field \"password\" is not UTF-8 text".into()))?;
    let password = Password::new(text);
    if password.chars() > MAX_CHARS {
        return Err(ApiError::InvalidOption(format!(
            "the form field \"password\" is longer than {MAX_CHARS} characters, the most Word takes"
        )));
    }
    Ok(Some(password))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_taken_as_sent_and_refused_only_for_its_shape() {
        assert_eq!(parse(None).unwrap(), None);
        assert_eq!(parse(Some(&PasswordField::new(Vec::new()))).unwrap(), None);
        assert_eq!(parse(Some(&PasswordField::new(b" s3cret ".to_vec()))).unwrap(), Some(Password::new(" s3cret ")));
        for bad in [vec![0xFF, b's', b'3'], "s3cret".repeat(50).into_bytes()] {
            let e = parse(Some(&PasswordField::new(bad))).unwrap_err();
            assert_eq!(e.code(), "invalid_option");
            assert!(e.to_string().contains("\"password\"") && !e.to_string().contains("s3"), "{e}");
        }
        assert_eq!(format!("{:?}", PasswordField::new(b"s3cret".to_vec())), "PasswordField(<redacted>)");
    }
}
