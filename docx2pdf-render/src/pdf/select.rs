//! Page selection (`1-3,7,10-`): which of the document's pages the PDF keeps, and the
//! outline entries and destinations that still have a page to lead to.

use crate::frame::{Layout, Size};

/// A page selection as written: 1-based ranges, inclusive, the end of one left open for
/// "to the last page". Pages are kept in the document's order whatever the order written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRanges {
    /// First and last page of each range, from 1; `None` for "to the end".
    ranges: Vec<(u32, Option<u32>)>,
    /// The selection as it was written, for messages.
    text: String,
}

/// Why a page selection cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// Nothing between two commas, or nothing at all.
    #[error("it has an empty range; write pages and ranges separated by commas, e.g. 1-3,7,10-")]
    Empty,
    /// A page number that is not a whole number (or too large to be a page).
    #[error("{0:?} is not a page number or a range such as 1-3, 7 or 10-")]
    NotANumber(String),
    /// Page 0: pages are counted from 1.
    #[error("pages are counted from 1, and {0:?} names page 0")]
    Zero(String),
    /// A range that ends before it starts.
    #[error("the range {0:?} ends before it starts")]
    Descending(String),
}

impl PageRanges {
    /// Reads `1-3,7,10-`: pages and ranges separated by commas, spaces allowed around
    /// each; `10-` runs to the last page.
    pub fn parse(text: &str) -> Result<PageRanges, RangeError> {
        let mut ranges = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(RangeError::Empty);
            }
            // Messages quote the range, cut short: a field may be long.
            let shown = || item.chars().take(32).collect::<String>();
            let number = |s: &str| -> Result<u32, RangeError> {
                let s = s.trim();
                if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(RangeError::NotANumber(shown()));
                }
                match s.parse::<u32>() {
                    Ok(0) => Err(RangeError::Zero(shown())),
                    Ok(n) => Ok(n),
                    Err(_) => Err(RangeError::NotANumber(shown())),
                }
            };
            let range = match item.split_once('-') {
                None => {
                    let page = number(item)?;
                    (page, Some(page))
                }
                Some((first, "")) => (number(first)?, None),
                Some((first, last)) => {
                    let (first, last) = (number(first)?, number(last)?);
                    if last < first {
                        return Err(RangeError::Descending(shown()));
                    }
                    (first, Some(last))
                }
            };
            ranges.push(range);
        }
        Ok(PageRanges { ranges, text: text.trim().to_owned() })
    }

    /// The selection as it was written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Which of a document's `count` pages the selection keeps; pages past the end are
    /// not there to keep.
    pub fn select(&self, count: usize) -> Selection {
        // Ranges clamped to the document and merged, so that a selection of many wide
        // ranges costs no more than the pages it names.
        let mut spans: Vec<(usize, usize)> = self
            .ranges
            .iter()
            .map(|&(first, last)| (first as usize - 1, last.map_or(count, |l| (l as usize).min(count))))
            .filter(|&(start, end)| start < end)
            .collect();
        spans.sort_unstable();
        let mut index = vec![None; count];
        let mut kept = 0;
        let mut next = 0;
        for (start, end) in spans {
            for slot in &mut index[start.max(next)..end.max(next)] {
                *slot = Some(kept);
                kept += 1;
            }
            next = next.max(end);
        }
        Selection { index, kept }
    }
}

/// The pages a selection keeps out of a document's, and where each lands in the PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// For each page of the document, its index in the PDF when it is kept.
    index: Vec<Option<usize>>,
    /// How many pages are kept.
    kept: usize,
}

impl Selection {
    /// How many pages the PDF keeps.
    pub fn len(&self) -> usize {
        self.kept
    }

    /// Whether no page is left.
    pub fn is_empty(&self) -> bool {
        self.kept == 0
    }

    /// Whether the document's page `page` (from 0) is kept.
    pub fn keeps(&self, page: usize) -> bool {
        self.index.get(page).is_some_and(Option::is_some)
    }

    /// The sizes of the pages kept, in order, out of the sizes of all the document's.
    pub fn sizes(&self, sizes: &[Size]) -> Vec<Size> {
        sizes.iter().zip(&self.index).filter(|(_, i)| i.is_some()).map(|(s, _)| *s).collect()
    }

    /// Points the layout's outline entries and destinations at the pages of the PDF;
    /// those on a page left out are dropped, so no bookmark or link leads to a page that
    /// is not there (ISO 32000-1 §12.3.2: a destination names a page of the document).
    pub fn apply(&self, layout: &mut Layout) {
        let moved = |page: usize| self.index.get(page).copied().flatten();
        layout.outline.retain_mut(|entry| match moved(entry.page) {
            Some(page) => {
                entry.page = page;
                true
            }
            None => false,
        });
        layout.destinations.retain(|_, (page, _)| match moved(*page) {
            Some(to) => {
                *page = to;
                true
            }
            None => false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{OutlineEntry, Point};
    use crate::units::Pt;

    fn kept(text: &str, count: usize) -> Vec<usize> {
        let selection = PageRanges::parse(text).unwrap().select(count);
        (0..count).filter(|&p| selection.keeps(p)).map(|p| p + 1).collect()
    }

    #[test]
    fn ranges_single_pages_and_an_open_end_are_read() {
        assert_eq!(kept("1-3,7,10-", 12), [1, 2, 3, 7, 10, 11, 12]);
        assert_eq!(kept(" 2 - 3 , 5 ", 6), [2, 3, 5]);
        assert_eq!(kept("4-", 5), [4, 5]);
    }

    #[test]
    fn pages_come_in_the_documents_order_once_each() {
        assert_eq!(kept("7,1-3,2,3-4", 8), [1, 2, 3, 4, 7]);
        let selection = PageRanges::parse("3,1").unwrap().select(3);
        assert_eq!(selection.index, [Some(0), None, Some(1)]);
    }

    #[test]
    fn pages_past_the_end_are_ignored_and_may_leave_none() {
        assert_eq!(kept("2-9,40", 3), [2, 3]);
        let selection = PageRanges::parse("4-,9").unwrap().select(3);
        assert!(selection.is_empty());
        assert_eq!(selection.len(), 0);
        assert!(!PageRanges::parse("1-4000000000").unwrap().select(2).is_empty());
    }

    #[test]
    fn malformed_selections_are_refused_naming_the_range() {
        assert_eq!(PageRanges::parse(""), Err(RangeError::Empty));
        assert_eq!(PageRanges::parse("1,,3"), Err(RangeError::Empty));
        assert_eq!(PageRanges::parse("1,"), Err(RangeError::Empty));
        assert_eq!(PageRanges::parse("0-2"), Err(RangeError::Zero("0-2".into())));
        assert_eq!(PageRanges::parse("5-3"), Err(RangeError::Descending("5-3".into())));
        for bad in ["a", "1-b", "-3", "1--2", "+1", "1.5", "1-2-3", "99999999999", "١"] {
            assert!(matches!(PageRanges::parse(bad), Err(RangeError::NotANumber(_))), "{bad}");
        }
        assert!(PageRanges::parse("5-3").unwrap_err().to_string().contains("\"5-3\""));
    }

    #[test]
    fn outline_entries_and_destinations_follow_their_pages_or_go() {
        let mut layout = Layout::default();
        for (title, page) in [("One", 0), ("Two", 1), ("Three", 2)] {
            layout.outline.push(OutlineEntry { level: 1, title: title.into(), page, y: Pt::ZERO });
            layout.destinations.insert(title.into(), (page, Point::new(Pt::ZERO, Pt::ZERO)));
        }
        PageRanges::parse("1,3").unwrap().select(3).apply(&mut layout);
        let outline: Vec<(&str, usize)> = layout.outline.iter().map(|e| (e.title.as_str(), e.page)).collect();
        assert_eq!(outline, [("One", 0), ("Three", 1)]);
        let dests: Vec<(&str, usize)> = layout.destinations.iter().map(|(n, (p, _))| (n.as_str(), *p)).collect();
        assert_eq!(dests, [("One", 0), ("Three", 1)]);
    }

    #[test]
    fn the_sizes_kept_are_those_of_the_pages_kept() {
        let size = |w: f64| Size { width: Pt(w), height: Pt(1.0) };
        let selection = PageRanges::parse("2-").unwrap().select(3);
        assert_eq!(selection.sizes(&[size(1.0), size(2.0), size(3.0)]), [size(2.0), size(3.0)]);
    }
}
