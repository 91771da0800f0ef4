//! Faces hidden by a better face of the same family and style: two installed versions of
//! one family (Liberation 1.07 from fonts-liberation beside Liberation 2 from
//! fonts-liberation2) keep only the one with the most glyphs.

use fontdb::{Database, ID};
use rustybuzz::ttf_parser;

use crate::fast_map::FastMap;

/// Removes every face for which another face has the same first family name (any case),
/// style, weight and stretch and more glyphs; of equal counts the first loaded stays. A
/// query for the family would otherwise answer with whichever file was found first:
/// with both Liberation versions installed, Vietnamese letters (U+1EA0–U+1EF9, which
/// 1.07 lacks) came one by one from a fallback face, splitting words in extraction and
/// changing widths.
pub(crate) fn drop_shadowed(db: &mut Database) {
    let mut groups: FastMap<(String, u8, u16, u16), Vec<ID>> = FastMap::default();
    for face in db.faces() {
        let Some((family, _)) = face.families.first() else { continue };
        let style = face.style as u8;
        groups.entry((family.to_lowercase(), style, face.weight.0, face.stretch.to_number())).or_default().push(face.id);
    }
    let mut shadowed = Vec::new();
    for ids in groups.into_values().filter(|ids| ids.len() > 1) {
        let glyphs = |id: ID| db.with_face_data(id, |data, index| ttf_parser::Face::parse(data, index).map_or(0, |f| f.number_of_glyphs())).unwrap_or(0);
        let counts: Vec<u16> = ids.iter().map(|&id| glyphs(id)).collect();
        let best = (0..ids.len()).fold(0, |best, k| if counts[k] > counts[best] { k } else { best });
        shadowed.extend(ids.iter().enumerate().filter(|&(k, _)| k != best).map(|(_, &id)| id));
    }
    for id in shadowed {
        db.remove_face(id);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use fontdb::{FaceInfo, Family, Query, Source, Stretch, Style, Weight};

    use super::*;

    /// A face of `data` under the family name `family`.
    fn push(db: &mut Database, family: &str, data: Vec<u8>) -> ID {
        db.push_face_info(FaceInfo {
            id: ID::dummy(),
            source: Source::Binary(Arc::new(data)),
            index: 0,
            families: vec![(family.to_owned(), fontdb::Language::English_UnitedStates)],
            post_script_name: family.replace(' ', ""),
            style: Style::Normal,
            weight: Weight::NORMAL,
            stretch: Stretch::Normal,
            monospaced: false,
        })
    }

    #[test]
    fn of_two_faces_of_one_family_and_style_the_one_with_more_glyphs_stays() {
        // DejaVu Sans Mono has fewer glyphs than DejaVu Sans; both are given one name, the
        // smaller first, as an old version found before a new one.
        let mut db = Database::new();
        let small = push(&mut db, "Test Family", dejavu::sans_mono::regular().to_vec());
        let large = push(&mut db, "Test Family", dejavu::sans::regular().to_vec());
        let other = push(&mut db, "Other Family", dejavu::sans_mono::regular().to_vec());
        let query = Query { families: &[Family::Name("Test Family")], ..Query::default() };
        assert_eq!(db.query(&query), Some(small));
        drop_shadowed(&mut db);
        assert_eq!(db.query(&query), Some(large));
        assert!(db.face(small).is_none() && db.face(other).is_some());
    }
}
