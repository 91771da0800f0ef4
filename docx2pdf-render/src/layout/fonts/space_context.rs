//! Where a face lets text be shaped word by word: what its lookups do around the space glyph.
//!
//! Shaping a long run whole costs far more than looking its words up in the face's cache,
//! but the two must give the same glyphs. They do when no OpenType lookup (ISO/IEC
//! 14496-22 §6.2, GSUB and GPOS) can match across the cut. Text is cut only after a run of
//! spaces, so a lookup crosses the cut only if it matches the space glyph next to the
//! glyph after the cut: a kerning pair (space, Y) (GPOS type 2 or the `kern` table), or a
//! chaining context whose sequence holds the space and then Y. Anything else that touches
//! the space (substituting it, joining it into a ligature, attaching to it, contexts read
//! through class definitions) leaves the face shaped whole. Measured on the standard
//! fonts: Liberation kerns "space A/T/Y"; Carlito's contextual alternates look at the
//! space next to Greek capitals; Latin words after a space cut cleanly in all of them.

use rustybuzz::ttf_parser::gdef::{self, GlyphClass};
use rustybuzz::ttf_parser::gpos::{PairAdjustment, PairSet, PositioningSubtable, ValueRecord};
use rustybuzz::ttf_parser::gsub::SubstitutionSubtable;
use rustybuzz::ttf_parser::kern;
use rustybuzz::ttf_parser::opentype_layout::{ChainedContextLookup, ContextLookup, Coverage, LayoutTable, Lookup};
use rustybuzz::ttf_parser::{Face, GlyphId};

/// A face's lookups as they bear on cutting text after a space.
pub(crate) enum SpaceContext {
    /// Text in this face is shaped whole.
    Whole,
    /// Text may be cut after a space before any glyph that `Cuts::allows`.
    Cuts(Box<Cuts>),
}

/// The lookups that can join the space to the glyph after it.
pub(crate) struct Cuts {
    space: GlyphId,
    /// Glyph classes: a glyph classed as a mark is skipped by lookups that ignore marks,
    /// which would then join the space to whatever follows it.
    gdef: Option<gdef::Table<'static>>,
    /// The space's pair set in each format-1 pair subtable that covers it.
    pair_sets: Vec<PairSet<'static>>,
    /// Format-2 pair subtables that cover the space, with the space's first class.
    pair_classes: Vec<(PairAdjustment<'static>, u16)>,
    /// Legacy `kern` subtables (used by shapers when GPOS has no kerning).
    kern: Vec<kern::Subtable<'static>>,
    /// Coverages that follow one holding the space in a chaining-context sequence.
    after_space: Vec<Coverage<'static>>,
}

impl Cuts {
    /// Whether a cut between a space and `next` leaves every lookup's result unchanged.
    pub fn allows(&self, next: GlyphId) -> bool {
        if self.gdef.is_some_and(|t| t.glyph_class(next) == Some(GlyphClass::Mark)) {
            return false;
        }
        if self.after_space.iter().any(|c| c.contains(next)) {
            return false;
        }
        if self.pair_sets.iter().any(|set| set.get(next).is_some_and(|(a, b)| moves(&a) || moves(&b))) {
            return false;
        }
        let classed = self.pair_classes.iter().any(|(table, first)| match table {
            PairAdjustment::Format2 { classes, matrix, .. } => {
                matrix.get((*first, classes.1.get(next))).is_some_and(|(a, b)| moves(&a) || moves(&b))
            }
            PairAdjustment::Format1 { .. } => false,
        });
        !classed && !self.kern.iter().any(|t| t.glyphs_kerning(self.space, next).is_some_and(|k| k != 0))
    }
}

/// Whether a value record changes a position. A pair whose records are both empty is
/// passed over by the shaper as if absent (it neither moves a glyph nor makes the shaper
/// skip the second glyph), so it does not bind the space to what follows.
fn moves(v: &ValueRecord<'_>) -> bool {
    v.x_placement != 0
        || v.y_placement != 0
        || v.x_advance != 0
        || v.y_advance != 0
        || v.x_placement_device.is_some()
        || v.y_placement_device.is_some()
        || v.x_advance_device.is_some()
        || v.y_advance_device.is_some()
}

impl SpaceContext {
    /// Reads the face's GSUB, GPOS and `kern` tables (every lookup, used or not).
    pub fn of(face: &Face<'static>) -> SpaceContext {
        let Some(space) = face.glyph_index(' ') else { return SpaceContext::Whole };
        let tables = face.tables();
        if tables.gdef.is_some_and(|t| t.glyph_class(space) == Some(GlyphClass::Mark)) {
            return SpaceContext::Whole;
        }
        let mut cuts = Cuts { space, gdef: tables.gdef, pair_sets: Vec::new(), pair_classes: Vec::new(), kern: Vec::new(), after_space: Vec::new() };
        let whole = tables.gsub.is_some_and(|t| !read_gsub(&t, &mut cuts)) || tables.gpos.is_some_and(|t| !read_gpos(&t, &mut cuts));
        if whole {
            return SpaceContext::Whole;
        }
        if let Some(k) = tables.kern {
            for sub in k.subtables {
                match sub.format {
                    kern::Format::Format0(_) | kern::Format::Format2(_) | kern::Format::Format3(_) => cuts.kern.push(sub),
                    // A state machine reads arbitrary context.
                    _ => return SpaceContext::Whole,
                }
            }
        }
        SpaceContext::Cuts(Box::new(cuts))
    }
}

/// Lookups that may skip base glyphs can match across the space and the glyph after it.
fn skips_bases(lookup: &Lookup<'_>) -> bool {
    lookup.flags.ignore_base_glyphs()
}

/// Reads GSUB; false when text in the face must be shaped whole.
fn read_gsub(table: &LayoutTable<'static>, cuts: &mut Cuts) -> bool {
    let space = cuts.space;
    for lookup in table.lookups {
        for sub in lookup.subtables.into_iter::<SubstitutionSubtable<'static>>() {
            let ok = match sub {
                SubstitutionSubtable::Context(c) => read_context(&c, space),
                SubstitutionSubtable::ChainContext(c) => read_chain(&c, cuts) && !skips_bases(&lookup),
                SubstitutionSubtable::Ligature(l) => {
                    !l.coverage.contains(space)
                        && !l.ligature_sets.into_iter().any(|set| set.into_iter().any(|lig| lig.components.into_iter().any(|g| g == space)))
                }
                other => !other.coverage().contains(space),
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Reads GPOS; false when text in the face must be shaped whole.
fn read_gpos(table: &LayoutTable<'static>, cuts: &mut Cuts) -> bool {
    let space = cuts.space;
    for lookup in table.lookups {
        let skips = skips_bases(&lookup);
        for sub in lookup.subtables.into_iter::<PositioningSubtable<'static>>() {
            let ok = match sub {
                PositioningSubtable::Single(_) => true,
                PositioningSubtable::Pair(pair) if skips => !pair.coverage().contains(space),
                PositioningSubtable::Pair(pair) => {
                    match pair {
                        PairAdjustment::Format1 { coverage, sets } => {
                            if let Some(set) = coverage.get(space).and_then(|i| sets.get(i)) {
                                cuts.pair_sets.push(set);
                            }
                        }
                        PairAdjustment::Format2 { coverage, classes, .. } => {
                            if coverage.contains(space) {
                                cuts.pair_classes.push((pair, classes.0.get(space)));
                            }
                        }
                    }
                    true
                }
                PositioningSubtable::Context(c) => read_context(&c, space),
                PositioningSubtable::ChainContext(c) => read_chain(&c, cuts) && !skips,
                // Attachment looks from a mark back to the glyph it sits on, ignoring the
                // lookup's own skipping; the cut is never before a mark.
                PositioningSubtable::MarkToBase(_) | PositioningSubtable::MarkToLigature(_) | PositioningSubtable::MarkToMark(_) => {
                    !sub.coverage().contains(space)
                }
                PositioningSubtable::Cursive(c) => !skips && !c.coverage.contains(space),
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// A context lookup matches input only: the space must not be part of it.
fn read_context(c: &ContextLookup<'static>, space: GlyphId) -> bool {
    match c {
        ContextLookup::Format3 { coverage, coverages, .. } => !coverage.contains(space) && !coverages.into_iter().any(|c| c.contains(space)),
        // Glyph and class sequences are not read here.
        _ => false,
    }
}

/// A chaining context may hold the space in its backtrack or lookahead; what may follow it
/// there joins `after_space`. The space in its input leaves the face whole.
fn read_chain(c: &ChainedContextLookup<'static>, cuts: &mut Cuts) -> bool {
    let ChainedContextLookup::Format3 { coverage, backtrack_coverages, input_coverages, lookahead_coverages, .. } = c else {
        return false;
    };
    if coverage.contains(cuts.space) || input_coverages.into_iter().any(|c| c.contains(cuts.space)) {
        return false;
    }
    // The whole sequence in text order: the backtrack is stored nearest glyph first.
    let mut sequence: Vec<Coverage<'static>> = backtrack_coverages.into_iter().collect();
    sequence.reverse();
    sequence.push(*coverage);
    sequence.extend(*input_coverages);
    sequence.extend(*lookahead_coverages);
    for pair in sequence.windows(2) {
        if pair[0].contains(cuts.space) {
            cuts.after_space.push(pair[1]);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::testing::fonts;

    fn cuts(family: &str) -> SpaceContext {
        let (face, _) = fonts().resolve_family(family, false, false).expect("a face");
        SpaceContext::of(face.shaper())
    }

    fn glyph(family: &str, c: char) -> GlyphId {
        let (face, _) = fonts().resolve_family(family, false, false).expect("a face");
        face.shaper().glyph_index(c).expect("a glyph")
    }

    #[test]
    fn liberation_kerns_the_space_before_a_capital_t_but_not_before_an_h() {
        let SpaceContext::Cuts(c) = cuts("Liberation Sans") else { panic!("Liberation Sans is shaped whole") };
        assert!(!c.allows(glyph("Liberation Sans", 'T')));
        assert!(!c.allows(glyph("Liberation Sans", 'Y')));
        assert!(c.allows(glyph("Liberation Sans", 'h')));
    }

    #[test]
    fn carlito_keeps_greek_capitals_with_the_space_before_them() {
        let SpaceContext::Cuts(c) = cuts("Carlito") else { panic!("Carlito is shaped whole") };
        assert!(!c.allows(glyph("Carlito", 'Ά')));
        assert!(c.allows(glyph("Carlito", 'A')));
    }
}
