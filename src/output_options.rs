//! The output options of a conversion, as form fields of `POST /api/convert` and flags of
//! `docx2pdf convert`: the pages to keep (`pages`, or Gotenberg's `nativePageRanges`),
//! passwords (`userPassword`, `ownerPassword`) and document information (`metadata`).
//! Each is checked before anything is rendered or charged; a bad one names its field.

use clap::Args;
use serde_json::Value;

use crate::pdf::{check_date, keywords_text, MetadataOverride, PageRanges, Passwords, PdfOptions};
use crate::render::{RenderError, RenderErrorKind};

/// The most bytes the `metadata` value may have (the API's limit on an option field).
pub const MAX_METADATA: usize = 64 * 1024;

/// The keys `metadata` takes, in the order messages list them.
const METADATA_KEYS: &str = "Title, Author, Subject, Keywords, Creator, CreationDate, ModDate";

/// The output option fields as sent; an empty one counts as not sent.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct OutputFields {
    /// `pages`: `1-3,7,10-`.
    pub pages: Option<String>,
    /// `nativePageRanges`: the same, under Gotenberg's name.
    pub native_page_ranges: Option<String>,
    /// `userPassword`: needed to open the PDF.
    pub user_password: Option<String>,
    /// `ownerPassword`: needed to change it.
    pub owner_password: Option<String>,
    /// `metadata`: a JSON object of document information.
    pub metadata: Option<String>,
}

/// Where the options came from, so that a message names the field as the caller wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// Form fields of `POST /api/convert` (`nativePageRanges`).
    Form,
    /// Flags of `docx2pdf convert` (`--native-page-ranges`).
    Flags,
}

impl Via {
    /// How the caller wrote `field` (its form name).
    fn name(self, field: &str) -> String {
        match self {
            Via::Form => format!("the form field \"{field}\""),
            Via::Flags => {
                let mut flag = String::from("--");
                for c in field.chars() {
                    if c.is_ascii_uppercase() {
                        flag.push('-');
                    }
                    flag.push(c.to_ascii_lowercase());
                }
                flag
            }
        }
    }
}

/// A value that cannot be used, with a message naming its field (never a password).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionError(pub String);

impl OutputFields {
    /// The slot of the form field `name`, when it is one of these.
    pub fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        match name {
            "pages" => Some(&mut self.pages),
            "nativePageRanges" => Some(&mut self.native_page_ranges),
            "userPassword" => Some(&mut self.user_password),
            "ownerPassword" => Some(&mut self.owner_password),
            "metadata" => Some(&mut self.metadata),
            _ => None,
        }
    }

    /// Sets the options these fields ask for on `options` (whose PDF/A level is already
    /// set), or says which field is wrong and why.
    pub fn apply(&self, options: &mut PdfOptions, via: Via) -> Result<(), OptionError> {
        let pages = match (given(&self.pages), given(&self.native_page_ranges)) {
            (Some(_), Some(_)) => {
                return Err(OptionError(format!(
                    "{} and {} both select pages; send one of them",
                    via.name("pages"),
                    via.name("nativePageRanges")
                )))
            }
            (Some(v), None) => Some(("pages", v)),
            (None, Some(v)) => Some(("nativePageRanges", v)),
            (None, None) => None,
        };
        if let Some((field, value)) = pages {
            let ranges = PageRanges::parse(value).map_err(|e| OptionError(format!("{} cannot be read: {e}", via.name(field))))?;
            options.pages = Some(ranges);
        }

        // Only an empty password is no password: spaces are characters of one.
        let (user, owner) = (self.user_password.as_deref(), self.owner_password.as_deref());
        let password_field = |owner: bool| if owner { "ownerPassword" } else { "userPassword" };
        let passwords = Passwords::new(user, owner).map_err(|e| OptionError(format!("{} {e}", via.name(password_field(e.owner)))))?;
        if let Some(passwords) = passwords {
            if let Some(level) = options.pdfa {
                let field = password_field(user.is_none_or(str::is_empty));
                return Err(OptionError(format!(
                    "{} asks for an encrypted PDF, which {} forbids (ISO 19005-2 §6.1.3); ask for passwords or for PDF/A, not both",
                    via.name(field),
                    level.name()
                )));
            }
            options.encryption = Some(passwords);
        }

        if let Some(json) = given(&self.metadata) {
            let metadata = parse_metadata(json).map_err(|why| OptionError(format!("{} {why}", via.name("metadata"))))?;
            options.metadata = Some(metadata);
        }
        Ok(())
    }

    /// The message of a render refused for an option (a selection past the last page),
    /// naming the field the selection came in.
    pub fn render_error(&self, e: &RenderError, via: Via) -> Option<String> {
        if e.kind() != RenderErrorKind::InvalidOption {
            return None;
        }
        let field = match (&self.pages, &self.native_page_ranges) {
            (Some(p), _) if !p.trim().is_empty() => "pages",
            (_, Some(p)) if !p.trim().is_empty() => "nativePageRanges",
            _ => return Some(e.to_string()),
        };
        Some(format!("{}: {e}", via.name(field)))
    }
}

impl std::fmt::Debug for OutputFields {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secret = |p: &Option<String>| p.as_ref().map(|_| "<set>");
        f.debug_struct("OutputFields")
            .field("pages", &self.pages)
            .field("native_page_ranges", &self.native_page_ranges)
            .field("user_password", &secret(&self.user_password))
            .field("owner_password", &secret(&self.owner_password))
            .field("metadata", &self.metadata)
            .finish()
    }
}

/// Reads `metadata`: a JSON object of the keys [`METADATA_KEYS`] names, strings except
/// `Keywords` (a string of comma-separated words or an array of strings) and the dates
/// (ISO 8601). The reason comes back as the end of a sentence naming the field.
fn parse_metadata(json: &str) -> Result<MetadataOverride, String> {
    if json.len() > MAX_METADATA {
        return Err(format!("is larger than {MAX_METADATA} bytes"));
    }
    let value: Value = serde_json::from_str(json).map_err(|e| format!("is not JSON ({e})"))?;
    let Value::Object(entries) = value else {
        return Err(format!("must be a JSON object of document information, e.g. {{\"Title\": \"Q3 report\"}}, with any of {METADATA_KEYS}"));
    };
    let mut out = MetadataOverride::default();
    for (key, value) in &entries {
        let text = || -> Result<String, String> {
            let s = value.as_str().ok_or_else(|| format!("has {key:?} as {}; it must be a string", kind(value)))?;
            if s.chars().any(unwritable) {
                return Err(format!("has a control character in {key:?}"));
            }
            Ok(s.to_owned())
        };
        match key.as_str() {
            "Title" => out.title = Some(text()?),
            "Author" => out.author = Some(text()?),
            "Subject" => out.subject = Some(text()?),
            "Creator" => out.creator = Some(text()?),
            "Keywords" => {
                let keywords = match value {
                    Value::Array(items) => {
                        let words: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
                        keywords_text(words.ok_or_else(|| "has \"Keywords\" with an item that is not a string".to_owned())?)
                    }
                    _ => {
                        let joined = text()?;
                        keywords_text(joined.split(','))
                    }
                };
                if keywords.chars().any(unwritable) {
                    return Err("has a control character in \"Keywords\"".to_owned());
                }
                out.keywords = Some(keywords);
            }
            "CreationDate" | "ModDate" => {
                let date = check_date(&text()?).map_err(|e| format!("has {key:?}: {e}"))?;
                if key == "CreationDate" {
                    out.created = Some(date);
                } else {
                    out.modified = Some(date);
                }
            }
            other => {
                let shown: String = other.chars().take(40).collect();
                return Err(format!("has the key {shown:?}, which is not one of {METADATA_KEYS}"));
            }
        }
    }
    Ok(out)
}

/// A field's value, unless it was not sent or sent empty.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.trim().is_empty())
}

/// A character the Info dictionary keeps but the XMP packet cannot hold (XML 1.0 §2.2):
/// written, the two would disagree.
fn unwritable(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

/// The JSON type of a value, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The output option flags of `docx2pdf convert`.
#[derive(Clone, Default, Args)]
pub struct OutputArgs {
    /// Keep only these pages, in the document's order: `1-3,7,10-` (counted from 1; `10-`
    /// runs to the last page; pages past the end are ignored).
    #[arg(long, value_name = "RANGES")]
    pub pages: Option<String>,
    /// The same as --pages, under Gotenberg's name.
    #[arg(long, value_name = "RANGES")]
    pub native_page_ranges: Option<String>,
    /// Encrypt the PDF (AES-256) so that it opens only with this password. The environment
    /// variable keeps it out of the process list.
    #[arg(long, env = "DOCX2PDF_USER_PASSWORD", hide_env_values = true, value_name = "PASSWORD")]
    pub user_password: Option<String>,
    /// Encrypt the PDF (AES-256) with this owner password: without it, the PDF may be read,
    /// printed and copied from, not changed.
    #[arg(long, env = "DOCX2PDF_OWNER_PASSWORD", hide_env_values = true, value_name = "PASSWORD")]
    pub owner_password: Option<String>,
    /// Document information replacing the document's properties, a JSON object with any
    /// of Title, Author, Subject, Keywords, Creator, CreationDate and ModDate (ISO 8601),
    /// e.g. '{"Title": "Q3 report", "Keywords": ["finance", "Q3"]}'.
    #[arg(long, value_name = "JSON")]
    pub metadata: Option<String>,
}

impl OutputArgs {
    /// The flags as the fields the API takes.
    pub fn fields(&self) -> OutputFields {
        OutputFields {
            pages: self.pages.clone(),
            native_page_ranges: self.native_page_ranges.clone(),
            user_password: self.user_password.clone(),
            owner_password: self.owner_password.clone(),
            metadata: self.metadata.clone(),
        }
    }
}

impl std::fmt::Debug for OutputArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.fields().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::PdfA;

    fn fields(pairs: &[(&str, &str)]) -> OutputFields {
        let mut fields = OutputFields::default();
        for (name, value) in pairs {
            *fields.slot(name).expect("a field") = Some((*value).to_owned());
        }
        fields
    }

    fn applied(pairs: &[(&str, &str)]) -> Result<PdfOptions, String> {
        let mut options = PdfOptions::default();
        fields(pairs).apply(&mut options, Via::Form).map(|()| options).map_err(|e| e.0)
    }

    #[test]
    fn no_field_or_empty_fields_change_nothing() {
        assert_eq!(applied(&[]), Ok(PdfOptions::default()));
        let empty = [("pages", " "), ("nativePageRanges", ""), ("userPassword", ""), ("ownerPassword", ""), ("metadata", "")];
        assert_eq!(applied(&empty), Ok(PdfOptions::default()));
    }

    #[test]
    fn pages_come_under_either_name_but_not_both() {
        assert_eq!(applied(&[("pages", "1-2")]).unwrap().pages, Some(PageRanges::parse("1-2").unwrap()));
        assert_eq!(applied(&[("nativePageRanges", "3")]).unwrap().pages, Some(PageRanges::parse("3").unwrap()));
        let both = applied(&[("pages", "1"), ("nativePageRanges", "2")]).unwrap_err();
        assert!(both.contains("\"pages\"") && both.contains("\"nativePageRanges\""), "{both}");
        let bad = applied(&[("nativePageRanges", "2-1")]).unwrap_err();
        assert!(bad.starts_with("the form field \"nativePageRanges\""), "{bad}");
        let mut options = PdfOptions::default();
        let flag = fields(&[("nativePageRanges", "x")]).apply(&mut options, Via::Flags).unwrap_err();
        assert!(flag.0.starts_with("--native-page-ranges "), "{flag}");
    }

    #[test]
    fn passwords_are_refused_with_pdfa_and_never_echoed() {
        let mut options = PdfOptions { pdfa: Some(PdfA::A2b), ..PdfOptions::default() };
        let e = fields(&[("ownerPassword", "s3cret-owner")]).apply(&mut options, Via::Form).unwrap_err();
        assert!(e.0.contains("\"ownerPassword\"") && e.0.contains("PDF/A-2b") && !e.0.contains("s3cret"), "{e}");
        let e = applied(&[("userPassword", "bad\u{7}pw")]).unwrap_err();
        assert!(e.starts_with("the form field \"userPassword\"") && !e.contains("bad"), "{e}");
        let shown = format!("{:?}", fields(&[("userPassword", "hunter2"), ("ownerPassword", "swordfish")]));
        assert!(!shown.contains("hunter2") && !shown.contains("swordfish"), "{shown}");
        assert!(applied(&[("ownerPassword", "owner")]).unwrap().encryption.is_some_and(|p| !p.opens_with_password()));
    }

    #[test]
    fn metadata_takes_its_keys_with_their_types_only() {
        let json = r#"{"Title": "Q3", "Author": "Ada", "Subject": "Sales", "Keywords": ["a", " b "], "Creator": "Billing", "CreationDate": "2024-03-01T09:30:00Z", "ModDate": "2024-03-02"}"#;
        let m = applied(&[("metadata", json)]).unwrap().metadata.unwrap();
        assert_eq!(
            (m.title.as_deref(), m.author.as_deref(), m.keywords.as_deref(), m.creator.as_deref(), m.created.as_deref(), m.modified.as_deref()),
            (Some("Q3"), Some("Ada"), Some("a, b"), Some("Billing"), Some("2024-03-01T09:30:00Z"), Some("2024-03-02"))
        );
        assert_eq!(applied(&[("metadata", r#"{"Keywords": "x,y"}"#)]).unwrap().metadata.unwrap().keywords.as_deref(), Some("x, y"));
        for bad in [
            "not json",
            "[1]",
            r#"{"Titel": "x"}"#,
            r#"{"Title": 3}"#,
            r#"{"Keywords": [1]}"#,
            r#"{"CreationDate": "yesterday"}"#,
            r#"{"ModDate": "2024-02-30"}"#,
            r#"{"Author": "a\u0001b"}"#,
        ] {
            let e = applied(&[("metadata", bad)]).unwrap_err();
            assert!(e.starts_with("the form field \"metadata\" "), "{bad}: {e}");
        }
        let large = format!(r#"{{"Title": "{}"}}"#, "x".repeat(MAX_METADATA));
        assert!(applied(&[("metadata", &large)]).unwrap_err().contains("larger than 65536 bytes"));
    }
}
