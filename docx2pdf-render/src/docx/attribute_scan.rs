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
    loop {
        // `rest` starts before an attribute's name, or at the end.
        let Some(name_start) = rest.iter().position(|&b| !is_space(b)) else {
            return Ok(None);
        };
        rest = &rest[name_start..];
        let name_len = rest.iter().position(|&b| b == b'=' || is_space(b)).ok_or(Irregular)?;
        let (name, after_name) = rest.split_at(name_len);
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
        if local_name == local {
            return Ok(Some(&value_and_rest[..value_len]));
        }
        rest = &value_and_rest[value_len + 1..];
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
    fn irregular_attributes_are_left_to_the_iterator() {
        for raw in [r#" w:left"#, r#" w:left w:right="1""#, r#" w:left=720"#, r#" w:left="720"#, r#" w:left= "#] {
            assert_eq!(find_attribute(raw.as_bytes(), b"right"), Err(Irregular), "{raw:?}");
        }
        // A plain attribute before the irregular one is still found by the scan.
        assert_eq!(find_attribute(br#" w:left="1" w:right"#, b"left"), Ok(Some(&b"1"[..])));
    }
}
