//! Shaped short pieces of text per face, shared by every document and render worker.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::shaping::RawGlyph;

/// Longer pieces (whole runs of a paragraph) seldom repeat; they stay in the document's
/// own cache. Words, numbers, list labels, field values and leader characters are short.
pub(crate) const MAX_CACHED_BYTES: usize = 64;
/// Entries per face and direction before the map is emptied and starts over, which
/// bounds the memory of a long-running server (≈ 4,096 × ~200 bytes per face).
const MAX_ENTRIES: usize = 4096;

/// Text → glyphs in one direction; keyed by the text alone so that a lookup borrows it.
type Shaped = HashMap<Box<str>, Arc<[RawGlyph]>>;

/// One map per direction, left to right first.
#[derive(Default)]
pub(crate) struct ShapeCache {
    maps: Mutex<[Shaped; 2]>,
}

impl ShapeCache {
    /// The glyphs of `text` in this face, shaped by `shape` on a miss. Shaping runs
    /// outside the lock: two workers may shape the same text at once, to the same result.
    pub fn get_or_shape(&self, text: &str, rtl: bool, shape: impl FnOnce() -> Vec<RawGlyph>) -> Arc<[RawGlyph]> {
        let dir = usize::from(rtl);
        if let Some(hit) = self.lock()[dir].get(text) {
            return hit.clone();
        }
        let glyphs: Arc<[RawGlyph]> = shape().into();
        let mut maps = self.lock();
        if maps[dir].len() >= MAX_ENTRIES {
            maps[dir].clear();
        }
        maps[dir].insert(text.into(), glyphs.clone());
        glyphs
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, [Shaped; 2]> {
        self.maps.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(id: u16) -> RawGlyph {
        RawGlyph { id, advance: 500, x_offset: 0, y_offset: 0, cluster: 0 }
    }

    #[test]
    fn a_repeated_piece_is_shaped_once() {
        let cache = ShapeCache::default();
        let mut calls = 0;
        for _ in 0..3 {
            let g = cache.get_or_shape("word", false, || {
                calls += 1;
                vec![glyph(7)]
            });
            assert_eq!(g[0].id, 7);
        }
        assert_eq!(calls, 1);
    }

    #[test]
    fn the_two_directions_are_kept_apart() {
        let cache = ShapeCache::default();
        cache.get_or_shape("ab", false, || vec![glyph(1)]);
        assert_eq!(cache.get_or_shape("ab", true, || vec![glyph(2)])[0].id, 2);
        assert_eq!(cache.get_or_shape("ab", false, || vec![glyph(3)])[0].id, 1);
    }

    #[test]
    fn a_full_map_starts_over() {
        let cache = ShapeCache::default();
        for i in 0..=MAX_ENTRIES {
            cache.get_or_shape(&i.to_string(), false, || vec![glyph(1)]);
        }
        assert_eq!(cache.lock()[0].len(), 1);
    }
}
