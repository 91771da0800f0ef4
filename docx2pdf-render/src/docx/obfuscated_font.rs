//! Embedded font de-obfuscation (§17.8.1): the first 32 bytes of an `.odttf` part are
//! XORed with a key taken from the `w:fontKey` GUID.

/// The 16-byte key of a `w:fontKey` (§17.8.3.3): the GUID's 32 hex digits (braces and
/// hyphens removed) read as bytes, in reverse order. `None` when it is not a GUID.
pub(crate) fn font_key(guid: &str) -> Option<[u8; 16]> {
    let digits: Vec<u8> = guid
        .bytes()
        .filter(|b| !matches!(b, b'{' | b'}' | b'-') && !b.is_ascii_whitespace())
        .collect();
    if digits.len() != 32 {
        return None;
    }
    let mut key = [0u8; 16];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        let hex = std::str::from_utf8(pair).ok()?;
        // Byte i of the GUID string goes to the far end of the key.
        key[15 - i] = u8::from_str_radix(hex, 16).ok()?;
    }
    Some(key)
}

/// Undoes the obfuscation in place: byte i of the first 32 is XORed with `key[i % 16]`.
/// The operation is its own inverse.
pub(crate) fn deobfuscate(data: &mut [u8], key: &[u8; 16]) {
    for (i, byte) in data.iter_mut().take(32).enumerate() {
        *byte ^= key[i % 16];
    }
}

/// Whether the bytes start like a font file a PDF can embed: TrueType (`00 01 00 00`,
/// `true`), OpenType CFF (`OTTO`) or a collection (`ttcf`), with room for a table directory.
pub(crate) fn looks_like_font(data: &[u8]) -> bool {
    data.len() >= 12 && matches!(&data[..4], [0, 1, 0, 0] | b"true" | b"OTTO" | b"ttcf")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_key_reverses_the_guid_bytes() {
        let key = font_key("{00112233-4455-6677-8899-AABBCCDDEEFF}").unwrap();
        assert_eq!(key[0], 0xFF);
        assert_eq!(key[15], 0x00);
        assert_eq!(key[5], 0xAA);
    }

    #[test]
    fn malformed_font_key_is_refused() {
        assert_eq!(font_key("{0011}"), None);
        assert_eq!(font_key("{ZZ112233-4455-6677-8899-AABBCCDDEEFF}"), None);
    }

    #[test]
    fn only_the_first_32_bytes_change() {
        let key = [0xA5; 16];
        let mut data = vec![0u8; 40];
        deobfuscate(&mut data, &key);
        assert!(data[..32].iter().all(|b| *b == 0xA5));
        assert!(data[32..].iter().all(|b| *b == 0));
    }

    #[test]
    fn font_signatures_are_recognised() {
        assert!(looks_like_font(b"\x00\x01\x00\x00\x00\x0a\x00\x80\x00\x03\x00\x20"));
        assert!(looks_like_font(b"OTTO\x00\x0a\x00\x80\x00\x03\x00\x20"));
        assert!(!looks_like_font(b"PK\x03\x04 not a font"));
    }
}
