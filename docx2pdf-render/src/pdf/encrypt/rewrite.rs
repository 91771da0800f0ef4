//! A finished PDF written again encrypted: every string and stream of every object under
//! the file key (ISO 32000-2 §7.6.2), the encryption dictionary added, and the
//! cross-reference table and trailer written anew (§7.5.4, §7.5.5). It reads the files
//! this crate writes (one classic cross-reference section, no object streams).

use super::handler::{push_hex, Handler, Random};
use super::password::Passwords;
use crate::pdf::PdfError;

/// A PDF this reader cannot take apart, naming what is wrong (never its content).
fn malformed(what: &str) -> PdfError {
    PdfError::Encrypt(format!("the PDF to encrypt is malformed: {what}"))
}

/// `pdf` encrypted with `passwords`.
pub(in crate::pdf) fn encrypt(pdf: &[u8], passwords: &Passwords) -> Result<Vec<u8>, PdfError> {
    let mut random = Random::new();
    let handler = Handler::new(passwords, &mut random)?;
    let xref_at = start_xref(pdf)?;
    let (mut by_offset, trailer) = cross_references(pdf, xref_at)?;
    let size = by_offset.iter().map(|&(n, _)| n + 1).max().unwrap_or(1);
    by_offset.sort_by_key(|&(_, offset)| offset);

    let first = by_offset.first().map_or(xref_at, |&(_, offset)| offset);
    let mut out = Vec::with_capacity(pdf.len() + pdf.len() / 8 + 1024);
    out.extend_from_slice(pdf.get(..first).ok_or_else(|| malformed("an object lies past the end"))?);
    let mut offsets = vec![None; size as usize + 1];
    for (i, &(number, offset)) in by_offset.iter().enumerate() {
        let end = by_offset.get(i + 1).map_or(xref_at, |&(_, next)| next);
        let object = pdf.get(offset..end).ok_or_else(|| malformed("an object lies past the end"))?;
        offsets[number as usize] = Some(out.len());
        out.extend_from_slice(format!("{number} 0 obj\n").as_bytes());
        Object { handler: &handler, random: &mut random, out: &mut out }.write(interior(object)?)?;
        out.extend_from_slice(b"\nendobj\n");
    }
    // The encryption dictionary, whose strings are the only ones left as they are.
    let encrypt_number = size;
    offsets[encrypt_number as usize] = Some(out.len());
    out.extend_from_slice(format!("{encrypt_number} 0 obj\n<<").as_bytes());
    out.extend_from_slice(&handler.dictionary());
    out.extend_from_slice(b">>\nendobj\n");

    let xref_offset = out.len();
    write_xref(&mut out, &offsets);
    out.extend_from_slice(format!("trailer\n<</Size {}", offsets.len()).as_bytes());
    let mut has_id = false;
    for (key, value) in trailer_entries(trailer)? {
        match key {
            b"/Size" | b"/Encrypt" | b"/Prev" => continue,
            b"/ID" => has_id = true,
            _ => {}
        }
        out.extend_from_slice(key);
        out.push(b' ');
        out.extend_from_slice(value);
    }
    if !has_id {
        // The file identifier is required once a file is encrypted (§14.4).
        let id: [u8; 16] = {
            let mut id = [0; 16];
            random.fill(&mut id)?;
            id
        };
        out.extend_from_slice(b"/ID[");
        push_hex(&mut out, &id);
        push_hex(&mut out, &id);
        out.push(b']');
    }
    out.extend_from_slice(format!("/Encrypt {encrypt_number} 0 R>>\nstartxref\n{xref_offset}\n%%EOF").as_bytes());
    Ok(out)
}

/// The offset `startxref` gives, from the end of the file (§7.5.5).
fn start_xref(pdf: &[u8]) -> Result<usize, PdfError> {
    let at = rfind(pdf, b"startxref").ok_or_else(|| malformed("no startxref"))?;
    let digits: Vec<u8> = pdf[at + 9..].iter().copied().skip_while(|b| is_white(*b)).take_while(u8::is_ascii_digit).collect();
    std::str::from_utf8(&digits).ok().and_then(|d| d.parse().ok()).ok_or_else(|| malformed("no offset after startxref"))
}

/// The objects in use with their offsets, and the trailer dictionary, from the
/// cross-reference table at `at` (§7.5.4).
fn cross_references(pdf: &[u8], at: usize) -> Result<(Vec<(u32, usize)>, &[u8]), PdfError> {
    let mut rest = pdf.get(at..).and_then(|r| r.strip_prefix(b"xref")).ok_or_else(|| malformed("no xref table where startxref says"))?;
    let mut objects = Vec::new();
    loop {
        rest = &rest[rest.iter().take_while(|b| is_white(**b)).count()..];
        if rest.starts_with(b"trailer") {
            break;
        }
        // A subsection: its first object number and how many entries follow.
        let line_end = rest.iter().position(|&b| b == b'\n' || b == b'\r').ok_or_else(|| malformed("an unfinished xref table"))?;
        let mut numbers = std::str::from_utf8(&rest[..line_end]).ok().into_iter().flat_map(str::split_whitespace).map(str::parse::<u32>);
        let (Some(Ok(first)), Some(Ok(count)), None) = (numbers.next(), numbers.next(), numbers.next()) else {
            return Err(malformed("a bad xref subsection"));
        };
        rest = &rest[line_end..];
        rest = &rest[rest.iter().take_while(|b| is_white(**b)).count()..];
        for n in 0..count {
            // Each entry is 20 bytes: 10 digits of offset, 5 of generation, n or f, and an end of line.
            let entry = rest.get(..20).ok_or_else(|| malformed("a short xref entry"))?;
            if entry[17] == b'n' {
                let offset = std::str::from_utf8(&entry[..10]).ok().and_then(|d| d.parse().ok()).ok_or_else(|| malformed("a bad xref offset"))?;
                if &entry[11..16] != b"00000" {
                    return Err(malformed("an object of a generation other than 0"));
                }
                objects.push((first + n, offset));
            }
            rest = &rest[20..];
        }
    }
    let trailer = &rest[b"trailer".len()..];
    let end = rfind(trailer, b"startxref").unwrap_or(trailer.len());
    Ok((objects, trim(&trailer[..end])))
}

/// Writes the cross-reference table of objects at `offsets` (by number; `None` is free),
/// the free entries linked into their list (§7.5.4).
fn write_xref(out: &mut Vec<u8>, offsets: &[Option<usize>]) {
    out.extend_from_slice(format!("xref\n0 {}\n", offsets.len()).as_bytes());
    let free: Vec<usize> = (1..offsets.len()).filter(|&n| offsets[n].is_none()).collect();
    // Each free entry names the next free object; the last names object 0, the head.
    let mut next_free = free.iter().copied().skip(1).chain([0]);
    out.extend_from_slice(format!("{:010} 65535 f\r\n", free.first().copied().unwrap_or(0)).as_bytes());
    for offset in &offsets[1..] {
        match offset {
            Some(offset) => out.extend_from_slice(format!("{offset:010} 00000 n\r\n").as_bytes()),
            None => out.extend_from_slice(format!("{:010} 00000 f\r\n", next_free.next().unwrap_or(0)).as_bytes()),
        }
    }
}

/// The body of an indirect object: what lies between `N G obj` and `endobj`.
fn interior(object: &[u8]) -> Result<&[u8], PdfError> {
    let start = find(object, b"obj").ok_or_else(|| malformed("an object without obj"))? + 3;
    let end = rfind(object, b"endobj").ok_or_else(|| malformed("an object without endobj"))?;
    object.get(start..end).map(trim).ok_or_else(|| malformed("an empty object"))
}

/// The key–value pairs of a dictionary, raw (the trailer's).
fn trailer_entries(dict: &[u8]) -> Result<Vec<(&[u8], &[u8])>, PdfError> {
    let inner = dict.strip_prefix(b"<<").and_then(|d| d.strip_suffix(b">>")).ok_or_else(|| malformed("a trailer that is not a dictionary"))?;
    let mut entries = Vec::new();
    let mut i = 0;
    loop {
        i = skip_white(inner, i);
        if i >= inner.len() {
            return Ok(entries);
        }
        let key_end = value_end(inner, i)?;
        let value_start = skip_white(inner, key_end);
        let end = value_end(inner, value_start)?;
        entries.push((&inner[i..key_end], &inner[value_start..end]));
        i = end;
    }
}

/// Where the value starting at `i` ends: a string, name, array, dictionary, number,
/// keyword or indirect reference (§7.3).
fn value_end(b: &[u8], i: usize) -> Result<usize, PdfError> {
    match b.get(i) {
        None => Err(malformed("a value is missing")),
        Some(b'(') => literal(b, i).map(|(_, end)| end),
        Some(b'<') if b.get(i + 1) == Some(&b'<') => {
            let mut j = i + 2;
            loop {
                j = skip_white(b, j);
                if b[j..].starts_with(b">>") {
                    return Ok(j + 2);
                }
                j = value_end(b, j)?;
            }
        }
        Some(b'<') => hex(b, i).map(|(_, end)| end),
        Some(b'[') => {
            let mut j = i + 1;
            loop {
                j = skip_white(b, j);
                if b.get(j) == Some(&b']') {
                    return Ok(j + 1);
                }
                j = value_end(b, j)?;
            }
        }
        Some(b'/') => Ok(regular_end(b, i + 1)),
        Some(_) => {
            let end = regular_end(b, i);
            if end == i {
                return Err(malformed("an unexpected delimiter"));
            }
            // `12 0 R` is one value.
            let generation = skip_white(b, end);
            let generation_end = regular_end(b, generation);
            let r = skip_white(b, generation_end);
            let numeric = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
            if numeric(&b[i..end]) && generation > end && numeric(&b[generation..generation_end]) && r > generation_end && b.get(r) == Some(&b'R') && regular_end(b, r) == r + 1 {
                return Ok(r + 1);
            }
            Ok(end)
        }
    }
}

/// Rewrites one object's body with its strings and stream encrypted.
struct Object<'a> {
    handler: &'a Handler,
    random: &'a mut Random,
    out: &'a mut Vec<u8>,
}

impl Object<'_> {
    fn write(mut self, b: &[u8]) -> Result<(), PdfError> {
        let mut dicts = 0usize;
        // The /Length of the object's own dictionary: where its value is in `out`, and it.
        let mut length: Option<(std::ops::Range<usize>, usize)> = None;
        let mut after_length_key = false;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            match c {
                b'(' => {
                    let (text, end) = literal(b, i)?;
                    self.string(&text)?;
                    i = end;
                }
                b'<' if b.get(i + 1) == Some(&b'<') => {
                    dicts += 1;
                    self.out.extend_from_slice(b"<<");
                    i += 2;
                }
                b'<' => {
                    let (bytes, end) = hex(b, i)?;
                    self.string(&bytes)?;
                    i = end;
                }
                b'>' if b.get(i + 1) == Some(&b'>') => {
                    dicts = dicts.checked_sub(1).ok_or_else(|| malformed("an unbalanced >>"))?;
                    self.out.extend_from_slice(b">>");
                    i += 2;
                }
                b'%' => {
                    let end = b[i..].iter().position(|&c| c == b'\n' || c == b'\r').map_or(b.len(), |p| i + p);
                    self.out.extend_from_slice(&b[i..end]);
                    i = end;
                }
                c if is_white(c) || matches!(c, b'[' | b']' | b'{' | b'}') => {
                    self.out.push(c);
                    i += 1;
                }
                b')' | b'>' => return Err(malformed("an unexpected delimiter")),
                _ => {
                    let start = if c == b'/' { i + 1 } else { i };
                    let end = regular_end(b, start);
                    let token = &b[i..end];
                    if token == b"stream" && dicts == 0 {
                        let (range, declared) = length.clone().ok_or_else(|| malformed("a stream without a direct /Length"))?;
                        return self.stream(&b[end..], range, declared);
                    }
                    if after_length_key && length.is_none() && token.iter().all(u8::is_ascii_digit) {
                        let value = std::str::from_utf8(token).ok().and_then(|t| t.parse().ok()).ok_or_else(|| malformed("a bad /Length"))?;
                        length = Some((self.out.len()..self.out.len() + token.len(), value));
                    }
                    after_length_key = dicts == 1 && token == b"/Length";
                    self.out.extend_from_slice(token);
                    i = end.max(i + 1);
                }
            }
        }
        Ok(())
    }

    /// Writes an encrypted string as a hexadecimal one (§7.6.2: strings are encrypted).
    fn string(&mut self, text: &[u8]) -> Result<(), PdfError> {
        let mut sealed = Vec::with_capacity(text.len() + 32);
        self.handler.encrypt(text, self.random, &mut sealed)?;
        push_hex(self.out, &sealed);
        Ok(())
    }

    /// Writes the stream whose data follows `rest` (`stream`'s end of line first), with
    /// its /Length, at `length` in the output, set to the encrypted data's.
    fn stream(self, rest: &[u8], length: std::ops::Range<usize>, declared: usize) -> Result<(), PdfError> {
        // `stream` ends with CRLF or LF (§7.3.8.1).
        let data_start = if rest.starts_with(b"\r\n") {
            2
        } else if rest.starts_with(b"\n") {
            1
        } else {
            return Err(malformed("no end of line after stream"));
        };
        let data = rest.get(data_start..data_start + declared).ok_or_else(|| malformed("a stream shorter than its /Length"))?;
        if trim(&rest[data_start + declared..]) != b"endstream" {
            return Err(malformed("a stream longer than its /Length"));
        }
        let mut sealed = Vec::with_capacity(data.len() + 32);
        self.handler.encrypt(data, self.random, &mut sealed)?;
        let _ = self.out.splice(length, sealed.len().to_string().into_bytes());
        self.out.extend_from_slice(b"stream\n");
        self.out.extend_from_slice(&sealed);
        self.out.extend_from_slice(b"\nendstream");
        Ok(())
    }
}

/// Reads the literal string at `i` (`(`): its bytes with escapes resolved, and where it
/// ends (§7.3.4.2).
fn literal(b: &[u8], i: usize) -> Result<(Vec<u8>, usize), PdfError> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut j = i;
    loop {
        let c = *b.get(j).ok_or_else(|| malformed("an unterminated string"))?;
        j += 1;
        match c {
            b'(' => {
                if depth > 0 {
                    out.push(c);
                }
                depth += 1;
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok((out, j));
                }
                out.push(c);
            }
            b'\\' => {
                let e = *b.get(j).ok_or_else(|| malformed("an unterminated string"))?;
                j += 1;
                match e {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'b' => out.push(0x08),
                    b'f' => out.push(0x0C),
                    b'0'..=b'7' => {
                        let mut value = u32::from(e - b'0');
                        for _ in 0..2 {
                            match b.get(j) {
                                Some(&d @ b'0'..=b'7') => {
                                    value = value * 8 + u32::from(d - b'0');
                                    j += 1;
                                }
                                _ => break,
                            }
                        }
                        // High-order overflow is ignored.
                        out.push(value as u8);
                    }
                    // A backslash before an end of line continues the string on the next.
                    b'\r' => {
                        if b.get(j) == Some(&b'\n') {
                            j += 1;
                        }
                    }
                    b'\n' => {}
                    // `\(`, `\)`, `\\`, and a backslash before any other byte, which is dropped.
                    other => out.push(other),
                }
            }
            // An end of line in a string is a line feed, whichever it was.
            b'\r' => {
                if b.get(j) == Some(&b'\n') {
                    j += 1;
                }
                out.push(b'\n');
            }
            _ => out.push(c),
        }
    }
}

/// Reads the hexadecimal string at `i` (`<`): its bytes, and where it ends (§7.3.4.3).
fn hex(b: &[u8], i: usize) -> Result<(Vec<u8>, usize), PdfError> {
    let close = b[i..].iter().position(|&c| c == b'>').ok_or_else(|| malformed("an unterminated hexadecimal string"))? + i;
    let mut digits = Vec::with_capacity(close - i);
    for &c in &b[i + 1..close] {
        match c {
            b'0'..=b'9' => digits.push(c - b'0'),
            b'a'..=b'f' => digits.push(c - b'a' + 10),
            b'A'..=b'F' => digits.push(c - b'A' + 10),
            c if is_white(c) => {}
            _ => return Err(malformed("a bad hexadecimal string")),
        }
    }
    // An odd last digit stands for its high half.
    if digits.len() % 2 == 1 {
        digits.push(0);
    }
    Ok((digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect(), close + 1))
}

/// PDF white-space (§7.2.3, Table 1).
fn is_white(c: u8) -> bool {
    matches!(c, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// PDF delimiters (§7.2.3, Table 2).
fn is_delimiter(c: u8) -> bool {
    matches!(c, b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%')
}

/// The end of the run of regular characters from `i`.
fn regular_end(b: &[u8], i: usize) -> usize {
    i + b[i.min(b.len())..].iter().take_while(|&&c| !is_white(c) && !is_delimiter(c)).count()
}

fn skip_white(b: &[u8], i: usize) -> usize {
    i + b[i.min(b.len())..].iter().take_while(|&&c| is_white(c)).count()
}

fn trim(b: &[u8]) -> &[u8] {
    let start = b.iter().take_while(|&&c| is_white(c)).count();
    let end = b.len() - b[start..].iter().rev().take_while(|&&c| is_white(c)).count();
    &b[start..end]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_strings_are_read_with_their_escapes() {
        let b = br"(a\(b\) (nested) \\ \n\101\7\0537 x\
y)rest";
        let (text, end) = literal(b, 0).unwrap();
        assert_eq!(text, b"a(b) (nested) \\ \nA\x07\x2b7 xy");
        assert_eq!(&b[end..], b"rest");
        assert_eq!(hex(b"<48 65 6c6C 6>/", 0).unwrap(), (b"Hell`".to_vec(), 14));
    }

    #[test]
    fn a_value_ends_where_pdf_syntax_says() {
        let b = b"/Root 1 0 R/Info 12 0 R/ID[(a b) <0F>]/Size 4/D<</A[1 2]>>";
        let entries = trailer_entries(&[b"<<".as_slice(), b.as_slice(), b">>".as_slice()].concat()).unwrap().into_iter().map(|(k, v)| (k.to_vec(), v.to_vec())).collect::<Vec<_>>();
        let expected: Vec<(Vec<u8>, Vec<u8>)> = [
            (&b"/Root"[..], &b"1 0 R"[..]),
            (b"/Info", b"12 0 R"),
            (b"/ID", b"[(a b) <0F>]"),
            (b"/Size", b"4"),
            (b"/D", b"<</A[1 2]>>"),
        ]
        .iter()
        .map(|(k, v)| (k.to_vec(), v.to_vec()))
        .collect();
        assert_eq!(entries, expected);
    }

    /// A document from pdf-writer comes out with no string or stream left readable, every
    /// object where the new table says, and the stream lengths those of the encrypted data.
    #[test]
    fn every_string_and_stream_is_encrypted_and_every_offset_is_right() {
        use pdf_writer::{Name, Pdf, Ref, Str, TextStr};
        let mut pdf = Pdf::new();
        pdf.catalog(Ref::new(1)).pages(Ref::new(2));
        pdf.pages(Ref::new(2)).kids([Ref::new(3)]).count(1);
        pdf.page(Ref::new(3)).parent(Ref::new(2)).contents(Ref::new(5));
        pdf.document_info(Ref::new(4)).title(TextStr("Secret (plan) \\ of 2024")).author(TextStr("Zoë"));
        pdf.stream(Ref::new(5), b"BT (classified words) Tj ET endobj endstream").pair(Name(b"Note"), Str(b"stream"));
        let plain = pdf.finish();
        let passwords = Passwords::new(Some("pw"), None).unwrap().unwrap();
        let sealed = encrypt(&plain, &passwords).unwrap();
        for secret in [&b"Secret"[..], b"classified", b"005A006F", b"005a006f", b"Note(stream)"] {
            assert!(find(&sealed, secret).is_none(), "{}", String::from_utf8_lossy(secret));
        }
        let xref_at = start_xref(&sealed).unwrap();
        let (objects, trailer) = cross_references(&sealed, xref_at).unwrap();
        assert_eq!(objects.len(), 6, "five objects and the encryption dictionary");
        for (number, offset) in &objects {
            assert!(sealed[*offset..].starts_with(format!("{number} 0 obj\n").as_bytes()));
        }
        let trailer = String::from_utf8_lossy(trailer);
        assert!(trailer.starts_with("<</Size 7/Root 1 0 R/Info 4 0 R/ID[<"), "{trailer}");
        assert!(trailer.ends_with("/Encrypt 6 0 R>>"), "{trailer}");
        // The stream's /Length is its encrypted data's: 16 bytes of vector, 48 of data.
        let stream = &sealed[objects.iter().find(|o| o.0 == 5).unwrap().1..];
        let dict_end = find(stream, b"stream\n").unwrap();
        assert!(find(&stream[..dict_end], b"/Length 64").is_some(), "{}", String::from_utf8_lossy(&stream[..dict_end]));
        assert!(stream[dict_end + 7 + 64..].starts_with(b"\nendstream\nendobj\n"));
        let encrypt_dict = String::from_utf8_lossy(&sealed[objects.iter().find(|o| o.0 == 6).unwrap().1..xref_at]).into_owned();
        assert!(encrypt_dict.contains("/V 5/R 6") && encrypt_dict.contains("/CFM/AESV3"), "{encrypt_dict}");
    }
}
