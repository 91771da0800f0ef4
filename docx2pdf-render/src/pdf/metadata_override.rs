//! Document information given with the conversion: it replaces what the document's
//! properties say, in the Info dictionary and the XMP packet alike (ISO 32000-1 §14.3.3,
//! ISO 19005-2 §6.6.2.3.1: the two agree).

use std::borrow::Cow;

use super::metadata::W3cDate;
use crate::frame::DocInfo;

/// The entries given; each one given replaces the document's own, even with an empty
/// value (which then leaves the entry out).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataOverride {
    /// /Title and `dc:title`.
    pub title: Option<String>,
    /// /Author and `dc:creator`.
    pub author: Option<String>,
    /// /Subject and `dc:description`.
    pub subject: Option<String>,
    /// /Keywords and `pdf:Keywords`, as one text (see [`keywords_text`]).
    pub keywords: Option<String>,
    /// /Creator and `xmp:CreatorTool`.
    pub creator: Option<String>,
    /// /CreationDate and `xmp:CreateDate`, as [`check_date`] accepts it.
    pub created: Option<String>,
    /// /ModDate and `xmp:ModifyDate`, as [`check_date`] accepts it.
    pub modified: Option<String>,
}

impl MetadataOverride {
    /// The document information with these entries in place of the document's.
    pub(super) fn apply<'a>(&self, info: &'a DocInfo) -> Cow<'a, DocInfo> {
        if *self == MetadataOverride::default() {
            return Cow::Borrowed(info);
        }
        let pick = |given: &Option<String>, own: &Option<String>| given.clone().or_else(|| own.clone());
        Cow::Owned(DocInfo {
            title: pick(&self.title, &info.title),
            author: pick(&self.author, &info.author),
            subject: pick(&self.subject, &info.subject),
            keywords: pick(&self.keywords, &info.keywords),
            creator: pick(&self.creator, &info.creator),
            created: pick(&self.created, &info.created),
            modified: pick(&self.modified, &info.modified),
            ..info.clone()
        })
    }
}

/// Keywords as the one text both /Keywords and `pdf:Keywords` hold: the words separated
/// by a comma and a space, each trimmed, empty ones left out.
pub fn keywords_text<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    words.into_iter().map(str::trim).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(", ")
}

/// Why a date cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an ISO 8601 date such as 2024-03-01 or 2024-03-01T09:30:00Z (YYYY-MM-DD, then optionally Thh:mm[:ss[.fff]] and Z or ±hh:mm)")]
pub struct DateError(pub String);

/// Checks an ISO 8601 date as PDF dates (§7.9.4) and XMP dates can both hold it:
/// `YYYY-MM-DD`, optionally followed by `Thh:mm`, `:ss`, a fraction (dropped) and `Z` or
/// `±hh:mm`; a day the month does not have is refused. Returns the text trimmed.
pub fn check_date(text: &str) -> Result<String, DateError> {
    // The message quotes the value, cut short: a field may be long.
    let err = || DateError(text.chars().take(40).collect());
    let s = text.trim();
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        part.iter().all(u8::is_ascii_digit).then(|| part.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let (year, month, day) = (digits(0..4).ok_or_else(err)?, digits(5..7).ok_or_else(err)?, digits(8..10).ok_or_else(err)?);
    if !at(4, b'-') || !at(7, b'-') || !(1..=12).contains(&month) || day == 0 || day > days_in(year, month) {
        return Err(err());
    }
    let mut i = 10;
    if i < b.len() {
        if !at(i, b'T') || digits(11..13).is_none_or(|h| h > 23) || !at(13, b':') || digits(14..16).is_none_or(|m| m > 59) {
            return Err(err());
        }
        i = 16;
        if at(i, b':') {
            if digits(17..19).is_none_or(|s| s > 59) {
                return Err(err());
            }
            i = 19;
            if at(i, b'.') {
                let fraction = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
                if fraction == 0 {
                    return Err(err());
                }
                i += 1 + fraction;
            }
        }
        match b.get(i) {
            None => {}
            Some(b'Z') => i += 1,
            Some(b'+' | b'-') => {
                if digits(i + 1..i + 3).is_none_or(|h| h > 23) || !at(i + 3, b':') || digits(i + 4..i + 6).is_none_or(|m| m > 59) {
                    return Err(err());
                }
                i += 6;
            }
            Some(_) => return Err(err()),
        }
        if i != b.len() {
            return Err(err());
        }
    }
    // What is written is what the Info dictionary and the packet read back.
    W3cDate::parse(s).map(|_| s.to_owned()).ok_or_else(err)
}

/// The days of a month of the Gregorian calendar.
fn days_in(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_8601_days_and_times_with_their_zone() {
        for good in ["2024-03-01", "2024-03-01T09:30", "2024-03-01T09:30:05Z", "2024-02-29T23:59:59.125+02:00", " 2024-12-31T00:00-05:30 "] {
            assert_eq!(check_date(good), Ok(good.trim().to_owned()), "{good}");
        }
        for bad in ["", "yesterday", "2024-3-1", "2023-02-29", "2024-04-31", "2024-13-01", "2024-03-01T24:00", "2024-03-01T09", "2024-03-01 09:30", "2024-03-01T09:30:00+0200", "2024-03-01T09:30:00Zjunk", "2024-03-01T09:30:00.", "20240301", "2024-03-01T09:30:60"] {
            assert_eq!(check_date(bad), Err(DateError(bad.to_owned())), "{bad}");
        }
    }

    #[test]
    fn keywords_are_one_text_of_trimmed_words() {
        assert_eq!(keywords_text(["finance", " Q3 ", ""]), "finance, Q3");
        assert_eq!(keywords_text("a,b , c".split(',')), "a, b, c");
    }

    #[test]
    fn entries_given_replace_the_documents_and_the_rest_stay() {
        let info = DocInfo { title: Some("Draft".into()), author: Some("Ada".into()), lang: Some("en-GB".into()), ..DocInfo::default() };
        assert!(matches!(MetadataOverride::default().apply(&info), Cow::Borrowed(_)));
        let given = MetadataOverride { title: Some("Final".into()), creator: Some("Billing".into()), author: Some(String::new()), ..MetadataOverride::default() };
        let out = given.apply(&info);
        assert_eq!(out.title.as_deref(), Some("Final"));
        assert_eq!(out.author.as_deref(), Some(""), "an empty value given clears the entry");
        assert_eq!(out.creator.as_deref(), Some("Billing"));
        assert_eq!(out.lang.as_deref(), Some("en-GB"));
    }
}
