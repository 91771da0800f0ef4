//! Shaped short pieces of text per face, shared by every document and render worker.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rustybuzz::Script;

use crate::layout::shaping::RawGlyph;
use crate::fast_map::FastMap;

/// Longer pieces (whole runs of a paragraph) seldom repeat; they stay in the document's
/// own cache, or are cut into words (space_context.rs). Words, numbers, list labels,
/// field values and leader characters are short.
pub(crate) const MAX_CACHED_BYTES: usize = 64;
/// Entries per face, direction and script in one generation (below); two generations
/// bound the memory of a long-running server (≈ 2 × 4,096 × ~200 bytes per map for words
/// of ordinary length).
const MAX_ENTRIES: usize = 4096;
/// Bytes one generation may hold, counted as text, glyphs and a fixed overhead per entry:
/// pieces near `MAX_CACHED_BYTES` (a document of long unbroken tokens) weigh ~1.4 KB each
/// and would otherwise let one map grow past 11 MB.
const MAX_BYTES: usize = 1 << 20;
/// Per entry: the key's box, the glyphs' `Arc` header and the map's own slot.
const ENTRY_OVERHEAD: usize = 64;

/// Text → glyphs; keyed by the text alone so that a lookup borrows it. The text comes
/// from uploaded documents, so the hash is seeded per map.
type Shaped = FastMap<Box<str>, Arc<[RawGlyph]>>;

/// The script a piece was shaped in: guessed from the piece itself, or the script of the
/// longer text it was cut from (its words are shaped as the whole would be).
type ScriptKey = Option<Script>;

/// Pieces in one direction and script, in two generations: new entries go to `young`;
/// a full `young` becomes `old` (dropping the previous one), and a hit in `old` moves
/// back to `young`. Words in use survive a long document's stream of rare ones, which
/// emptying one map outright threw away with them.
#[derive(Default)]
struct Generations {
    young: Shaped,
    old: Shaped,
    /// What `young` holds, in the measure of `MAX_BYTES`.
    young_bytes: usize,
}

impl Generations {
    fn get(&mut self, text: &str) -> Option<Arc<[RawGlyph]>> {
        if let Some(hit) = self.young.get(text) {
            return Some(hit.clone());
        }
        let (text, hit) = self.old.remove_entry(text)?;
        self.insert(text, hit.clone());
        Some(hit)
    }

    fn insert(&mut self, text: Box<str>, glyphs: Arc<[RawGlyph]>) {
        if self.young.len() >= MAX_ENTRIES || self.young_bytes >= MAX_BYTES {
            self.old = std::mem::take(&mut self.young);
            self.young_bytes = 0;
        }
        self.young_bytes += text.len() + std::mem::size_of_val(&*glyphs) + ENTRY_OVERHEAD;
        self.young.insert(text, glyphs);
    }
}

/// What a piece was shaped for besides its text: right to left, kerned, and its script.
pub(crate) type ShapeKey = (bool, bool, ScriptKey);

/// One cache per direction, kerning and script.
#[derive(Default)]
pub(crate) struct ShapeCache {
    maps: Mutex<HashMap<ShapeKey, Generations>>,
}

impl ShapeCache {
    /// The glyphs of `text` in this face, shaped by `shape` on a miss. Shaping runs
    /// outside the lock: two workers may shape the same text at once, to the same result.
    pub fn get_or_shape(&self, text: &str, key: ShapeKey, shape: impl FnOnce() -> Vec<RawGlyph>) -> Arc<[RawGlyph]> {
        if let Some(hit) = self.lock().get_mut(&key).and_then(|m| m.get(text)) {
            return hit;
        }
        let glyphs: Arc<[RawGlyph]> = shape().into();
        self.lock().entry(key).or_default().insert(text.into(), glyphs.clone());
        glyphs
    }

    /// The glyphs of each of `pieces`, in order: all looked up under one lock, the misses
    /// shaped outside it and stored under a second. Two render workers setting text in
    /// the same face would otherwise take turns at the lock for every word. Pieces longer
    /// than `MAX_CACHED_BYTES` are shaped and not kept.
    pub fn get_or_shape_all(
        &self,
        pieces: &[&str],
        key: ShapeKey,
        mut shape: impl FnMut(&str) -> Vec<RawGlyph>,
    ) -> Vec<Arc<[RawGlyph]>> {
        let found: Vec<Option<Arc<[RawGlyph]>>> = {
            let mut maps = self.lock();
            let map = maps.entry(key).or_default();
            pieces.iter().map(|p| map.get(p)).collect()
        };
        let mut shaped: Vec<(usize, Arc<[RawGlyph]>)> = Vec::new();
        let all = found
            .into_iter()
            .zip(pieces)
            .enumerate()
            .map(|(i, (hit, piece))| {
                hit.unwrap_or_else(|| {
                    let glyphs: Arc<[RawGlyph]> = shape(piece).into();
                    if piece.len() <= MAX_CACHED_BYTES {
                        shaped.push((i, glyphs.clone()));
                    }
                    glyphs
                })
            })
            .collect();
        if !shaped.is_empty() {
            let mut maps = self.lock();
            let map = maps.entry(key).or_default();
            for (i, glyphs) in shaped {
                map.insert(pieces[i].into(), glyphs);
            }
        }
        all
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ShapeKey, Generations>> {
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
            let g = cache.get_or_shape("word", (false, true, None), || {
                calls += 1;
                vec![glyph(7)]
            });
            assert_eq!(g[0].id, 7);
        }
        assert_eq!(calls, 1);
    }

    #[test]
    fn pieces_looked_up_together_are_shaped_once_each_time_they_miss() {
        let cache = ShapeCache::default();
        let long = "x".repeat(MAX_CACHED_BYTES + 1);
        let mut shaped = Vec::new();
        let mut shape = |p: &str| {
            shaped.push(p.to_string());
            vec![glyph(u16::try_from(p.len()).unwrap_or(0))]
        };
        let first = cache.get_or_shape_all(&["one ", "two ", long.as_str()], (false, true, None), &mut shape);
        let second = cache.get_or_shape_all(&["two ", "three", long.as_str(), "one "], (false, true, None), &mut shape);
        assert_eq!(first.iter().map(|g| g[0].id).collect::<Vec<_>>(), vec![4, 4, 65]);
        assert_eq!(second.iter().map(|g| g[0].id).collect::<Vec<_>>(), vec![4, 5, 65, 4]);
        // The long piece is never kept; each short one is shaped on its first miss only.
        assert_eq!(shaped, vec!["one ", "two ", long.as_str(), "three", long.as_str()]);
    }

    #[test]
    fn a_generation_of_long_pieces_is_bounded_by_its_bytes() {
        let mut gens = Generations::default();
        let piece = |i: usize| format!("{i:0>64}").into_boxed_str();
        let glyphs: Arc<[RawGlyph]> = vec![glyph(1); 64].into();
        let weight = 64 + std::mem::size_of_val(&*glyphs) + ENTRY_OVERHEAD;
        for i in 0..MAX_BYTES / weight + 2 {
            gens.insert(piece(i), glyphs.clone());
        }
        assert!(gens.young.len() < MAX_ENTRIES && !gens.old.is_empty(), "rotated by bytes, not entries");
        assert!(gens.young_bytes + gens.old.len() * weight <= 2 * MAX_BYTES + weight);
    }

    #[test]
    fn directions_and_scripts_are_kept_apart() {
        let cache = ShapeCache::default();
        cache.get_or_shape("ab", (false, true, None), || vec![glyph(1)]);
        assert_eq!(cache.get_or_shape("ab", (true, true, None), || vec![glyph(2)])[0].id, 2);
        assert_eq!(cache.get_or_shape("ab", (false, true, None), || vec![glyph(3)])[0].id, 1);
        let latin = Some(rustybuzz::script::LATIN);
        assert_eq!(cache.get_or_shape("ab", (false, true, latin), || vec![glyph(4)])[0].id, 4);
    }

    #[test]
    fn a_word_in_use_outlives_a_full_generation_and_an_unused_one_does_not() {
        let cache = ShapeCache::default();
        let shaped = std::cell::Cell::new(0);
        let get = |text: &str| {
            cache.get_or_shape(text, (false, true, None), || {
                shaped.set(shaped.get() + 1);
                vec![glyph(1)]
            });
        };
        get("kept");
        get("dropped");
        for i in 0..MAX_ENTRIES {
            get(&i.to_string());
        }
        // Both are in the old generation now; "kept" moves back to the young one.
        get("kept");
        for i in MAX_ENTRIES..2 * MAX_ENTRIES {
            get(&i.to_string());
        }
        let before = shaped.get();
        get("kept");
        assert_eq!(shaped.get(), before, "a word used in the last generation is still cached");
        get("dropped");
        assert_eq!(shaped.get(), before + 1, "a word unused for two generations is shaped again");
    }
}
