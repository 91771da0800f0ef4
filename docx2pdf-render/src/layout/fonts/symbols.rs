//! `w:sym` characters (§17.3.3.30): symbol-font codes and their Unicode stand-ins.

/// A Unicode stand-in for a symbol-font code when the font is missing, after
/// python-mammoth's dingbat table (notes §2). `code` may be F0xx or xx.
pub(crate) fn dingbat(font: &str, code: u32) -> Option<char> {
    let c = if (0xF000..=0xF0FF).contains(&code) { code - 0xF000 } else { code };
    let font = font.trim().to_ascii_lowercase();
    let u = match font.as_str() {
        "symbol" => match c {
            0xB7 => 0x2022,
            0xA7 => 0x2663,
            0xA8 => 0x2666,
            0xA9 => 0x2665,
            0xAA => 0x2660,
            0xAE => 0x2192,
            0xAC => 0x2190,
            0xB0 => 0x00B0,
            0xB1 => 0x00B1,
            0xB4 => 0x00D7,
            0xB8 => 0x00F7,
            0xA3 => 0x2264,
            0xB3 => 0x2265,
            0xB9 => 0x2260,
            0xBB => 0x2248,
            0xD6 => 0x221A,
            0xE5 => 0x2211,
            0xF2 => 0x222B,
            0xA5 => 0x221E,
            0x2D => 0x2212,
            0x61..=0x7A => greek_lower(c)?,
            0x41..=0x5A => greek_upper(c)?,
            0x20..=0x3F => c,
            _ => return None,
        },
        "wingdings" => match c {
            0xA7 => 0x25AA,
            0xFC => 0x2713,
            0xFB => 0x2717,
            0xFD => 0x2612,
            0xFE => 0x2611,
            0xA8 => 0x25FB,
            0x6F => 0x25A1,
            0x6E => 0x25A0,
            0x6C => 0x25CF,
            0x9F => 0x2022,
            0xD8 => 0x2B9A,
            0x76 => 0x2756,
            0x71 => 0x2751,
            0xE0 => 0x2192,
            0xE8 => 0x2794,
            0xF0 => 0x21E8,
            0x4A => 0x263A,
            0x4C => 0x2639,
            0x2A => 0x2709,
            0x28 => 0x260E,
            _ => return None,
        },
        "wingdings 2" => match c {
            0x50 => 0x2713,
            0x4F => 0x2717,
            0x98 => 0x2022,
            _ => return None,
        },
        _ => return None,
    };
    char::from_u32(u)
}

fn greek_lower(c: u32) -> Option<u32> {
    const MAP: &[u32] = &[
        0x3B1, 0x3B2, 0x3C7, 0x3B4, 0x3B5, 0x3C6, 0x3B3, 0x3B7, 0x3B9, 0x3D5, 0x3BA, 0x3BB, 0x3BC,
        0x3BD, 0x3BF, 0x3C0, 0x3B8, 0x3C1, 0x3C3, 0x3C4, 0x3C5, 0x3D6, 0x3C9, 0x3BE, 0x3C8, 0x3B6,
    ];
    MAP.get((c - 0x61) as usize).copied()
}

fn greek_upper(c: u32) -> Option<u32> {
    const MAP: &[u32] = &[
        0x391, 0x392, 0x3A7, 0x394, 0x395, 0x3A6, 0x393, 0x397, 0x399, 0x3D1, 0x39A, 0x39B, 0x39C,
        0x39D, 0x39F, 0x3A0, 0x398, 0x3A1, 0x3A3, 0x3A4, 0x3A5, 0x3C2, 0x3A9, 0x39E, 0x3A8, 0x396,
    ];
    MAP.get((c - 0x41) as usize).copied()
}

/// The code as a private-use character (U+F0xx), as symbol fonts map it in their (3,0) cmap.
pub(crate) fn private_use(code: u32) -> Option<char> {
    let c = if code < 0x100 { 0xF000 + code } else { code };
    char::from_u32(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_bullet_maps_to_a_unicode_bullet() {
        assert_eq!(dingbat("Symbol", 0xF0B7), Some('•'));
        assert_eq!(dingbat("Symbol", 0xB7), Some('•'));
    }

    #[test]
    fn wingdings_codes_map_to_dingbats() {
        assert_eq!(dingbat("Wingdings", 0xF0FC), Some('✓'));
        assert_eq!(dingbat("Wingdings", 0xF0A7), Some('▪'));
        assert_eq!(dingbat("Wingdings", 0xF0D8), Some('⮚'));
        assert_eq!(dingbat("Wingdings", 0xF076), Some('❖'));
    }
}
