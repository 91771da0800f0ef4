"""The lines of text of a PDF, and their alignment with another PDF of the same document.

A line is the text on one baseline of a page (spans within 1 pt of each other, left to
right), with the font and size most of its characters use. Two PDFs are aligned by their
lines' words (difflib over the normalised line texts), so a line that both set alike is a
matched pair whatever page either puts it on. Read with PyMuPDF (`pip install pymupdf`).

Used by benches/drift.py (where lines drift and why pages break elsewhere) and by the
fidelity gate's scorer.
"""
import difflib
import re
import unicodedata
from dataclasses import dataclass, field

import pymupdf

# Word writes symbol-font bullets as private-use code points (U+F0B7), others as Unicode.
_BULLETS = dict.fromkeys(map(ord, "\u2022\u25aa\u25cf\u25e6\u25a0\u25a1\u27a2\u2713\u00b7\u2023\u25cb"), "\u2022")
# A subset prefix (ABCDEF+) and a style suffix (-Bold, ,Italic, PSMT…) are not the family.
_SUBSET = re.compile(r"^[A-Z]{6}\+")
_STYLE = re.compile(r"([-,](Bold|Italic|Oblique|Regular|Roman|Light|Semibold|Medium|Black|Normal|BoldItalic|BoldOblique|BoldMT|ItalicMT|BoldItalicMT)+)+$|(PSMT|PS|MT)$")


def norm_word(word):
    """A word as both converters' texts compare: NFKC, one bullet, no soft hyphen."""
    w = unicodedata.normalize("NFKC", word)
    w = "".join("\u2022" if 0xF020 <= ord(c) <= 0xF0FF else c for c in w).translate(_BULLETS)
    return w.replace("\u00ad", "").replace("\u200b", "").strip()


def family(font_name):
    """'Calibri' from 'ABCDEF+Calibri-Bold', 'TimesNewRoman' from 'TimesNewRomanPSMT'."""
    name = _SUBSET.sub("", font_name)
    while True:
        shorter = _STYLE.sub("", name)
        if shorter == name or not shorter:
            return name
        name = shorter


@dataclass
class Line:
    page: int  # 1-based
    y: float  # baseline, points from the page's top
    x0: float
    x1: float
    top: float  # the tallest span's top
    words: list
    font: str  # family of most characters
    size: float  # size of most characters, rounded to 0.5 pt
    bold: bool
    text: str = field(init=False)

    def __post_init__(self):
        self.text = " ".join(self.words)


@dataclass
class Page:
    width: float
    height: float
    pictures: list  # (x0, y0, x1, y1) of each image drawn
    rules: list  # (x0, y0, x1, y1) of thin filled rectangles and stroked lines


def read(pdf):
    """([Line], [Page]) of a PDF, lines in reading order (page, then baseline)."""
    lines, pages = [], []
    with pymupdf.open(str(pdf)) as doc:
        for number, page in enumerate(doc, start=1):
            spans = []
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for s in line["spans"]:
                        if s["text"].strip():
                            spans.append(s)
            spans.sort(key=lambda s: (round(s["origin"][1], 1), s["origin"][0]))
            row = []
            for s in spans + [None]:
                if row and (s is None or s["origin"][1] - row[0]["origin"][1] > 1.0):
                    line = _line(number, row)
                    if line:
                        lines.append(line)
                    row = []
                if s is not None:
                    row.append(s)
            pages.append(Page(page.rect.width, page.rect.height, _pictures(page), _rules(page)))
    return lines, pages


def _line(page, row):
    row.sort(key=lambda s: s["origin"][0])
    words = [w for w in (norm_word(x) for x in " ".join(s["text"] for s in row).split()) if w]
    if not words:
        return None
    weight = {}
    for s in row:
        key = (family(s["font"]), round(s["size"] * 2) / 2, bool(s["flags"] & 16) or "Bold" in s["font"])
        weight[key] = weight.get(key, 0) + len(s["text"].strip())
    font, size, bold = max(weight, key=weight.get)
    return Line(page, row[0]["origin"][1], row[0]["bbox"][0], max(s["bbox"][2] for s in row),
                min(s["bbox"][1] for s in row), words, font, size, bold)


def _pictures(page):
    boxes = []
    try:
        for info in page.get_image_info():
            x0, y0, x1, y1 = info["bbox"]
            if x1 - x0 > 2 and y1 - y0 > 2:
                boxes.append((x0, y0, x1, y1))
    except (RuntimeError, ValueError):
        pass
    return boxes


def _rules(page):
    """Table rules: strokes and hairline rectangles, as boxes."""
    out = []
    try:
        drawings = page.get_drawings()
    except (RuntimeError, ValueError):
        return out
    for d in drawings:
        for item in d["items"]:
            if item[0] == "l":
                a, b = item[1], item[2]
                out.append((min(a.x, b.x), min(a.y, b.y), max(a.x, b.x), max(a.y, b.y)))
            elif item[0] == "re":
                r = item[1]
                if min(r.width, r.height) <= 2.5:
                    out.append((r.x0, r.y0, r.x1, r.y1))
    return out


def align(ref, ours):
    """Pairs (i, j) of reference and candidate lines with the same words, in order."""
    sm = difflib.SequenceMatcher(None, [l.text for l in ref], [l.text for l in ours], autojunk=False)
    pairs = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(range(i1, i2), range(j1, j2)))
    return pairs


def placed(ref, ours, pairs, tol=2.0):
    """Share of the reference's lines set on the same page within tol pt of its baseline."""
    hits = sum(1 for i, j in pairs if ref[i].page == ours[j].page and abs(ref[i].y - ours[j].y) <= tol)
    return hits / (len(ref) or 1)
