"""What a DOCX says of each body paragraph, and which paragraph a line of a PDF belongs to.

For the drift report (benches/drift.py): the paragraph's style, its line rule after the
cascade (direct formatting, the style's basedOn chain, w:docDefaults; ECMA-376 §17.3.1.33,
§17.7.2), whether its section snaps lines to a document grid (§17.6.5), whether it sits in
a table cell, carries a list number, is a heading or a TOC entry, its keep options
(§17.3.1.14, .15, .23, .44) and breaks. Reads the XML with the standard library alone.
"""
import re
import zipfile
import xml.etree.ElementTree as ET

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_KEY = re.compile(r"[\W_]+", re.UNICODE)


def key(text):
    """Letters and digits only, lower case: how a PDF line's text is found in a paragraph."""
    return _KEY.sub("", text).lower()


def _on(el):
    """An on/off property (§17.17.4): present and not false."""
    if el is None:
        return None
    return el.get(W + "val", "true") not in ("0", "false", "off")


class Styles:
    def __init__(self, root):
        self.by_id = {}
        self.default_para = None
        for s in root.iter(W + "style") if root is not None else []:
            sid = s.get(W + "styleId")
            self.by_id[sid] = s
            if s.get(W + "type") == "paragraph" and s.get(W + "default") in ("1", "true"):
                self.default_para = sid
        self.doc_ppr = root.find(f"{W}docDefaults/{W}pPrDefault/{W}pPr") if root is not None else None

    def chain(self, sid):
        """The style and its basedOn ancestors, nearest first."""
        seen = []
        while sid and sid in self.by_id and sid not in seen:
            seen.append(sid)
            based = self.by_id[sid].find(W + "basedOn")
            sid = based.get(W + "val") if based is not None else None
        return [self.by_id[s] for s in seen]

    def name(self, sid):
        s = self.by_id.get(sid)
        n = s.find(W + "name") if s is not None else None
        return (n.get(W + "val") if n is not None else sid or "").lower()


def _ppr_chain(ppr, styles, sid):
    out = [ppr] if ppr is not None else []
    out += [s.find(W + "pPr") for s in styles.chain(sid)]
    out.append(styles.doc_ppr)
    return [p for p in out if p is not None]


def _first(chain, tag, attr=None):
    for p in chain:
        el = p.find(W + tag)
        if el is not None and (attr is None or el.get(W + attr) is not None):
            return el
    return None


def _line_rule(chain):
    """'auto 1.15', 'exact 12.0', 'atLeast 14.0' (§17.3.1.33: line in 240ths or twips)."""
    line = rule = None
    for p in chain:
        sp = p.find(W + "spacing")
        if sp is None:
            continue
        if line is None and sp.get(W + "line") is not None:
            line = int(sp.get(W + "line"))
            rule = sp.get(W + "lineRule", "auto") if rule is None else rule
        if rule is None and sp.get(W + "lineRule") is not None:
            rule = sp.get(W + "lineRule")
    if line is None:
        return "auto 1.0"
    rule = rule or "auto"
    return f"auto {line / 240:.2f}" if rule == "auto" else f"{rule} {line / 20:.1f}"


class Paragraph:
    __slots__ = ("key", "style", "rule", "grid", "table", "numbered", "heading", "toc",
                 "keep_next", "keep_lines", "widow", "break_before", "page_break", "section_break",
                 "picture", "empty")


def read(docx):
    """[Paragraph] of the document body in order, table cells included."""
    with zipfile.ZipFile(docx) as z:
        names = set(z.namelist())
        body = ET.fromstring(z.read("word/document.xml")).find(W + "body")
        styles = Styles(ET.fromstring(z.read("word/styles.xml")) if "word/styles.xml" in names else None)
    # Each paragraph's section: the sectPr of the paragraph that ends it, or the body's last.
    paragraphs, pending = [], []
    for p in body.iter(W + "p"):
        pending.append(p)
        sect = p.find(f"{W}pPr/{W}sectPr")
        if sect is not None:
            paragraphs.extend((q, sect) for q in pending)
            pending = []
    paragraphs.extend((q, body.find(W + "sectPr")) for q in pending)
    in_table = {id(p) for tc in body.iter(W + "tc") for p in tc.iter(W + "p")}
    out = []
    for p, sect in paragraphs:
        ppr = p.find(W + "pPr")
        ps = ppr.find(W + "pStyle") if ppr is not None else None
        sid = ps.get(W + "val") if ps is not None else styles.default_para
        chain = _ppr_chain(ppr, styles, sid)
        grid = sect.find(W + "docGrid") if sect is not None else None
        snap = _first(chain, "snapToGrid")
        gridded = grid is not None and grid.get(W + "type") in ("lines", "linesAndChars", "snapToChars") and _on(snap) is not False
        name = styles.name(sid)
        outline = _first(chain, "outlineLvl")
        text = "".join(t.text or "" for t in p.iter(W + "t"))
        q = Paragraph()
        q.key = key(text)
        q.style = name
        q.rule = _line_rule(chain)
        q.grid = gridded
        q.table = id(p) in in_table
        q.numbered = _first(chain, "numPr") is not None
        q.heading = name.startswith("heading") or name == "title" or (outline is not None and int(outline.get(W + "val", "9")) < 9)
        q.toc = name.startswith("toc") or name.startswith("table of figures")
        q.keep_next = bool(_on(_first(chain, "keepNext")))
        q.keep_lines = bool(_on(_first(chain, "keepLines")))
        widow = _first(chain, "widowControl")
        q.widow = True if widow is None else bool(_on(widow))
        q.break_before = bool(_on(_first(chain, "pageBreakBefore")))
        q.page_break = any(br.get(W + "type") == "page" for br in p.iter(W + "br"))
        q.section_break = ppr is not None and ppr.find(W + "sectPr") is not None
        q.picture = any(True for _ in p.iter(W + "drawing")) or any(True for _ in p.iter(W + "pict"))
        q.empty = not q.key
        out.append(q)
    return out


class Locator:
    """Finds, line by line in reading order, the paragraph each line of a PDF comes from."""

    def __init__(self, paragraphs):
        self.paragraphs = [p for p in paragraphs if not p.empty]
        self.at = 0
        self.offset = 0

    def find(self, words):
        """The paragraph holding these words after the last one found, or None."""
        for skip in (0, 1):  # a list label is not in the paragraph's text
            k = key("".join(words[skip:]))
            if len(k) < 2:
                return None
            # Near where the last line was found first; then, for a line long enough not
            # to be found by chance, anywhere after it, then anywhere (text boxes and
            # floating tables are set out of the body's order).
            near = range(self.at, min(self.at + 12, len(self.paragraphs)))
            far = range(self.at + 12, len(self.paragraphs)) if len(k) >= 8 else range(0)
            back = range(0, self.at) if len(k) >= 12 else range(0)
            for i in [*near, *far, *back]:
                start = self.offset if i == self.at else 0
                pos = self.paragraphs[i].key.find(k, start)
                if pos >= 0:
                    self.at, self.offset = i, pos + len(k)
                    return self.paragraphs[i]
        return None
