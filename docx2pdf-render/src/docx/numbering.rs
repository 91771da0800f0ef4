//! `word/numbering.xml` (§17.9): abstract list definitions with their levels, and the
//! `w:num` instances with their level overrides.

use quick_xml::events::BytesStart;

use super::context::Story;
use super::drawing::{read_drawing, DrawingKind};
use super::model::{AbstractNum, LevelOverride, ListLevel, ListSuffix, NumInstance, NumberingDefs, Picture, RunContent};
use super::properties::{align, read_ppr, read_rpr};
use super::simple_types::{int, number_format};
use super::xml::{attr_raw, on_off, val, val_string, XmlReader};
use super::DocxError;

/// Reads a numbering part. Definitions without a usable id are skipped; the first
/// definition of an id wins. Picture bullets are read through the part's own story (its
/// relationships and media).
pub(crate) fn read_numbering(xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<NumberingDefs, DocxError> {
    let mut defs = NumberingDefs::default();
    if !xml.enter_root(&[b"numbering"])? {
        return Ok(defs);
    }
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"numPicBullet" => {
            let id = id_attr(&e, b"numPicBulletId");
            let picture = read_picture_bullet(xml, story)?;
            if let (Some(id), Some(picture)) = (id, picture) {
                defs.picture_bullets.entry(id).or_insert(picture);
            }
            Ok(())
        }
        b"abstractNum" => {
            let id = id_attr(&e, b"abstractNumId");
            let abs = read_abstract(xml)?;
            if let Some(id) = id {
                defs.abstracts.entry(id).or_insert(abs);
            }
            Ok(())
        }
        b"num" => {
            let id = id_attr(&e, b"numId");
            let num = read_num(xml)?;
            if let Some(id) = id {
                defs.nums.entry(id).or_insert(num);
            }
            Ok(())
        }
        _ => xml.skip(),
    })?;
    Ok(defs)
}

/// `w:numPicBullet` (§17.9.20): its picture, in `w:pict` (VML `v:imagedata`) or
/// `w:drawing`.
fn read_picture_bullet(xml: &mut XmlReader<'_>, story: &mut Story<'_>) -> Result<Option<Picture>, DocxError> {
    let mut picture = None;
    xml.children(|xml, e| {
        let kind = match e.local_name().as_ref() {
            b"pict" => DrawingKind::Pict,
            b"drawing" => DrawingKind::Drawing,
            _ => return xml.skip(),
        };
        if let Some(RunContent::Picture(p)) = read_drawing(xml, story, kind)? {
            picture.get_or_insert(*p);
        }
        Ok(())
    })?;
    Ok(picture)
}

fn id_attr(e: &BytesStart<'_>, local: &[u8]) -> Option<i64> {
    attr_raw(e, local).and_then(|v| int(&v))
}

/// A level index 0–8; anything else is dropped.
fn level_index(e: &BytesStart<'_>) -> Option<usize> {
    id_attr(e, b"ilvl").filter(|l| (0..9).contains(l)).map(|l| l as usize)
}

/// `w:abstractNum` (§17.9.1).
fn read_abstract(xml: &mut XmlReader<'_>) -> Result<AbstractNum, DocxError> {
    let mut abs = AbstractNum::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"lvl" => {
                let index = level_index(&e);
                let level = read_level(xml)?;
                if let Some(i) = index {
                    abs.levels[i].get_or_insert(level);
                }
                return Ok(());
            }
            b"numStyleLink" => abs.num_style_link = val_string(&e),
            b"styleLink" => abs.style_link = val_string(&e),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(abs)
}

/// `w:lvl` (§17.9.6).
fn read_level(xml: &mut XmlReader<'_>) -> Result<ListLevel, DocxError> {
    let mut level = ListLevel::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"start" => level.start = val(&e).and_then(|v| int(&v)),
            b"numFmt" => level.format = val(&e).map(|v| number_format(&v)),
            b"lvlText" => level.text = val_string(&e),
            b"lvlJc" => level.justification = val(&e).and_then(|v| align(&v)),
            b"suff" => {
                level.suffix = match val(&e).as_deref().map(<[u8]>::trim_ascii) {
                    Some(b"space") => Some(ListSuffix::Space),
                    Some(b"nothing") => Some(ListSuffix::Nothing),
                    Some(_) => Some(ListSuffix::Tab),
                    None => None,
                }
            }
            b"isLgl" => level.is_legal = on_off(&e),
            b"lvlPicBulletId" => level.picture_bullet = val(&e).and_then(|v| int(&v)),
            b"lvlRestart" => level.restart = val(&e).and_then(|v| int(&v)).map(|v| v.clamp(0, 9) as u8),
            b"pPr" => {
                level.paragraph = read_ppr(xml)?.props;
                return Ok(());
            }
            b"rPr" => {
                level.run = read_rpr(xml)?.props;
                return Ok(());
            }
            _ => {}
        }
        xml.skip()
    })?;
    Ok(level)
}

/// `w:num` (§17.9.15).
fn read_num(xml: &mut XmlReader<'_>) -> Result<NumInstance, DocxError> {
    let mut num = NumInstance { abstract_id: -1, overrides: Vec::new() };
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"abstractNumId" => {
            num.abstract_id = val(&e).and_then(|v| int(&v)).unwrap_or(-1);
            xml.skip()
        }
        b"lvlOverride" => {
            let Some(level) = level_index(&e) else { return xml.skip() };
            let mut o = LevelOverride { level: level as u8, ..Default::default() };
            xml.children(|xml, e| match e.local_name().as_ref() {
                b"startOverride" => {
                    o.start = val(&e).and_then(|v| int(&v));
                    xml.skip()
                }
                b"lvl" => {
                    o.replacement = Some(read_level(xml)?);
                    Ok(())
                }
                _ => xml.skip(),
            })?;
            num.overrides.push(o);
            Ok(())
        }
        _ => xml.skip(),
    })?;
    Ok(num)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{NumberFormat, NumberingDefs};
    use crate::deadline::Deadline;
    use crate::units::Twips;

    fn read(xml: &str) -> NumberingDefs {
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/numbering.xml", 64, &deadline);
        let rels = crate::docx::rels::Rels::default();
        let mut skipped = crate::docx::context::Skipped::default();
        read_numbering(&mut r, &mut Story::new(&rels, &mut skipped)).unwrap()
    }

    #[test]
    fn abstract_levels_keep_format_text_indent_and_number_font() {
        let d = read(
            r#"<w:numbering xmlns:w="w"><w:abstractNum w:abstractNumId="3">
                <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/>
                  <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>
                <w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/><w:suff w:val="space"/>
                  <w:lvlRestart w:val="0"/><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr></w:lvl>
              </w:abstractNum>
              <w:num w:numId="7"><w:abstractNumId w:val="3"/></w:num></w:numbering>"#,
        );
        let abs = &d.abstracts[&3];
        let l0 = abs.levels[0].as_ref().unwrap();
        assert_eq!((l0.start, l0.format.clone(), l0.text.as_deref()), (Some(1), Some(NumberFormat::Decimal), Some("%1.")));
        assert_eq!((l0.paragraph.indent.left, l0.paragraph.indent.hanging), (Some(Twips(720)), Some(Twips(360))));
        let l1 = abs.levels[1].as_ref().unwrap();
        assert_eq!(l1.format, Some(NumberFormat::Other("bullet".into())));
        assert_eq!((l1.suffix, l1.restart), (Some(ListSuffix::Space), Some(0)));
        assert!(l1.run.fonts.ascii.is_some());
        assert_eq!(d.nums[&7].abstract_id, 3);
    }

    #[test]
    fn level_overrides_keep_a_start_and_a_replacement_level() {
        let d = read(
            r#"<w:numbering><w:num w:numId="2"><w:abstractNumId w:val="0"/>
                <w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride>
                <w:lvlOverride w:ilvl="1"><w:lvl w:ilvl="1"><w:lvlText w:val="(%2)"/></w:lvl></w:lvlOverride>
              </w:num></w:numbering>"#,
        );
        let o = &d.nums[&2].overrides;
        assert_eq!((o[0].level, o[0].start), (0, Some(5)));
        assert_eq!(o[1].replacement.as_ref().and_then(|l| l.text.as_deref()), Some("(%2)"));
    }

    #[test]
    fn style_links_are_kept() {
        let d = read(
            r#"<w:numbering><w:abstractNum w:abstractNumId="1"><w:numStyleLink w:val="MyList"/></w:abstractNum>
              <w:abstractNum w:abstractNumId="2"><w:styleLink w:val="MyList"/></w:abstractNum></w:numbering>"#,
        );
        assert_eq!(d.abstracts[&1].num_style_link.as_deref(), Some("MyList"));
        assert_eq!(d.abstracts[&2].style_link.as_deref(), Some("MyList"));
    }
}
