//! List counters (§17.9): which level definition a `numPr` names, and the number each
//! list paragraph shows, counted in document order.
//!
//! Counting happens here rather than in layout because resolution visits every paragraph
//! exactly once, in reading order; layout may lay a paragraph out more than once.

use super::list_text::{expand, LevelValue};
use crate::docx::model::{AbstractNum, ListLevel, NumInstance, NumberFormat, NumberingDefs, Picture, StyleSheet};
use crate::fast_map::FastMap;

/// A `w:num` with its abstract definition, numbering-style links followed.
struct Found<'a> {
    /// The abstract definition whose counters the paragraph advances.
    key: i64,
    num: &'a NumInstance,
    abs: &'a AbstractNum,
}

/// The number a list paragraph shows, before its run properties are known.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Label<'a> {
    /// The expanded `w:lvlText`.
    pub text: String,
    /// The level drawn.
    pub level: &'a ListLevel,
    /// The level's picture bullet (§17.9.20), drawn in place of the text.
    pub picture: Option<&'a Picture>,
}

/// The list definitions and the counters of every list met so far.
pub(super) struct Lists<'a> {
    defs: &'a NumberingDefs,
    styles: &'a StyleSheet,
    counters: FastMap<i64, [Option<i64>; 9]>,
    /// The nums whose `w:startOverride`s have restarted their sequence.
    restarted: Vec<i64>,
}

impl<'a> Lists<'a> {
    /// Lists over a document's numbering and styles, no counter started.
    pub(super) fn new(defs: &'a NumberingDefs, styles: &'a StyleSheet) -> Lists<'a> {
        Lists { defs, styles, counters: FastMap::default(), restarted: Vec::new() }
    }

    fn find(&self, num_id: i64) -> Option<Found<'a>> {
        let num = self.defs.nums.get(&num_id)?;
        let mut abs_id = num.abstract_id;
        let mut abs = self.defs.abstracts.get(&abs_id)?;
        // §17.9.21: a `numStyleLink` borrows the levels of the numbering style's list;
        // followed once, so a style that links back cannot loop.
        if let Some(style) = &abs.num_style_link {
            let linked = self
                .styles
                .styles
                .get(style)
                .and_then(|s| s.paragraph.numbering)
                .and_then(|n| n.num_id)
                .and_then(|id| self.defs.nums.get(&id))
                .and_then(|n| Some((n.abstract_id, self.defs.abstracts.get(&n.abstract_id)?)));
            if let Some((id, linked)) = linked {
                (abs_id, abs) = (id, linked);
            }
        }
        Some(Found { key: abs_id, num, abs })
    }

    /// The definition of `level` in the list `num_id`: a replacement `w:lvl` of the num,
    /// else the abstract's.
    pub(super) fn level(&self, num_id: i64, level: u8) -> Option<&'a ListLevel> {
        self.find(num_id).and_then(|f| level_of(&f, level as usize))
    }

    /// Advances the counter of `level` in the list `num_id` and gives the paragraph's
    /// number; `None` when the list or level does not exist or the text is empty.
    pub(super) fn advance(&mut self, num_id: i64, level: u8) -> Option<Label<'a>> {
        let found = self.find(num_id)?;
        let ilvl = usize::from(level.min(8));
        let def = level_of(&found, ilvl)?;
        let levels: Vec<Option<&ListLevel>> = (0..9).map(|l| level_of(&found, l)).collect();
        let counters = self.counters.entry(found.key).or_insert([None; 9]);
        // Every num of one abstract definition counts in one sequence (notes §6); a num's
        // `w:startOverride` restarts it where that num is first used, and the nums after it
        // go on from there: dries007_Project2_Verslag (corpus/word) numbers its first
        // Heading 1 through a num restarting at 1, the next through the plain num of the
        // same definition, and Word shows 1 and 2.
        if !self.restarted.contains(&num_id) {
            let starts: Vec<u8> = found.num.overrides.iter().filter(|o| o.start.is_some()).map(|o| o.level).collect();
            if !starts.is_empty() {
                self.restarted.push(num_id);
                for level in starts {
                    if let Some(slot) = counters.get_mut(usize::from(level)) {
                        *slot = None;
                    }
                }
            }
        }
        // A level used before the levels above it counts them as used at their starts, so
        // that the next item of such a level is its second: in
        // AndresMunozB_Paradigmas-Scheme_Informe (corpus/word) three Heading 2 items at
        // level 1 show 1.1 to 1.3, an empty list paragraph at level 0 follows, and the
        // next Heading 2 shows 2.1.
        for (l, slot) in counters.iter_mut().enumerate().take(ilvl) {
            if slot.is_none() {
                *slot = levels[l].map(|d| start_of(&found, l, d));
            }
        }
        counters[ilvl] = Some(match counters[ilvl] {
            Some(n) => n + 1,
            None => start_of(&found, ilvl, def),
        });
        // §17.9.10: deeper levels restart after a shallower one advances, unless their
        // `w:lvlRestart` names a shallower level still (or 0, never).
        for (deeper, slot) in counters.iter_mut().enumerate().skip(ilvl + 1) {
            let restarts = match levels[deeper].and_then(|l| l.restart) {
                None => true,
                Some(0) => false,
                Some(after) => ilvl < usize::from(after),
            };
            if restarts {
                *slot = None;
            }
        }
        let template = def.text.as_deref().unwrap_or_default();
        let bullet = matches!(&def.format, Some(NumberFormat::Other(f)) if f == "bullet");
        let text = if bullet {
            // OI29500 2.1.283: a bullet's text is literal.
            template.to_string()
        } else {
            let values: Vec<LevelValue<'_>> = (0..=ilvl)
                .map(|l| LevelValue {
                    value: counters[l].unwrap_or_else(|| levels[l].map_or(0, |d| start_of(&found, l, d))),
                    format: levels[l].and_then(|d| d.format.as_ref()),
                })
                .collect();
            expand(template, ilvl, &values, def.is_legal)?
        };
        let picture = def.picture_bullet.and_then(|id| self.defs.picture_bullets.get(&id));
        (!text.is_empty() || picture.is_some()).then_some(Label { text, level: def, picture })
    }
}

fn level_of<'a>(found: &Found<'a>, level: usize) -> Option<&'a ListLevel> {
    let replaced = found.num.overrides.iter().find(|o| usize::from(o.level) == level).and_then(|o| o.replacement.as_ref());
    replaced.or_else(|| found.abs.levels.get(level)?.as_ref())
}

/// Where a level starts: the num's `w:startOverride`, else `w:start` (0 when absent,
/// §17.9.25).
fn start_of(found: &Found<'_>, level: usize, def: &ListLevel) -> i64 {
    found
        .num
        .overrides
        .iter()
        .find(|o| usize::from(o.level) == level)
        .and_then(|o| o.start)
        .or(def.start)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::LevelOverride;

    fn level(text: &str, format: NumberFormat) -> Option<ListLevel> {
        Some(ListLevel { start: Some(1), format: Some(format), text: Some(text.into()), ..Default::default() })
    }

    fn defs() -> NumberingDefs {
        let mut d = NumberingDefs::default();
        let mut abs = AbstractNum::default();
        abs.levels[0] = level("%1.", NumberFormat::Decimal);
        abs.levels[1] = level("%2)", NumberFormat::LowerLetter);
        d.abstracts.insert(0, abs);
        d.nums.insert(1, NumInstance { abstract_id: 0, overrides: vec![] });
        d.nums.insert(2, NumInstance { abstract_id: 0, overrides: vec![] });
        let restart = LevelOverride { level: 0, start: Some(5), replacement: None };
        d.nums.insert(3, NumInstance { abstract_id: 0, overrides: vec![restart] });
        d
    }

    fn texts(steps: &[(i64, u8)]) -> Vec<String> {
        let (d, s) = (defs(), StyleSheet::default());
        let mut lists = Lists::new(&d, &s);
        steps.iter().map(|&(n, l)| lists.advance(n, l).map(|l| l.text).unwrap_or_default()).collect()
    }

    #[test]
    fn a_nested_level_restarts_when_its_parent_advances() {
        assert_eq!(texts(&[(1, 0), (1, 1), (1, 1), (1, 0), (1, 1)]), ["1.", "a)", "b)", "2.", "a)"]);
    }

    #[test]
    fn nums_without_overrides_continue_one_sequence() {
        assert_eq!(texts(&[(1, 0), (2, 0), (1, 0)]), ["1.", "2.", "3."]);
    }

    #[test]
    fn a_start_override_restarts_the_sequence_once_and_the_others_go_on_from_there() {
        assert_eq!(texts(&[(1, 0), (3, 0), (3, 0), (1, 0), (3, 0)]), ["1.", "5.", "6.", "7.", "8."]);
    }

    #[test]
    fn a_level_restart_of_zero_keeps_counting() {
        let mut d = defs();
        d.abstracts.get_mut(&0).unwrap().levels[1].as_mut().unwrap().restart = Some(0);
        let s = StyleSheet::default();
        let mut lists = Lists::new(&d, &s);
        let got: Vec<String> = [(1, 1), (1, 0), (1, 1)].iter().map(|&(n, l)| lists.advance(n, l).unwrap().text).collect();
        assert_eq!(got, ["a)", "2.", "b)"]);
    }

    #[test]
    fn a_level_used_first_counts_the_levels_above_it_as_used() {
        assert_eq!(texts(&[(1, 1), (1, 1), (1, 0), (1, 1)]), ["a)", "b)", "2.", "a)"]);
    }

    #[test]
    fn an_unknown_list_has_no_number() {
        assert_eq!(texts(&[(9, 0), (1, 4)]), ["", ""]);
    }
}
