//! The documents the fuzz harness mutates: fixtures built here, covering the reader's main
//! paths (styles, runs, tables, lists, pictures, sections, text boxes, fields, bidi), and
//! the shared corpus when it is present.

use std::path::Path;

use crate::common::docx::{docx, docx_with_image, docx_with_part, inline_picture, paragraph, png};

const NUMBERING: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl><w:lvl w:ilvl="1"><w:start w:val="3"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%1.%2)"/><w:lvlJc w:val="right"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#;

const SECTION: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/><w:cols w:num="2" w:space="720"/></w:sectPr>"#;

fn table(rows: usize, cols: usize, inner: &str) -> String {
    let cell = format!(
        r#"<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/><w:gridSpan w:val="1"/><w:vMerge w:val="restart"/></w:tcPr>{}{inner}</w:tc>"#,
        paragraph("cell")
    );
    let row = format!(r#"<w:tr><w:trPr><w:trHeight w:val="400"/></w:trPr>{}</w:tr>"#, cell.repeat(cols));
    format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders><w:top w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid>{}</w:tblGrid>{}</w:tbl><w:p/>"#,
        r#"<w:gridCol w:w="2000"/>"#.repeat(cols),
        row.repeat(rows)
    )
}

/// The fixtures: small, so that thousands of renders fit a debug test run.
pub fn fixtures() -> Vec<(String, Vec<u8>)> {
    let styled = r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:jc w:val="center"/><w:spacing w:before="240" w:after="120" w:line="360" w:lineRule="auto"/><w:ind w:left="360" w:right="360" w:firstLine="720"/></w:pPr><w:r><w:rPr><w:b/><w:i/><w:sz w:val="48"/><w:color w:val="FF0000"/><w:u w:val="single"/></w:rPr><w:t>Title</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve"> and </w:t><w:br/><w:t>more</w:t></w:r></w:p>"#;
    let fields = r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:hyperlink w:anchor="x"><w:r><w:t>link</w:t></w:r></w:hyperlink><w:bookmarkStart w:id="0" w:name="x"/><w:bookmarkEnd w:id="0"/></w:p>"#;
    let bidi = r#"<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>שלום עולם</w:t></w:r><w:r><w:t> abc 123 </w:t></w:r></w:p>"#;
    let text_box = r#"<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="position:absolute;width:100pt;height:50pt"><v:textbox><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#;
    let breaks = r#"<w:p><w:r><w:t>a</w:t><w:br w:type="page"/><w:t>b</w:t><w:br w:type="column"/><w:t>c</w:t></w:r></w:p>"#;
    let list: String = (0..6)
        .map(|i| format!(r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>item {i}</w:t></w:r></w:p>"#, i % 2))
        .collect();
    let words: String = (0..12).map(|i| paragraph(&format!("Paragraph {i} with a few words to wrap across the line width of the page."))).collect();
    let picture = format!("<w:p><w:r><w:t>before</w:t></w:r><w:r>{}</w:r></w:p>", inline_picture(60, 30));
    vec![
        ("words".into(), docx(&format!("{words}{SECTION}"))),
        ("styled".into(), docx(&format!("{styled}{fields}{breaks}"))),
        ("table".into(), docx(&table(3, 3, ""))),
        ("nested table".into(), docx(&table(2, 2, &table(1, 2, "")))),
        ("list".into(), docx_with_part(&list, "numbering", "numbering.xml", NUMBERING)),
        ("picture".into(), docx_with_image(&picture, "image1.png", &png(8, 6))),
        // No CJK text here: subsetting a CJK face costs a debug build too much per input;
        // the corpus documents of the long run bring it.
        ("bidi and text box".into(), docx(&format!("{bidi}{text_box}"))),
    ]
}

/// Corpus documents no larger than `max_bytes`, smallest first, at most `count`.
pub fn corpus(max_bytes: u64, count: usize) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut found = Vec::new();
    for dir in [root.join("docs"), root.join("word/docs")] {
        let Ok(list) = std::fs::read_dir(&dir) else { continue };
        for entry in list.flatten() {
            let path = entry.path();
            let size = entry.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
            if path.extension().is_some_and(|e| e == "docx") && size <= max_bytes {
                found.push((size, path));
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .take(count)
        .filter_map(|(_, path)| Some((path.file_name()?.to_string_lossy().into_owned(), std::fs::read(&path).ok()?)))
        .collect()
}
