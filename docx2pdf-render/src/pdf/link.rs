//! Links and named destinations: link areas become borderless Link annotations (ISO 32000-1 §12.5.6.5), bookmark names a name tree of destinations.

use std::borrow::Cow;
use std::collections::BTreeMap;

use pdf_writer::types::{ActionType, AnnotationFlags, AnnotationType};
use pdf_writer::writers::Destination;
use pdf_writer::{Chunk, Finish, Name, Rect, Ref, Str, TextStr};
use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};

use super::document::{Refs, Targets};
use super::structure::Tagging;
use crate::frame::{Item, LinkDest, Page, Point};

/// Where a link annotation leads, once its named destination is resolved.
enum Target<'a> {
    Uri(&'a str),
    Xyz(usize, Point),
}

/// Writes the Link annotations of `page` and appends their references to `out`, in item
/// order. A named link whose destination is missing (or points past the last page) is
/// skipped: a dead link is worse than none; so is a link whose scheme may not act
/// (link_scheme.rs), which is noted in `inert`.
pub(super) fn write_annotations(
    chunk: &mut Chunk,
    refs: &mut Refs,
    page: &Page,
    destinations: &BTreeMap<String, (usize, Point)>,
    targets: &Targets,
    out: &mut Vec<Ref>,
    (tagging, index): (&mut Tagging<'_>, usize),
    inert: &mut super::link_scheme::InertLinks,
) {
    let height = page.size.height.get();
    for positioned in &page.items {
        let Item::Link(link) = &positioned.item else {
            continue;
        };
        let target = match &link.dest {
            LinkDest::Uri(uri) if super::link_scheme::acts(uri) => Target::Uri(uri),
            LinkDest::Uri(uri) => {
                inert.note(uri);
                continue;
            }
            LinkDest::Named(name) => match destinations.get(name) {
                Some(&(page, point)) if targets.contains(page) => Target::Xyz(page, point),
                _ => continue,
            },
        };

        let id = refs.alloc();
        out.push(id);
        let (x, top) = (positioned.pos.x.get(), positioned.pos.y.get());
        let (width, depth) = (link.size.width.get(), link.size.height.get());
        let mut annotation = chunk.annotation(id);
        annotation
            .subtype(AnnotationType::Link)
            .rect(Rect::new(
                x as f32,
                (height - top - depth) as f32,
                (x + width) as f32,
                (height - top) as f32,
            ))
            // Word draws no box around links; the default border is 1 pt wide (§12.5.2).
            .border(0.0, 0.0, 0.0, None)
            .flags(AnnotationFlags::PRINT);
        // The Link element owns the annotation (ISO 32000-1 §14.7.4.3), and the
        // annotation says what it is (ISO 14289-1 §7.18.1): the link's text, else its target.
        if let Some((key, text)) = tagging.annotation(positioned.tag, index, id) {
            annotation.struct_parent(key);
            let contents = match (&target, text.is_empty()) {
                (_, false) => text,
                (Target::Uri(uri), true) => (*uri).to_owned(),
                (Target::Xyz(..), true) => match &link.dest {
                    LinkDest::Named(name) => name.clone(),
                    LinkDest::Uri(uri) => uri.clone(),
                },
            };
            annotation.contents(TextStr(&contents));
        }
        let mut action = annotation.action();
        match target {
            Target::Uri(uri) => {
                action
                    .action_type(ActionType::Uri)
                    .uri(Str(percent_encode(uri).as_bytes()));
            }
            Target::Xyz(page, point) => {
                action.action_type(ActionType::GoTo);
                targets.write_xyz(action.destination(), page, point);
            }
        }
        action.finish();
        annotation.finish();
    }
}

/// Writes the name tree of all destinations whose page exists; `None` when there is none.
/// One leaf root suffices: viewers handle thousands of entries in a flat Names array.
pub(super) fn write_destinations(
    chunk: &mut Chunk,
    refs: &mut Refs,
    destinations: &BTreeMap<String, (usize, Point)>,
    targets: &Targets,
) -> Option<Ref> {
    let mut valid = destinations
        .iter()
        .filter(|(_, (page, _))| targets.contains(*page))
        .peekable();
    valid.peek()?;
    let id = refs.alloc();
    let mut tree = chunk.indirect(id).dict();
    let mut names = tree.insert(Name(b"Names")).array();
    // Keys must ascend in byte order (§7.9.6); BTreeMap<String> iterates in exactly that
    // order, UTF-8 bytes compared lexicographically.
    for (name, &(page, point)) in valid {
        names.item(Str(name.as_bytes()));
        targets.write_xyz(names.push().start::<Destination>(), page, point);
    }
    names.finish();
    tree.finish();
    Some(id)
}

/// What a URI may not hold as it is (§12.6.4.7, RFC 3986): controls, the space and DEL;
/// non-ASCII bytes are always encoded.
const NOT_IN_URI: &AsciiSet = &CONTROLS.add(b' ');

/// URIs are 7-bit ASCII (§12.6.4.7, RFC 3986): spaces, controls and non-ASCII bytes are
/// percent-encoded as browsers do.
fn percent_encode(uri: &str) -> Cow<'_, str> {
    utf8_percent_encode(uri, NOT_IN_URI).into()
}
