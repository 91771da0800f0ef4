#!/usr/bin/env python3
"""Structure elements of our tagged PDFs against Word's own, document by document.

    python3 benches/tag_counts.py OURS_DIR WORD_REFS_DIR

For every NAME.pdf in WORD_REFS_DIR that Word saved tagged, counts the structure
elements of NAME.pdf in both folders (standard types after /RoleMap; H1-H6 count as H) and
prints, per element, the smaller count over the larger averaged over the documents where
either has it, one `figure NAME VALUE UNIT k=v` line each (the format of bench-load and
compare_libreoffice.py). --table also prints the counts per document. Needs pikepdf.
"""

import argparse
import collections
import os

import pikepdf

KINDS = ["H", "LI", "Table", "TR", "Figure", "Link", "TOCI", "Note"]


def counts(path):
    """Counter of standard structure types in the PDF at `path`, or None if untagged."""
    try:
        pdf = pikepdf.open(path)
    except (pikepdf.PdfError, OSError):
        return None
    root = pdf.Root.get("/StructTreeRoot")
    if root is None:
        return None
    rolemap = root.get("/RoleMap", {})
    found = collections.Counter()
    seen = set()
    stack = [root.get("/K")]
    while stack:
        k = stack.pop()
        if isinstance(k, pikepdf.Array):
            stack.extend(k)
            continue
        if not isinstance(k, pikepdf.Dictionary):
            continue
        if k.is_indirect:
            if k.objgen in seen:
                continue
            seen.add(k.objgen)
        if "/S" in k:
            kind = str(k.S)
            for _ in range(8):
                if kind not in rolemap:
                    break
                kind = str(rolemap[kind])
            kind = kind[1:]
            found["H" if kind[:1] == "H" and kind[1:].isdigit() else kind] += 1
        if "/K" in k:
            stack.append(k.K)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ours")
    ap.add_argument("refs")
    ap.add_argument("--table", action="store_true", help="print the counts per document")
    args = ap.parse_args()
    ratios = collections.defaultdict(list)
    for name in sorted(os.listdir(args.refs)):
        if not name.endswith(".pdf"):
            continue
        word = counts(os.path.join(args.refs, name))
        if not word:
            continue
        ours = counts(os.path.join(args.ours, name)) or collections.Counter()
        row = []
        for kind in KINDS:
            a, b = ours[kind], word[kind]
            row.append(f"{a}/{b}")
            if a or b:
                ratios[kind].append(min(a, b) / max(a, b))
        if args.table:
            print(f"{name[:-4][:44]:44s} " + " ".join(f"{k}={r}" for k, r in zip(KINDS, row)))
    for kind in KINDS:
        values = ratios[kind]
        if values:
            print(f"figure tags.ratio.{kind} {sum(values) / len(values):.3f} ratio documents={len(values)}")


if __name__ == "__main__":
    main()
