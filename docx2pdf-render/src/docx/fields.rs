//! Fields (§17.16): the state of complex fields (`w:fldChar` begin/separate/end with
//! `w:instrText`, nested) and simple fields (`w:fldSimple`). Page-dependent fields become
//! `RunContent::Field`; HYPERLINK fields, and cross-references with `\h` (REF, NOTEREF,
//! PAGEREF), become links; every other field shows its cached result (Word prints cached
//! results, apart from page numbers, unless told to update).

use std::sync::Arc;

use super::model::{FieldKind, LinkTarget};

/// Longest instruction kept: the field type and a hyperlink target are near the start.
const MAX_INSTRUCTION: usize = 2048;

/// What the reader must emit when a field changes phase.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FieldAction {
    /// A page-dependent field's value, filled in after pagination.
    Field(FieldKind),
    /// A page-dependent field's value that is also a link (`PAGEREF … \h`).
    LinkedField(FieldKind, LinkTarget),
    /// A HYPERLINK field's result starts.
    LinkStart(LinkTarget),
    /// A HYPERLINK field's result ends.
    LinkEnd,
}

#[derive(Debug, PartialEq)]
enum Phase {
    /// Between `begin` and `separate`: instruction text.
    Code,
    /// Between `separate` and `end`: the cached result.
    Result,
}

#[derive(Debug)]
struct Frame {
    phase: Phase,
    instruction: String,
    /// The field's kind once its instruction is known.
    kind: Option<Kind>,
    /// A `w:fldSimple` whose page field waits for its first run to carry its properties.
    pending_simple: bool,
    /// The cached result of a PAGEREF, read while hidden.
    cached: String,
    /// A PAGEREF whose `\h` makes it a link to its bookmark.
    linked: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Page(FieldKind),
    Link(LinkTarget),
    /// A table of contents (§17.16.5.68): its result is the entries.
    Toc,
    Other,
}

/// The open fields of one story (body, header, footer), innermost last. Fields may span
/// runs and paragraphs, so this lives as long as the part is read.
#[derive(Debug, Default)]
pub(crate) struct FieldStack {
    frames: Vec<Frame>,
    /// How many TOC fields have reached their result, so a paragraph can tell whether one
    /// began in it.
    tocs: u32,
}

impl FieldStack {
    /// Whether result content (text, tabs, breaks…) is shown here: every open field is in
    /// its result and none is a page field, whose cached value is replaced.
    pub(crate) fn visible(&self) -> bool {
        self.frames
            .iter()
            .all(|f| f.phase == Phase::Result && !matches!(f.kind, Some(Kind::Page(_))))
    }

    /// Whether text here is the hidden cached result of a PAGEREF, kept for its width.
    pub(crate) fn in_page_ref_result(&self) -> bool {
        self.frames.last().is_some_and(|f| {
            f.phase == Phase::Result && matches!(f.kind, Some(Kind::Page(FieldKind::PageRef { .. })))
        })
    }

    /// Cached result text of the innermost PAGEREF.
    pub(crate) fn cached_text(&mut self, text: &str) {
        if let Some(f) = self.frames.last_mut().filter(|f| f.cached.len() + text.len() <= MAX_INSTRUCTION) {
            f.cached.push_str(text);
        }
    }

    /// A mark of where the TOC fields stand, for [`FieldStack::in_toc_since`].
    pub(crate) fn toc_mark(&self) -> (bool, u32) {
        (self.frames.iter().any(|f| f.kind == Some(Kind::Toc)), self.tocs)
    }

    /// Whether content between `mark` and now is part of a TOC field's result: one was
    /// open at the mark, is open now, or began in between.
    pub(crate) fn in_toc_since(&self, mark: (bool, u32)) -> bool {
        let (open, count) = self.toc_mark();
        mark.0 || open || count != mark.1
    }

    /// Whether instruction text is being collected (the innermost field is in its code).
    pub(crate) fn in_code(&self) -> bool {
        self.frames.last().is_some_and(|f| f.phase == Phase::Code)
    }

    /// `w:fldChar w:fldCharType="begin"`.
    pub(crate) fn begin(&mut self) {
        self.frames.push(Frame {
            phase: Phase::Code,
            instruction: String::new(),
            kind: None,
            pending_simple: false,
            cached: String::new(),
            linked: false,
        });
    }

    /// `w:instrText`: appended to the innermost field while in its code.
    pub(crate) fn instruction(&mut self, text: &str) {
        if let Some(f) = self.frames.last_mut().filter(|f| f.phase == Phase::Code) {
            if f.instruction.len() + text.len() <= MAX_INSTRUCTION {
                f.instruction.push_str(text);
            }
        }
    }

    /// `w:fldChar w:fldCharType="separate"`: the instruction is complete.
    pub(crate) fn separate(&mut self) -> Option<FieldAction> {
        let n = self.frames.len();
        let outer_visible = n > 0 && self.frames[..n - 1].iter().all(is_visible);
        let f = self.frames.last_mut().filter(|f| f.phase == Phase::Code)?;
        f.phase = Phase::Result;
        let instruction = std::mem::take(&mut f.instruction);
        let kind = classify(&instruction);
        f.kind = Some(kind.clone());
        if kind == Kind::Toc {
            self.tocs += 1;
        }
        // A PAGEREF is emitted at its end, when its cached result is known.
        if matches!(kind, Kind::Page(FieldKind::PageRef { .. })) {
            f.linked = has_switch(&instruction, 'h');
            return None;
        }
        outer_visible.then(|| action_at_start(&kind)).flatten()
    }

    /// `w:fldChar w:fldCharType="end"`. A field without `separate` has no cached result:
    /// a page field still needs its value, so it is emitted here.
    pub(crate) fn end(&mut self) -> Option<FieldAction> {
        let f = self.frames.pop()?;
        if !self.frames.iter().all(is_visible) {
            return None;
        }
        match (f.phase, f.kind) {
            (Phase::Code, _) => match classify(&f.instruction) {
                Kind::Page(k) => Some(FieldAction::Field(k)),
                _ => None,
            },
            (Phase::Result, Some(Kind::Link(_))) => Some(FieldAction::LinkEnd),
            (Phase::Result, Some(Kind::Page(FieldKind::PageRef { bookmark, .. }))) => {
                let target = f.linked.then(|| LinkTarget::Internal(bookmark.to_string()));
                let field = FieldKind::PageRef { bookmark, cached: Arc::from(f.cached.trim()) };
                Some(match target {
                    Some(target) => FieldAction::LinkedField(field, target),
                    None => FieldAction::Field(field),
                })
            }
            _ => None,
        }
    }

    /// A `w:fldSimple@w:instr` opens (§17.16.19): its children are the cached result.
    /// A page field is emitted by [`FieldStack::take_pending_simple`] in its first run, so
    /// that it carries that run's properties.
    pub(crate) fn begin_simple(&mut self, instruction: &str) -> Option<FieldAction> {
        let outer_visible = self.visible();
        let kind = classify(instruction);
        let pending_simple = outer_visible && matches!(kind, Kind::Page(_));
        let action = match kind {
            Kind::Link(_) if outer_visible => action_at_start(&kind),
            _ => None,
        };
        self.frames.push(Frame {
            phase: Phase::Result,
            instruction: String::new(),
            kind: Some(kind),
            pending_simple,
            cached: String::new(),
            linked: false,
        });
        action
    }

    /// The page field of the innermost `w:fldSimple`, the first time its content asks.
    pub(crate) fn take_pending_simple(&mut self) -> Option<FieldKind> {
        let f = self.frames.last_mut().filter(|f| f.pending_simple)?;
        f.pending_simple = false;
        match &f.kind {
            Some(Kind::Page(k)) => Some(k.clone()),
            _ => None,
        }
    }

    /// The `w:fldSimple` closes: a page field that met no run is emitted bare.
    pub(crate) fn end_simple(&mut self) -> Option<FieldAction> {
        let f = self.frames.pop()?;
        match f.kind {
            Some(Kind::Page(k)) if f.pending_simple => Some(FieldAction::Field(k)),
            Some(Kind::Link(_)) if self.visible() => Some(FieldAction::LinkEnd),
            _ => None,
        }
    }
}

fn is_visible(f: &Frame) -> bool {
    f.phase == Phase::Result && !matches!(f.kind, Some(Kind::Page(_)))
}

fn action_at_start(kind: &Kind) -> Option<FieldAction> {
    match kind {
        Kind::Page(k) => Some(FieldAction::Field(k.clone())),
        Kind::Link(t) => Some(FieldAction::LinkStart(t.clone())),
        Kind::Toc | Kind::Other => None,
    }
}

/// The field type is the first word of the instruction (§17.16.5), case-insensitive.
fn classify(instruction: &str) -> Kind {
    let mut words = instruction.split_ascii_whitespace();
    let Some(name) = words.next() else { return Kind::Other };
    let args = instruction[instruction.find(name).unwrap_or(0) + name.len()..].trim();
    if name.eq_ignore_ascii_case("PAGE") {
        Kind::Page(FieldKind::Page)
    } else if name.eq_ignore_ascii_case("NUMPAGES") {
        Kind::Page(FieldKind::NumPages)
    } else if name.eq_ignore_ascii_case("SECTIONPAGES") {
        Kind::Page(FieldKind::SectionPages)
    } else if name.eq_ignore_ascii_case("PAGEREF") {
        // §17.16.5.45: the bookmark is the first argument; `\h` links, `\p` says "above"
        // or "below" (not supported: the cached text stays).
        match bookmark_argument(args) {
            Some(bookmark) if !args.contains("\\p") => {
                Kind::Page(FieldKind::PageRef { bookmark: Arc::from(bookmark), cached: Arc::from("") })
            }
            _ => Kind::Other,
        }
    } else if name.eq_ignore_ascii_case("HYPERLINK") {
        hyperlink_target(args).map_or(Kind::Other, Kind::Link)
    } else if name.eq_ignore_ascii_case("TOC") {
        Kind::Toc
    } else if name.eq_ignore_ascii_case("REF") || name.eq_ignore_ascii_case("NOTEREF") {
        // §17.16.5.52 REF and §17.16.5.41 NOTEREF: `\h` makes the result a link to the
        // bookmark, the first argument.
        match bookmark_argument(args) {
            Some(bookmark) if has_switch(args, 'h') => Kind::Link(LinkTarget::Internal(bookmark)),
            _ => Kind::Other,
        }
    } else {
        Kind::Other
    }
}

/// The bookmark a cross-reference names: its first argument, unless that is a switch.
fn bookmark_argument(args: &str) -> Option<String> {
    next_argument(args).map(|(bookmark, _)| bookmark).filter(|b| !b.starts_with('\\'))
}

/// Whether an instruction has the switch `\c` outside quoted arguments.
fn has_switch(instruction: &str, c: char) -> bool {
    let mut rest = instruction;
    while let Some((arg, tail)) = next_argument(rest) {
        let quoted = rest.trim_start().starts_with('"');
        rest = tail;
        let mut chars = arg.chars();
        if !quoted && chars.next() == Some('\\') && chars.next().is_some_and(|s| s.eq_ignore_ascii_case(&c)) && chars.next().is_none() {
            return true;
        }
    }
    false
}

/// `HYPERLINK "url" \l "anchor"` (§17.16.5.25): the first argument is the target, `\l`
/// names a bookmark; other switches (`\o` tooltip, `\t` frame…) are ignored.
fn hyperlink_target(args: &str) -> Option<LinkTarget> {
    let mut url = None;
    let mut anchor = None;
    let mut rest = args;
    let mut after_switch: Option<char> = None;
    while let Some((arg, tail)) = next_argument(rest) {
        rest = tail;
        if let Some(s) = arg.strip_prefix('\\').filter(|_| !arg.is_empty()) {
            after_switch = s.chars().next();
            continue;
        }
        match after_switch.take() {
            Some('l') => anchor = Some(arg),
            Some(_) => {}
            None if url.is_none() => url = Some(arg),
            None => {}
        }
    }
    match (url.filter(|u| !u.is_empty()), anchor.filter(|a| !a.is_empty())) {
        (Some(u), Some(a)) => Some(LinkTarget::External(format!("{u}#{a}"))),
        (Some(u), None) => Some(LinkTarget::External(u)),
        (None, Some(a)) => Some(LinkTarget::Internal(a)),
        (None, None) => None,
    }
}

/// The next argument of an instruction: a quoted string (quotes removed) or a word.
fn next_argument(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    if let Some(quoted) = s.strip_prefix('"') {
        let end = quoted.find('"').unwrap_or(quoted.len());
        // Word doubles backslashes inside quoted paths.
        let arg = quoted[..end].replace("\\\\", "\\");
        return Some((arg, quoted.get(end + 1..).unwrap_or("")));
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((s[..end].to_owned(), &s[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_field_is_emitted_at_separate_and_its_result_hidden() {
        let mut f = FieldStack::default();
        f.begin();
        assert!(!f.visible());
        f.instruction(" PAGE  \\* MERGEFORMAT ");
        assert_eq!(f.separate(), Some(FieldAction::Field(FieldKind::Page)));
        assert!(!f.visible());
        assert_eq!(f.end(), None);
        assert!(f.visible());
    }

    #[test]
    fn other_field_shows_its_cached_result() {
        let mut f = FieldStack::default();
        f.begin();
        f.instruction("DATE \\@ \"d MMMM yyyy\"");
        assert_eq!(f.separate(), None);
        assert!(f.visible());
        f.end();
    }

    #[test]
    fn page_field_without_separate_is_emitted_at_end() {
        let mut f = FieldStack::default();
        f.begin();
        f.instruction("numpages");
        assert_eq!(f.end(), Some(FieldAction::Field(FieldKind::NumPages)));
    }

    #[test]
    fn nested_field_in_code_is_hidden() {
        let mut f = FieldStack::default();
        f.begin();
        f.instruction("IF ");
        f.begin();
        f.instruction("PAGE");
        // The inner page field is part of the outer instruction: never shown.
        assert_eq!(f.separate(), None);
        f.end();
        assert!(!f.visible());
        f.instruction(" = 1 \"first\"");
        f.separate();
        assert!(f.visible());
    }

    #[test]
    fn pageref_is_filled_from_pagination_and_its_cached_number_hidden() {
        let mut f = FieldStack::default();
        f.begin();
        f.instruction("PAGEREF _Toc123 \\h");
        assert_eq!(f.separate(), None);
        assert!(!f.visible() && f.in_page_ref_result());
        f.cached_text("12");
        let field = FieldKind::PageRef { bookmark: "_Toc123".into(), cached: "12".into() };
        // `\h` makes the number a link to the bookmark.
        assert_eq!(f.end(), Some(FieldAction::LinkedField(field.clone(), LinkTarget::Internal("_Toc123".into()))));
        f.begin();
        f.instruction("PAGEREF _Toc123");
        f.separate();
        f.cached_text("12");
        assert_eq!(f.end(), Some(FieldAction::Field(field)));
        // `\p` ("above"/"below") is not computed: the cached text stays.
        f.begin();
        f.instruction("PAGEREF _Toc9 \\p");
        assert_eq!(f.separate(), None);
        assert!(f.visible());
    }

    #[test]
    fn hyperlink_field_becomes_a_link() {
        let mut f = FieldStack::default();
        f.begin();
        f.instruction("HYPERLINK \"https://example.com/\" \\o \"tip\"");
        assert_eq!(
            f.separate(),
            Some(FieldAction::LinkStart(LinkTarget::External(
                "https://example.com/".into()
            )))
        );
        assert_eq!(f.end(), Some(FieldAction::LinkEnd));
        let mut f = FieldStack::default();
        f.begin();
        f.instruction("HYPERLINK \\l \"_Toc1\"");
        assert_eq!(
            f.separate(),
            Some(FieldAction::LinkStart(LinkTarget::Internal("_Toc1".into())))
        );
    }

    #[test]
    fn cross_references_with_h_are_links_to_their_bookmark() {
        for instruction in ["REF _Ref42 \\h", " NOTEREF _Ref42 \\f \\h ", "ref _Ref42 \\H \\* MERGEFORMAT"] {
            let mut f = FieldStack::default();
            f.begin();
            f.instruction(instruction);
            assert_eq!(f.separate(), Some(FieldAction::LinkStart(LinkTarget::Internal("_Ref42".into()))), "{instruction}");
            assert!(f.visible());
            assert_eq!(f.end(), Some(FieldAction::LinkEnd));
        }
        // Without `\h`, or with the switch only quoted, the result is plain text.
        for instruction in ["REF _Ref42", "REF _Ref42 \\* \"\\h\""] {
            let mut f = FieldStack::default();
            f.begin();
            f.instruction(instruction);
            assert_eq!(f.separate(), None, "{instruction}");
            assert_eq!(f.end(), None);
        }
        let mut f = FieldStack::default();
        assert_eq!(f.begin_simple(" REF _Ref7 \\h "), Some(FieldAction::LinkStart(LinkTarget::Internal("_Ref7".into()))));
        assert_eq!(f.end_simple(), Some(FieldAction::LinkEnd));
    }

    #[test]
    fn content_after_a_toc_field_begins_and_before_it_ends_is_in_the_toc() {
        let mut f = FieldStack::default();
        let before = f.toc_mark();
        f.begin();
        f.instruction(" TOC \\o \"1-3\" \\h ");
        assert_eq!(f.separate(), None);
        assert!(f.in_toc_since(before), "the paragraph where the field begins");
        let inside = f.toc_mark();
        assert!(f.in_toc_since(inside));
        f.end();
        assert!(f.in_toc_since(inside), "the paragraph where it ends");
        let after = f.toc_mark();
        assert!(!f.in_toc_since(after));
    }

    #[test]
    fn simple_page_field_waits_for_its_run() {
        let mut f = FieldStack::default();
        assert_eq!(f.begin_simple(" SECTIONPAGES "), None);
        assert!(!f.visible());
        assert_eq!(f.take_pending_simple(), Some(FieldKind::SectionPages));
        assert_eq!(f.take_pending_simple(), None);
        assert_eq!(f.end_simple(), None);
    }
}
