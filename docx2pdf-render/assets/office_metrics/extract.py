#!/usr/bin/env python3
"""Writes office_metrics.txt from the PDFs Microsoft Word made (facts measured, no font data).

Usage: extract.py REFS_DIR > assets/office_metrics/office_metrics.txt

For every embedded font of the families in FAMILIES it reads the advance widths (/Widths of a
simple TrueType font, /W and DW of a CIDFontType2), maps codes to Unicode through the font's
ToUnicode CMap (the WinAnsi or MacRoman encoding without one), and reads the vertical
metrics the embedded font program carries in head, hhea and OS/2 (subsets keep those
tables whole). The most common value wins where PDFs disagree. Needs pikepdf and fontTools.
"""
import glob
import io
import re
import sys
from collections import Counter, defaultdict

import pikepdf
from fontTools.ttLib import TTFont

# PostScript family (before the style suffix) -> family name as documents write it. Only
# families with neither the real face nor a metric-compatible one in Debian; Cambria is
# here because Caladea, sold as its metric-compatible clone, is not: "e" advances 441 of
# 1000 in Caladea and 488 in the Cambria of Word's PDFs (Word 2007 on Windows and Word for
# Mac alike), "o" 480 against 531.
FAMILIES = {
    "Cambria": "cambria",
    "Aptos": "aptos",
    "AptosDisplay": "aptos display",
    "Calibri-Light": "calibri light",
    "CalibriLight": "calibri light",
    "SegoeUI": "segoe ui",
    "SourceSansPro": "source sans pro",
    "MalgunGothic": "malgun gothic",
    "MalgunGothicBold": "malgun gothic",
    "Georgia": "georgia",
    "Verdana": "verdana",
    "Consolas": "consolas",
    "TrebuchetMS": "trebuchet ms",
    "CenturyGothic": "century gothic",
    "Century": "century",
    "SimSun": "simsun",
    "SimHei": "simhei",
    "KaiTi": "kaiti",
    "DengXian": "dengxian",
    "YuGothic": "yu gothic",
    "ArialBlack": "arial black",
    "Algerian": "algerian",
    # Fonts of Windows and Office, and others the authors had, with no metric twin among
    # the standard fonts: Word sets their text with their own advances and line height.
    "Constantia": "constantia",
    "ComicSansMS": "comic sans ms",
    "BaskOldFace": "baskerville old face",
    "Centaur": "centaur",
    "CambriaMath": "cambria math",
    "SegoeUIEmoji": "segoe ui emoji",
    "MS-Mincho": "ms mincho",
    "MS-Gothic": "ms gothic",
    "Gulim": "gulim",
    "Batang": "batang",
    "HCRBatang": "hcr batang",
    "Roboto": "roboto",
    "OpenSans": "open sans",
    "AnonymousPro": "anonymous pro",
    "JetBrainsMono": "jetbrains mono",
    "HelvLight": "helvlight",
    "Billabong": "billabong",
    # Korean and Chinese faces documents name in their own script (layout/fonts/east_asian.rs
    # gives the English name): 나눔손글씨 펜, 나눔바른펜, 方正舒体.
    "NanumPen": "nanum pen",
    "NanumBarunpen": "nanumbarunpen",
    "FZSTK": "fzshuti",
    # Not B Nazanin: its line (1990 + 1045 of 2048 em) over a substitute's Arabic glyphs
    # moved its two documents of corpus/word away from Word's (HosseinGholami1995: 13
    # pages against Word's 12, 11 without it).
}

# Symbol fonts whose codes we draw through Unicode stand-ins (U+F0B7 becomes U+2022), so
# only their vertical metrics are kept: a Symbol bullet makes its line taller in Word's
# PDFs, its ascent of 2059/2048 em standing above the text's (sverrejb_docxide_pdf_input_19:
# bullet lines of 12 pt Aptos 17.75 pt apart, numbered ones 17.0).
VERTICAL_ONLY = {
    "SymbolMT": "symbol",
    "Symbol": "symbol",
    "Wingdings": "wingdings",
    # Arabic: its PDFs give a width per contextual form, which ToUnicode maps back to one
    # character, so the advances of an isolated letter cannot be read; the line height can.
    "BNazanin": "b nazanin",
    "B Nazanin": "b nazanin",
}

# OS/2 fsSelection bit 7. Word measures the lines of a font that sets it with the typo
# metrics, not the win ones: Aptos (win 2068 + 563, typo 1923 + 577 + 0 of 2048) lines at
# 12 pt, 278/240 lines, stand 16.97 pt apart in sverrejb_docxide_pdf_case18, 1.2207 em.
# Such a font's typo box is written in place of its win and hhea values.
USE_TYPO_METRICS = 1 << 7

# The simple encodings Word writes without a ToUnicode CMap (ISO 32000-1 Annex D).
SIMPLE_ENCODINGS = {"/WinAnsiEncoding": "cp1252", "/MacRomanEncoding": "mac_roman"}


def split_name(base):
    """('Aptos', 'bold') from 'ABCDEF+Aptos-Bold', 'Calibri,Bold', 'MalgunGothicBold'."""
    name = re.sub(r"^/?([A-Z]{6}\+)?", "", base)
    if name.startswith("Calibri-Light"):
        return "Calibri-Light", "regular"
    if name == "MalgunGothicBold":
        return "MalgunGothic", "bold"
    if name.startswith("Arial-Black"):
        return "ArialBlack", "regular"
    if name.startswith("MS-"):
        fam, _, style = name[3:].partition(",")
        return "MS-" + fam, "bold" if "Bold" in style else "regular"
    if name.startswith("HelvLight"):
        return "HelvLight", "regular"
    fam, style = (re.split(r"[-,]", name, maxsplit=1) + [""])[:2]
    style = style.lower().replace("mt", "").replace("ps", "")
    bold = "bold" in style
    italic = "italic" in style or "oblique" in style
    return fam, {(False, False): "regular", (True, False): "bold", (False, True): "italic", (True, True): "bolditalic"}[(bold, italic)]


def parse_cmap(data):
    """code -> text from a ToUnicode CMap (bfchar and bfrange)."""
    out = {}
    text = data.decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst).decode("utf-16-be", "replace")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])", block):
            lo, hi = int(lo, 16), int(hi, 16)
            if dst.startswith("["):
                for i, d in enumerate(re.findall(r"<([0-9A-Fa-f]+)>", dst)):
                    out[lo + i] = bytes.fromhex(d).decode("utf-16-be", "replace")
            else:
                # The destination may be a surrogate pair (an emoji): count on from its
                # code point.
                first = bytes.fromhex(dst[1:-1]).decode("utf-16-be", "replace")
                if len(first) != 1:
                    continue
                for i in range(hi - lo + 1):
                    out[lo + i] = chr(ord(first) + i)
    return out


def widths_of(font):
    """(code -> width in 1000 units/em, the width of codes left out, the font descriptor)."""
    if "/DescendantFonts" in font:
        cid = font["/DescendantFonts"][0]
        out = {}
        w = list(cid.get("/W", []))
        i = 0
        while i < len(w):
            first = int(w[i])
            if isinstance(w[i + 1], pikepdf.Array):
                for k, v in enumerate(w[i + 1]):
                    out[first + k] = float(v)
                i += 2
            else:
                for c in range(first, int(w[i + 1]) + 1):
                    out[c] = float(w[i + 2])
                i += 3
        # Glyphs the W array leaves out have the default width DW (§9.7.4.3).
        return out, float(cid.get("/DW", 1000)), cid["/FontDescriptor"]
    first = int(font.get("/FirstChar", 0))
    return {first + k: float(v) for k, v in enumerate(font.get("/Widths", []))}, None, font["/FontDescriptor"]


def vertical(descriptor):
    """(has OS/2, (upm, usWinAscent, usWinDescent, hhea ascender, descender, lineGap)) of the
    font program; without an OS/2 table (Word for Mac keeps none) the win box is hhea's."""
    program = descriptor.get("/FontFile2")
    if program is None:
        return None
    try:
        tt = TTFont(io.BytesIO(program.read_bytes()), lazy=True)
        upm, hhea = tt["head"].unitsPerEm, tt["hhea"]
        if "OS/2" not in tt:
            return False, (upm, hhea.ascent, -hhea.descent, hhea.ascent, hhea.descent, hhea.lineGap)
        os2 = tt["OS/2"]
        if os2.fsSelection & USE_TYPO_METRICS:
            typo = (os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap)
            return True, (upm, typo[0], -typo[1], *typo)
        return True, (upm, os2.usWinAscent, os2.usWinDescent, hhea.ascent, hhea.descent, hhea.lineGap)
    except Exception:
        return None


def fonts_of(resources, seen=None):
    """The fonts of a resource dictionary and of the form XObjects it draws, recursively
    (Word draws text boxes and charts as forms)."""
    seen = set() if seen is None else seen
    yield from resources.get("/Font", {}).values()
    for xobject in resources.get("/XObject", {}).values():
        if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
            seen.add(xobject.objgen)
            yield from fonts_of(xobject.get("/Resources", {}), seen)


def main(refs):
    widths = defaultdict(lambda: defaultdict(Counter))
    metrics = defaultdict(Counter)
    for path in sorted(glob.glob(f"{refs}/*.pdf")):
        pdf = pikepdf.open(path)
        done = set()
        for page in pdf.pages:
            for font in fonts_of(page.obj.get("/Resources", {})):
                if font.objgen in done or "/BaseFont" not in font:
                    continue
                done.add(font.objgen)
                fam, style = split_name(str(font["/BaseFont"]))
                family = FAMILIES.get(fam) or VERTICAL_ONLY.get(fam)
                if family is None:
                    continue
                if fam in VERTICAL_ONLY:
                    v = vertical(font.get("/DescendantFonts", [font])[0]["/FontDescriptor"])
                    if v:
                        metrics[(family, style)][v] += 1
                    continue
                codes, default, descriptor = widths_of(font)
                if "/ToUnicode" in font:
                    text = parse_cmap(font["/ToUnicode"].read_bytes())
                elif font.get("/Encoding") in SIMPLE_ENCODINGS:
                    codec = SIMPLE_ENCODINGS[str(font["/Encoding"])]
                    text = {c: bytes([c]).decode(codec, "replace") for c in range(32, 256)}
                else:
                    continue
                for code, t in text.items():
                    w = codes.get(code, default)
                    if len(t) == 1 and t != "\ufffd" and w:
                        widths[(family, style)][ord(t)][round(w)] += 1
                v = vertical(descriptor)
                if v:
                    metrics[(family, style)][v] += 1
    print("# Metrics of Office fonts as Microsoft Word lays them out, for substitutes to emulate.")
    print("# Measured by assets/office_metrics/extract.py from the fonts Word embedded in its PDFs")
    print("# of the shared corpus: advance widths from /Widths and /W (1000 units/em) mapped to")
    print("# Unicode through ToUnicode; vertical metrics from the embedded programs' head, hhea and")
    print("# OS/2 tables (the typo box for a font with USE_TYPO_METRICS, as Word measures it).")
    print("# Facts about the fonts, not font data (no outline, no table is copied); they are")
    print("# distributed under the project's licence, MIT OR Apache-2.0.")
    print("# face FAMILY|STYLE upm winAscent winDescent hheaAscender hheaDescender hheaLineGap")
    print("# w FIRST_CODEPOINT_HEX WIDTH… (consecutive code points)")
    # Vertical metrics are the same in every style of these families (measured where OS/2
    # was kept: Georgia, Segoe UI, Malgun Gothic); a style whose subsets lost OS/2 takes them
    # from a style that kept it.
    family_metrics = {}
    for (family, _), seen in sorted(metrics.items()):
        for (has_os2, v), _ in seen.most_common():
            if family not in family_metrics or (has_os2 and not family_metrics[family][0]):
                family_metrics[family] = (has_os2, v)
    for key in sorted(set(widths) | set(metrics)):
        family, style = key
        own = [v for (has_os2, v), _ in metrics[key].most_common() if has_os2]
        v = own[0] if own else family_metrics.get(family, (False, (0,) * 6))[1]
        print(f"face {family}|{style} " + " ".join(map(str, v)))
        table = {u: c.most_common(1)[0][0] for u, c in widths[key].items()}
        run, start = [], None
        for u in sorted(table):
            if start is not None and u == start + len(run) and len(run) < 24:
                run.append(table[u])
                continue
            if run:
                print(f"w {start:04X} " + " ".join(map(str, run)))
            start, run = u, [table[u]]
        if run:
            print(f"w {start:04X} " + " ".join(map(str, run)))


if __name__ == "__main__":
    main(sys.argv[1])
