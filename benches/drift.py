#!/usr/bin/env python3
"""Where our lines drift from Word's, grouped by what they have in common; and, for each
document whose page count differs, the first page that breaks elsewhere and why.

    python3 benches/drift.py --docs DOCX_DIR --ours OURS_DIR --refs REF_DIR [--top 20]
    python3 benches/drift.py --docs DOCX_DIR --ours OURS_DIR --refs REF_DIR --pages

Every line of ours matched to one of the reference's (benches/pdf_lines.py aligns them by
their words) gives a vertical error, the difference of its distance from the previous
matched line on the same page in both PDFs (for the first line of a page: from the top of
the page), and a horizontal one, of its first word. The errors are grouped by the
reference line's font and size, its paragraph's line rule and document grid (read from
the DOCX: benches/docx_paragraphs.py) and its context (body, table cell, list item,
heading, TOC entry; first on its page, after a picture, after a table). A row is a group:
lines, total points lost (vertical and horizontal), mean errors with their sign, and the
documents that lose most in it. Sorted by total points lost: a systematic 0.3 pt on every
table-cell line of one font is one row with hundreds of lines behind it. An error counts
for at most 12 pt, so that one missing picture does not hide a systematic drift.

--pages: for each document whose page count differs from the reference's, the first page
whose first line is not the reference's, which way it moved, the drift of the last line
both set on the page before, and the likely cause: accumulated drift, a keep rule
(keepNext, keepLines, widow control), a break rule (page break, pageBreakBefore, section
break) or an object (picture, table row). A guess from facts; look at the page to confirm.
Needs PyMuPDF (pip install pymupdf).
"""
import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docx_paragraphs  # noqa: E402
import pdf_lines  # noqa: E402


# The most points one line's error counts for (about a line of body text).
CLIP = 12.0


def context(ref, i, para, pages, prev_para):
    """'table', 'list, after picture', 'body, first'… for reference line i."""
    line = ref[i]
    if para is None:
        kind = "unknown"
    elif para.toc or ("...." in line.text or "\u2026\u2026" in line.text):
        kind = "toc"
    elif para.table:
        kind = "table"
    elif para.numbered:
        kind = "list"
    elif para.heading:
        kind = "heading"
    else:
        kind = "body"
    if i == 0 or ref[i - 1].page != line.page:
        return kind + ", first"
    prev = ref[i - 1]
    if any(prev.y < box[3] <= line.top + 1 for box in pages[line.page - 1].pictures):
        return kind + ", after picture"
    if prev_para is not None and prev_para.table and para is not None and not para.table:
        return kind + ", after table"
    return kind


def paragraphs_of(ref, docx):
    try:
        locator = docx_paragraphs.Locator(docx_paragraphs.read(docx))
    except Exception as error:  # a package this reader cannot read: no paragraph facts
        print(f"# {docx.name}: {error}", file=sys.stderr)
        return [None] * len(ref)
    return [locator.find(line.words) for line in ref]


def drift_rows(name, ref, ours, pages, paras, pairs):
    """(group, dv, dx) for every matched line with a matched predecessor on its page."""
    rows = []
    prev = None
    for i, j in pairs:
        r, o = ref[i], ours[j]
        para = paras[i]
        prev_para = paras[i - 1] if i > 0 else None
        ctx = context(ref, i, para, pages, prev_para)
        first_ref = i == 0 or ref[i - 1].page != r.page
        first_ours = j == 0 or ours[j - 1].page != o.page
        if first_ref and first_ours and r.page == o.page:
            dv = o.y - r.y
        elif prev is not None and ref[prev[0]].page == r.page and ours[prev[1]].page == o.page and not first_ref:
            dv = (o.y - ours[prev[1]].y) - (r.y - ref[prev[0]].y)
        else:
            dv = None
        prev = (i, j)
        if dv is None:
            continue
        rule = para.rule if para else "?"
        grid = "grid" if para is not None and para.grid else "-"
        group = (r.font + (" bold" if r.bold else ""), r.size, rule, grid, ctx)
        rows.append((group, dv, o.x0 - r.x0))
    return rows


def forensics(name, ref, ours, pages_ref, pages_ours, paras, pairs):
    """One line on the first page that starts elsewhere than the reference's."""
    of_ref = dict(pairs)
    first_on = {}
    for i, line in enumerate(ref):
        first_on.setdefault(line.page, i)
    for page in sorted(first_on):
        i = first_on[page]
        while i < len(ref) and ref[i].page == page and i not in of_ref:
            i += 1
        if i >= len(ref) or ref[i].page != page:
            continue
        j = of_ref[i]
        if ours[j].page == page and (j == 0 or ours[j - 1].page != page):
            continue
        # Later: our page before ended early (the line, or what precedes it, moved on);
        # earlier: we fit more on the page before.
        way = "earlier" if ours[j].page < page else "later"
        # The last line both set on the page before: how far had we drifted?
        common = [(a, b) for a, b in pairs if ref[a].page == page - 1 and ours[b].page == page - 1]
        drift = ours[common[-1][1]].y - ref[common[-1][0]].y if common else 0.0
        para, prev_para = paras[i], paras[i - 1] if i > 0 else None
        cause = cause_of(ref, ours, i, j, page, para, prev_para, drift, pages_ref, pages_ours)
        return (f"{name}\t{len(pages_ref)}\t{len(pages_ours)}\tp{page}\t{way}\t{drift:+.1f}\t{cause}\t"
                f"{ref[i].text[:60]}")
    return f"{name}\t{len(pages_ref)}\t{len(pages_ours)}\t-\t-\t-\tno page starts elsewhere (end of document)\t"


def cause_of(ref, ours, i, j, page, para, prev_para, drift, pages_ref, pages_ours):
    flags = []
    if para is not None:
        if para.break_before or (prev_para is not None and prev_para is not para and (prev_para.page_break or prev_para.section_break)):
            return "break rule (page break, pageBreakBefore or section)"
        if para.table:
            flags.append("table row")
    if any(box[3] > pages_ref[page - 2].height * 0.6 for box in pages_ref[page - 2].pictures) if page >= 2 else False:
        flags.append("picture at the foot of the page before")
    if any(box[1] < pages_ref[page - 1].height * 0.4 for box in pages_ref[page - 1].pictures):
        flags.append("picture at the head of the page")
    if flags:
        return "object (" + ", ".join(flags) + ")"
    same_para = prev_para is not None and prev_para is para
    keeps = []
    if prev_para is not None and prev_para.keep_next:
        keeps.append("keepNext before")
    if para is not None and (para.keep_lines or (same_para and para.widow)):
        keeps.append("keepLines" if para.keep_lines else "widow control")
    if abs(drift) >= 6.0:
        return f"accumulated drift ({drift:+.1f} pt)" + (" with " + ", ".join(keeps) if keeps else "")
    if keeps:
        return "keep rule (" + ", ".join(keeps) + ")"
    return f"small drift ({drift:+.1f} pt)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", required=True, help="folder of NAME.docx")
    ap.add_argument("--ours", required=True, help="folder of our NAME.pdf")
    ap.add_argument("--refs", required=True, help="folder of the reference NAME.pdf")
    ap.add_argument("--top", type=int, default=20, help="rows printed (20)")
    ap.add_argument("--only", help="documents whose name contains this text")
    ap.add_argument("--pages", action="store_true", help="page-break forensics instead of drift")
    args = ap.parse_args()

    groups = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0, collections.Counter()])
    causes = collections.Counter()
    if args.pages:
        print("doc\tref_pages\tour_pages\tfirst_page\tway\tdrift_before\tcause\tfirst line")
    for ref_pdf in sorted(Path(args.refs).glob("*.pdf")):
        name = ref_pdf.stem
        ours_pdf, docx = Path(args.ours) / f"{name}.pdf", Path(args.docs) / f"{name}.docx"
        if (args.only and args.only not in name) or not ours_pdf.exists() or not docx.exists():
            continue
        ref, pages_ref = pdf_lines.read(ref_pdf)
        ours, pages_ours = pdf_lines.read(ours_pdf)
        if args.pages and len(pages_ref) == len(pages_ours):
            continue
        pairs = pdf_lines.align(ref, ours)
        paras = paragraphs_of(ref, docx)
        if args.pages:
            row = forensics(name, ref, ours, pages_ref, pages_ours, paras, pairs)
            causes[row.split("\t")[6].split(" (")[0]] += 1
            print(row, flush=True)
            continue
        for group, dv, dx in drift_rows(name, ref, ours, pages_ref, paras, pairs):
            g = groups[group]
            g[0] += 1
            # An error is counted up to CLIP points: a missing picture or a line set in
            # another column is one large error, which must not hide a small systematic one.
            dv, dx = max(-CLIP, min(CLIP, dv)), max(-CLIP, min(CLIP, dx))
            g[1] += abs(dv)
            g[2] += dv
            g[3] += abs(dx)
            g[4] += dx
            g[5][name] += abs(dv) + abs(dx)
    if args.pages:
        print("\ncause\tdocuments")
        for cause, n in causes.most_common():
            print(f"{cause}\t{n}")
        return
    print("font\tsize\tline rule\tgrid\tcontext\tlines\tpt lost\tv lost\tv mean\th lost\th mean\tmost lost in")
    ranked = sorted(groups.items(), key=lambda kv: -(kv[1][1] + kv[1][3]))
    total = sum(g[1] + g[3] for g in groups.values())
    for (font, size, rule, grid, ctx), (n, av, sv, ah, sh, docs) in ranked[: args.top]:
        worst = ", ".join(f"{d} {v:.0f}" for d, v in docs.most_common(2))
        print(f"{font}\t{size:g}\t{rule}\t{grid}\t{ctx}\t{n}\t{av + ah:.0f}\t{av:.0f}\t{sv / n:+.2f}\t{ah:.0f}\t{sh / n:+.2f}\t{worst}")
    print(f"summary\tgroups={len(groups)}\tlines={sum(g[0] for g in groups.values())}\tpt_lost={total:.0f}")


if __name__ == "__main__":
    main()
