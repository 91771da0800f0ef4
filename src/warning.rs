//! Warnings: what the renderer skipped or substituted. A warning never fails a conversion.

use std::fmt;

/// Something the renderer could not reproduce exactly, with enough context to find it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// A short stable tag, e.g. `font_substituted`, `element_skipped`.
    pub kind: &'static str,
    /// What happened, for the log (never document text).
    pub message: String,
}

impl Warning {
    /// A warning of `kind` with `message`.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Warning {
        Warning { kind, message: message.into() }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}
