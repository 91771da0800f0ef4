//! Finding one attribute of a start tag by a single scan of its bytes, for the common case
//! of plain `name="value"` pairs; anything else is left to quick-xml's attribute iterator.
//!
//! Properties read several attributes of one element, each by its local name (`w:ind`
//! asks for twelve). quick-xml's iterator parses every attribute before the one wanted
//! on each request: `attr_raw` and `attr` took 1.25 M of a one-page conversion's 18.57 M
//! instructions (callgrind), most of them on `w:ind`, `w:spacing`, borders and theme
//! fonts. With the scan the conversion takes 18.27 M.

/// The attribute bytes are not plain `name="value"` pairs separated by XML whitespace
/// (a name without `=`, an unquoted or unterminated value): quick-xml's iterator, with its
/// own recovery, decides what they hold.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Irregular;

/// XML whitespace (§2.3 of XML 1.0), as quick-xml counts it between attributes.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The raw (still escaped) value of the first attribute whose local name (after any
/// `prefix:`) is `local`, in the attribute bytes of a start tag (`BytesStart::attributes_raw`).
pub(crate) fn find_attribute<'a>(raw: &'a [u8], local: &[u8]) -> Result<Option<&'a [u8]>, Irregular> {
    let mut rest = raw;
    while let Some((name, value)) = next_attribute(&mut rest)? {
        if name == local {
            return Ok(Some(value));
        }
    }
    Ok(None)
}

/// The local name and raw value of the attribute at the start of `rest`, which moves past
/// it; `None` at the end.
fn next_attribute<'a>(rest: &mut &'a [u8]) -> Result<Option<(&'a [u8], &'a [u8])>, Irregular> {
    let Some(name_start) = rest.iter().position(|&b| !is_space(b)) else {
        return Ok(None);
    };
    let tag = &rest[name_start..];
    let name_len = tag.iter().position(|&b| b == b'=' || is_space(b)).ok_or(Irregular)?;
    let (name, after_name) = tag.split_at(name_len);
    let eq = after_name.iter().position(|&b| !is_space(b)).ok_or(Irregular)?;
    let after_eq = match after_name[eq..].split_first() {
        Some((b'=', after_eq)) => after_eq,
        _ => return Err(Irregular),
    };
    let quote_at = after_eq.iter().position(|&b| !is_space(b)).ok_or(Irregular)?;
    let (quote, value_and_rest) = match after_eq[quote_at..].split_first() {
        Some((&q @ (b'"' | b'\''), value_and_rest)) => (q, value_and_rest),
        _ => return Err(Irregular),
    };
    let value_len = value_and_rest.iter().position(|&b| b == quote).ok_or(Irregular)?;
    let local_name = match name.iter().position(|&b| b == b':') {
        Some(colon) => &name[colon + 1..],
        None => name,
    };
    *rest = &value_and_rest[value_len + 1..];
    Ok(Some((local_name, &value_and_rest[..value_len])))
}

/// How many attributes an [`AttributeList`] holds; Word writes at most a dozen on the
/// elements read through one (`w:ind`, `w:spacing`, borders, `w:rFonts`).
const LISTED: usize = 16;

/// The attributes of one start tag, scanned once for an element whose reader asks for
/// several: [`find_attribute`] scans from the start at each request, and `w:spacing`,
/// `w:shd`, borders, widths and margins ask for five to eight names each, most of them
/// absent (scanning took 0.68 M of reading a one-page document's 6.49 M instructions).
pub(crate) struct AttributeList<'a> {
    raw: &'a [u8],
    /// Local names and raw values, in document order.
    pairs: [(&'a [u8], &'a [u8]); LISTED],
    len: usize,
    /// Where the scan stopped before the end of `raw`, if it did.
    stopped: Option<Stopped>,
}

/// Why an [`AttributeList`] does not hold every attribute.
#[derive(Clone, Copy)]
enum Stopped {
    /// Irregular bytes follow the listed attributes.
    Irregular,
    /// More than [`LISTED`] attributes.
    Full,
}

impl<'a> AttributeList<'a> {
    /// Lists the attributes of `raw` (`BytesStart::attributes_raw`).
    pub(crate) fn new(raw: &'a [u8]) -> AttributeList<'a> {
        let mut list = AttributeList { raw, pairs: [(&[][..], &[][..]); LISTED], len: 0, stopped: None };
        let mut rest = raw;
        loop {
            if list.len == LISTED {
                // A full list says nothing of what follows: `find` scans again for a name
                // that it lacks, unless the end is already here.
                if rest.iter().any(|&b| !is_space(b)) {
                    list.stopped = Some(Stopped::Full);
                }
                return list;
            }
            match next_attribute(&mut rest) {
                Ok(Some(pair)) => {
                    list.pairs[list.len] = pair;
                    list.len += 1;
                }
                Ok(None) => return list,
                Err(Irregular) => {
                    list.stopped = Some(Stopped::Irregular);
                    return list;
                }
            }
        }
    }

    /// What [`find_attribute`] answers for `local` on the same bytes.
    pub(crate) fn find(&self, local: &[u8]) -> Result<Option<&'a [u8]>, Irregular> {
        if let Some(&(_, value)) = self.pairs[..self.len].iter().find(|(name, _)| *name == local) {
            return Ok(Some(value));
        }
        match self.stopped {
            None => Ok(None),
            Some(Stopped::Irregular) => Err(Irregular),
            Some(Stopped::Full) => find_attribute(self.raw, local),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quick_xml::events::BytesStart;

    /// What quick-xml's iterator finds, as `attr_raw` asked it before.
    fn by_iterator(raw: &str, local: &[u8]) -> Option<Vec<u8>> {
        let tag = format!("w:e{raw}");
        let e = BytesStart::from_content(tag.as_str(), 3);
        e.attributes()
            .with_checks(false)
            .flatten()
            .find(|a| a.key.local_name().as_ref() == local)
            .map(|a| a.value.into_owned())
    }

    #[test]
    fn plain_attributes_are_found_as_quick_xml_finds_them() {
        let tags = [
            r#" w:left="720" w:hanging="360""#,
            r#"  w:left = "720"	w:hanging='360' "#,
            "\n w:val=\"a'b\" w:left='x\"y'\r\n",
            r#" left="1" w:left="2""#,
            r#" w:left="1" w:left="2""#,
            r#" w:left="" w:right="&amp;""#,
            r#" a:b:left="7""#,
            r#" w:leftChars="5" w:left="6""#,
            "",
            "   ",
        ];
        for raw in tags {
            for local in [&b"left"[..], b"hanging", b"val", b"right", b"leftChars", b"missing"] {
                let scanned = find_attribute(raw.as_bytes(), local).expect("plain attributes");
                assert_eq!(scanned.map(<[u8]>::to_vec), by_iterator(raw, local), "{raw:?} {local:?}");
            }
        }
    }

    #[test]
    fn a_list_answers_as_the_scan_does() {
        let many: String = (0..20).map(|i| format!(" w:a{i}=\"{i}\"")).collect();
        let tags = [
            r#" w:left="720" w:hanging="360""#,
            "\n w:val=\"a'b\" w:left='x\"y'\r\n",
            r#" left="1" w:left="2""#,
            r#" w:left="1" w:right"#,
            r#" w:left=720 w:right="1""#,
            "",
            many.as_str(),
            &format!("{many} w:left=\"9\""),
            &format!("{many} w:left"),
        ];
        for raw in tags {
            let list = AttributeList::new(raw.as_bytes());
            for local in [&b"left"[..], b"hanging", b"val", b"right", b"a3", b"a19", b"missing"] {
                assert_eq!(list.find(local), find_attribute(raw.as_bytes(), local), "{raw:?} {local:?}");
            }
        }
    }

    #[test]
    fn irregular_attributes_are_left_to_the_iterator() {
        for raw in [r#" w:left"#, r#" w:left w:right="1""#, r#" w:left=720"#, r#" w:left="720"#, r#" w:left= "#] {
            assert_eq!(find_attribute(raw.as_bytes(), b"right"), Err(Irregular), "{raw:?}");
        }
        // A plain attribute before the irregular one is still found by the scan.
        assert_eq!(find_attribute(br#" w:left="1" w:right"#, b"left"), Ok(Some(&b"1"[..])));
    }
}
