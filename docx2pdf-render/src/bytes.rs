//! Reading numbers out of binary formats (metafiles, bitmaps, PNG and JPEG headers,
//! compound files) at an offset, `None` past the end: the one byte reader of the renderer.

/// A little-endian `u16` at `at`.
pub fn u16_le(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(d.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

/// A little-endian `i16` at `at`.
pub fn i16_le(d: &[u8], at: usize) -> Option<i16> {
    u16_le(d, at).map(|v| v as i16)
}

/// A little-endian `u32` at `at`.
pub fn u32_le(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(d.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// A little-endian `i32` at `at`.
pub fn i32_le(d: &[u8], at: usize) -> Option<i32> {
    u32_le(d, at).map(|v| v as i32)
}

/// A finite little-endian `f32` at `at`, widened.
pub fn f32_le(d: &[u8], at: usize) -> Option<f64> {
    u32_le(d, at).map(|v| f64::from(f32::from_bits(v))).filter(|v| v.is_finite())
}

/// A big-endian `u16` at `at`.
pub fn u16_be(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(d.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

/// A big-endian `u32` at `at`.
pub fn u32_be(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_in_their_byte_order_and_none_past_the_end() {
        let d = [0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x80, 0x3F];
        assert_eq!(u16_le(&d, 0), Some(0x0201));
        assert_eq!(u16_be(&d, 0), Some(0x0102));
        assert_eq!(u32_le(&d, 0), Some(0x0403_0201));
        assert_eq!(u32_be(&d, 0), Some(0x0102_0304));
        assert_eq!(f32_le(&d, 4), Some(1.0));
        assert_eq!(i16_le(&[0xFF, 0xFF], 0), Some(-1));
        assert_eq!(u32_le(&d, 5), None);
        assert_eq!(u16_le(&d, usize::MAX), None);
    }
}
