//! Helpers of tests/output_options.rs: the ledger, a document with
//! properties, and the PDF read back with pikepdf and pymupdf.

use std::io::Write;

use docx2pdf::db;
use serde_json::Value;

use crate::common::TestService;

/// The credits of the first account: used this month, and held by renders in flight.
pub async fn used_and_held(svc: &TestService) -> (i64, i64) {
    let b = db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(svc.state.clock.now())).await.unwrap();
    (b.used, b.reserved)
}

/// Core properties of the document's own, which `metadata` replaces.
const CORE: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>Field notes</dc:title><dc:creator>Ada Lovelace</dc:creator><cp:keywords>draft</cp:keywords><dcterms:created>2023-01-01T08:00:00Z</dcterms:created></cp:coreProperties>"#;

/// `docx` with core properties (`docProps/core.xml`) added.
pub fn with_properties(docx: &[u8]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new_append(std::io::Cursor::new(docx.to_vec())).unwrap();
    zip.start_file("docProps/core.xml", zip::write::SimpleFileOptions::default()).unwrap();
    zip.write_all(CORE.as_bytes()).unwrap();
    zip.finish().unwrap().into_inner()
}

/// Opens the PDF with `password` ("" for none) and prints one JSON object: whether it
/// opened, its encryption and permissions, pages and their text, outline entries, links,
/// destinations (each as the page it leads to, from 1, or null for none), the structure's
/// pages and headings, and the Info dictionary beside the XMP packet.
const READ: &str = r#"
import json, sys
from datetime import datetime
import pikepdf, pymupdf
from pikepdf.models.metadata import decode_pdf_date
path, password = sys.argv[1], PASSWORD
try:
    pdf = pikepdf.open(path, password=password)
except pikepdf.PasswordError:
    print(json.dumps({"opened": False}))
    sys.exit(0)
out = {"opened": True, "encrypted": pdf.is_encrypted}
if pdf.is_encrypted:
    e = pdf.encryption
    out["encryption"] = [e.V, e.R, e.bits, str(e.stream_method).split(".")[-1].lower(), str(e.string_method).split(".")[-1].lower()]
out["owner"] = pdf.owner_password_matched
out["user"] = pdf.user_password_matched
a = pdf.allow
out["allow"] = {"print": a.print_highres and a.print_lowres, "extract": a.extract, "accessibility": a.accessibility,
                "modify": a.modify_other, "annotate": a.modify_annotation, "forms": a.modify_form, "assemble": a.modify_assembly}
pages = [p.obj.objgen for p in pdf.pages]
out["pages"] = len(pages)
root = pdf.Root
def page_of(dest):
    if isinstance(dest, pikepdf.Array) and len(dest) and isinstance(dest[0], pikepdf.Dictionary) and dest[0].objgen in pages:
        return pages.index(dest[0].objgen) + 1
    return None
outline = []
def walk_outline(item, level):
    while item is not None:
        outline.append([level, str(item.Title), page_of(item.get("/Dest"))])
        if "/First" in item:
            walk_outline(item.First, level + 1)
        item = item.get("/Next")
if "/Outlines" in root:
    walk_outline(root.Outlines.get("/First"), 1)
out["outline"] = outline
links = []
for p in pdf.pages:
    found = []
    for annot in p.get("/Annots", []):
        action = annot.get("/A")
        if action is not None and action.get("/S") == "/GoTo":
            found.append(page_of(action.D))
    links.append(found)
out["links"] = links
dests = []
if "/Names" in root and "/Dests" in root.Names:
    names = root.Names.Dests.Names
    dests = [[bytes(names[i]).decode(), page_of(names[i + 1])] for i in range(0, len(names), 2)]
out["dests"] = dests
struct_pages, roles = [], []
def walk_struct(e):
    if isinstance(e, pikepdf.Array):
        for k in e:
            walk_struct(k)
        return
    if not isinstance(e, pikepdf.Dictionary):
        return
    if "/Pg" in e:
        struct_pages.append(e.Pg.objgen in pages)
    if "/S" in e:
        roles.append(str(e.S)[1:])
    if "/K" in e:
        walk_struct(e.K)
if "/StructTreeRoot" in root:
    walk_struct(root.StructTreeRoot.K)
    nums = root.StructTreeRoot.ParentTree.Nums
    keys = [int(nums[i]) for i in range(0, len(nums), 2)]
    page_keys = [int(p.get("/StructParents", -1)) for p in pdf.pages]
    annot_keys = [int(a.get("/StructParent", -1)) for p in pdf.pages for a in p.get("/Annots", []) if "/StructParent" in a]
    out["parent_tree_ok"] = sorted(k for k in page_keys + annot_keys if k >= 0) == sorted(keys) and int(root.StructTreeRoot.ParentTreeNextKey) == len(pages) + len(annot_keys)
out["struct_pages_ok"] = len(struct_pages) > 0 and all(struct_pages)
out["headings"] = roles.count("H1")
info = pdf.docinfo
out["info"] = {str(k)[1:]: str(v) for k, v in info.items()}
with pdf.open_metadata() as meta:
    def xmp(key):
        v = meta.get(key)
        if v is None:
            return None
        if isinstance(v, (list, set, tuple)):
            return ", ".join(v)
        return str(v)
    out["xmp"] = {k: xmp(k) for k in ["dc:title", "dc:creator", "dc:description", "pdf:Keywords", "xmp:CreatorTool", "pdf:Producer", "xmp:CreateDate", "xmp:ModifyDate"]}
    out["pdfaid"] = [xmp("pdfaid:part"), xmp("pdfaid:conformance")]
def agree(info_key, xmp_key):
    a, b = info.get(info_key), out["xmp"][xmp_key]
    if a is None or b is None:
        return a is None and b is None
    return decode_pdf_date(str(a)) == datetime.fromisoformat(b)
out["dates_agree"] = [agree("/CreationDate", "xmp:CreateDate"), agree("/ModDate", "xmp:ModifyDate")]
out["display_doc_title"] = bool(root.ViewerPreferences.DisplayDocTitle) if "/ViewerPreferences" in root else False
doc = pymupdf.open(path)
if doc.needs_pass:
    doc.authenticate(password)
out["text"] = [page.get_text() for page in doc]
print(json.dumps(out))
"#;

/// The PDF read back with `password`; `None` when pikepdf or pymupdf is missing (a skip,
/// or a failure under `CI=true`).
pub fn read(pdf: &[u8], password: &str) -> Option<Value> {
    let script = READ.replace("PASSWORD", &serde_json::to_string(password).unwrap());
    crate::common::python::run_on_pdf(&script, pdf)
}
