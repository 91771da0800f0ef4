//! The document information dictionary (ISO 32000-1 §14.3.3); its dates are the document's own (`docProps/core.xml`), never the clock, so output stays byte-for-byte reproducible.

use pdf_writer::{Date, Pdf, Ref, TextStr};

use crate::frame::DocInfo;

/// Fills the Producer entry.
pub(super) const PRODUCER: &str = "docx2pdf";

/// A value worth writing: present and not empty.
pub(super) fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.is_empty())
}

/// Writes the Info dictionary from the document properties; empty values are left out.
/// TextStr writes non-ASCII as UTF-16BE with a byte order mark (§7.9.2.2).
pub(super) fn write(pdf: &mut Pdf, id: Ref, info: &DocInfo) {
    let mut dict = pdf.document_info(id);
    if let Some(title) = present(&info.title) {
        dict.title(TextStr(title));
    }
    if let Some(author) = present(&info.author) {
        dict.author(TextStr(author));
    }
    if let Some(subject) = present(&info.subject) {
        dict.subject(TextStr(subject));
    }
    if let Some(keywords) = present(&info.keywords) {
        dict.keywords(TextStr(keywords));
    }
    if let Some(creator) = present(&info.creator) {
        dict.creator(TextStr(creator));
    }
    dict.producer(TextStr(PRODUCER));
    if let Some(date) = info.created.as_deref().and_then(W3cDate::parse) {
        dict.creation_date(date.pdf());
    }
    if let Some(date) = info.modified.as_deref().and_then(W3cDate::parse) {
        dict.modified_date(date.pdf());
    }
}

/// A W3CDTF date and time as `dcterms:created` holds it (`2024-03-01T09:30:00Z`); the
/// offset is in minutes east of UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct W3cDate {
    year: u16,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    offset: Option<i16>,
}

impl W3cDate {
    /// Reads `YYYY-MM-DD[Thh:mm[:ss[.f]](Z|±hh:mm)]`; `None` for anything else.
    pub(super) fn parse(s: &str) -> Option<W3cDate> {
        let s = s.trim();
        let num = |r: std::ops::Range<usize>| s.get(r).filter(|t| t.bytes().all(|b| b.is_ascii_digit())).and_then(|t| t.parse::<u16>().ok());
        let year = num(0..4)?;
        if s.as_bytes().get(4) != Some(&b'-') || s.as_bytes().get(7) != Some(&b'-') {
            return None;
        }
        let (month, day) = (num(5..7)? as u8, num(8..10)? as u8);
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return None;
        }
        let mut date = W3cDate { year, month, day, hour: 0, minute: 0, second: 0, offset: None };
        let Some(time) = s.get(10..).filter(|t| !t.is_empty()) else { return Some(date) };
        let time = time.strip_prefix('T')?;
        let zone_at = time.find(['Z', '+', '-']).unwrap_or(time.len());
        let (clock, zone) = time.split_at(zone_at);
        let mut parts = clock.split(':');
        date.hour = parts.next()?.parse().ok().filter(|h| *h < 24)?;
        date.minute = parts.next()?.parse().ok().filter(|m| *m < 60)?;
        if let Some(sec) = parts.next() {
            let whole = sec.split('.').next()?;
            date.second = whole.parse().ok().filter(|s| *s < 60)?;
        }
        date.offset = match zone {
            "" => None,
            "Z" => Some(0),
            z => {
                let sign = if z.starts_with('-') { -1 } else { 1 };
                let (h, m) = z[1..].split_once(':')?;
                Some(sign * (h.parse::<i16>().ok()? * 60 + m.parse::<i16>().ok()?))
            }
        };
        Some(date)
    }

    /// As a PDF date (§7.9.4).
    fn pdf(self) -> Date {
        let mut d = Date::new(self.year).month(self.month).day(self.day).hour(self.hour).minute(self.minute).second(self.second);
        if let Some(offset) = self.offset {
            d = d.utc_offset_hour((offset / 60) as i8).utc_offset_minute((offset.abs() % 60) as u8);
        }
        d
    }

    /// As an XMP date (ISO 8601), agreeing with [`W3cDate::pdf`].
    pub(super) fn xmp(self) -> String {
        let mut s = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        );
        match self.offset {
            Some(0) => s.push('Z'),
            Some(o) => s.push_str(&format!("{}{:02}:{:02}", if o < 0 { '-' } else { '+' }, o.abs() / 60, o.abs() % 60)),
            None => {}
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w3c_dates_are_read_with_their_offsets() {
        let d = W3cDate::parse("2024-03-01T09:30:05Z").unwrap();
        assert_eq!(d.xmp(), "2024-03-01T09:30:05Z");
        assert_eq!(W3cDate::parse("2024-03-01T09:30+02:00").unwrap().xmp(), "2024-03-01T09:30:00+02:00");
        assert_eq!(W3cDate::parse("2024-03-01").unwrap().xmp(), "2024-03-01T00:00:00");
        assert_eq!(W3cDate::parse("yesterday"), None);
        assert_eq!(W3cDate::parse("2024-13-01"), None);
    }
}
