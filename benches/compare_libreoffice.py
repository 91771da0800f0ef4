#!/usr/bin/env python3
"""Wall time of docx2pdf against its two peers, docxide-pdf and LibreOffice, document by document.

Every converter runs as its own process per document, as a wrapper service would run it per
request, interleaved document by document so that machine load hits all of them alike:

  docx2pdf     `docx2pdf convert IN OUT`                       (process start included)
  docxide-pdf  `docxide-pdf IN OUT`                            (when found)
  LibreOffice  `soffice --headless --convert-to pdf IN`         one process per document
  LO batch     one `soffice --headless --convert-to pdf ALL...`  call for every document
               (a warm LibreOffice converting in bulk; timed once, after the loop). A call
               that ends before its last document (LibreOffice 7.4 ends its run of all 267
               corpus/docs files after the 248th with exit 0, the rest never converted) is
               followed by another for the documents after the last one it began, as an
               operator would, and the calls' times are added up

LibreOffice is only measured here; the product never calls it. It runs with its own user
profile in a temporary folder, created by a warm-up conversion that is not timed.

Progress (one row per document) goes to stderr; the results go to stdout as figure lines,
the format `docx2pdf bench-load` writes too (docs/performance.md):

  figure NAME VALUE UNIT [KEY=VALUE ...]

A peer that is not installed is named in a `# ... not measured` line instead.

Usage:
  python3 benches/compare_libreoffice.py [--docs DIR] [--docx2pdf BIN] [--docxide BIN]
      [--soffice BIN] [--limit N] [--no-lo-per-doc] [--json FILE]
"""

import argparse
import json
import statistics
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd, timeout, cwd=None, env=None, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (seconds, exit code or 'timeout').

    The wait blocks in waitpid and a timer kills the process at the time limit:
    `subprocess.run(timeout=...)` instead polls with sleeps that double from 0.5 ms, which
    rounds every duration up to the next of ~1, 3, 7.5, 15.5, 31.5 ms and, at LibreOffice's
    scale, by up to 50 ms.
    """
    expired = threading.Event()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, cwd=cwd, env=env)

    def kill():
        expired.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        code = proc.wait()
    finally:
        timer.cancel()
    elapsed = time.perf_counter() - start
    return elapsed, "timeout" if expired.is_set() else code


def produced(path):
    return path.exists() and path.stat().st_size > 0


def batch_until_done(lo_cmd, docs, outdir, log, timeout):
    """Converts docs in warm LibreOffice calls; returns (seconds, calls).

    LibreOffice prints `convert IN -> OUT` as it begins each document. When a call ends and
    documents after the last one it began are left, the next call starts with them; the
    one it began is not tried again, in case that is the one it stopped on.
    """
    total, calls, rest = 0.0, 0, list(docs)
    while rest:
        with open(log, "w") as out:
            seconds, _ = timed(lo_cmd + ["--outdir", str(outdir)] + [str(d) for d in rest], timeout * len(rest), stdout=out)
        total += seconds
        calls += 1
        begun = {Path(line.split(" -> ")[0].removeprefix("convert ")).name
                 for line in Path(log).read_text().splitlines() if line.startswith("convert ")}
        last = max((i for i, d in enumerate(rest) if d.name in begun), default=len(rest) - 1)
        rest = rest[last + 1:]
    return total, calls


def figure(name, value, unit, **context):
    """One line of the figure format shared with `docx2pdf bench-load`."""
    extra = "".join(f" {k}={v}" for k, v in context.items())
    print(f"figure {name} {value} {unit}{extra}", flush=True)


def peer_figures(name, seconds, converted, n, docx2pdf_total):
    """The figures of one converter run once per document, and docx2pdf's speed-up over it."""
    total = sum(seconds)
    figure(f"process.{name}.total", f"{total:.3f}", "s", tool="compare", documents=n, converted=converted)
    figure(f"process.{name}.per_document", f"{total / n * 1000:.1f}", "ms", tool="compare", documents=n)
    figure(f"process.{name}.median", f"{statistics.median(seconds) * 1000:.1f}", "ms", tool="compare", documents=n)
    if name != "docx2pdf":
        figure(f"speedup.{name}", f"{total / docx2pdf_total:.2f}", "x", tool="compare", documents=n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", default=str(ROOT.parent / "shared/corpus/docs"))
    ap.add_argument("--docx2pdf", default=str(ROOT / "target/release/docx2pdf"))
    ap.add_argument("--docxide", default=shutil.which("docxide-pdf") or "")
    ap.add_argument("--soffice", default=shutil.which("soffice") or "")
    ap.add_argument("--limit", type=int, default=0, help="first N documents only")
    ap.add_argument("--no-lo-per-doc", action="store_true", help="skip LibreOffice one process per document")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args()

    docs = sorted(p for p in Path(args.docs).iterdir() if p.suffix.lower() == ".docx")
    if args.limit:
        docs = docs[: args.limit]
    if not docs:
        sys.exit(f"no .docx files in {args.docs}")
    if not os.access(args.docx2pdf, os.X_OK):
        sys.exit(f"{args.docx2pdf} is not executable (cargo build --release)")
    lo = args.soffice if args.soffice else None
    docxide = args.docxide if args.docxide and os.access(args.docxide, os.X_OK) else None

    work = Path(tempfile.mkdtemp(prefix="d2p-compare-"))
    profile = work / "lo-profile"
    lo_cmd = [lo, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf"] if lo else None
    if lo:
        # Untimed warm-up: creates the LibreOffice profile and fills the page cache.
        timed(lo_cmd + ["--outdir", str(work / "warmup"), str(docs[0])], args.timeout)
    timed([args.docx2pdf, "convert", str(docs[0]), str(work / "warmup.pdf")], args.timeout)

    rows = []
    for i, doc in enumerate(docs):
        row = {"document": doc.name}
        out = work / "d2p" / (doc.stem + ".pdf")
        out.parent.mkdir(exist_ok=True)
        row["docx2pdf_s"], code = timed([args.docx2pdf, "convert", str(doc), str(out)], args.timeout)
        row["docx2pdf_ok"] = code == 0 and produced(out)
        if docxide:
            out = work / "docxide" / (doc.stem + ".pdf")
            out.parent.mkdir(exist_ok=True)
            row["docxide_s"], code = timed([docxide, str(doc), str(out)], args.timeout)
            row["docxide_ok"] = code == 0 and produced(out)
        if lo and not args.no_lo_per_doc:
            outdir = work / "lo" / str(i)
            row["lo_s"], code = timed(lo_cmd + ["--outdir", str(outdir), str(doc)], args.timeout)
            row["lo_ok"] = produced(outdir / (doc.stem + ".pdf"))
        rows.append(row)
        cells = [f"{row['docx2pdf_s'] * 1000:8.1f}"]
        if docxide:
            cells.append(f"{row['docxide_s'] * 1000:8.1f}")
        if "lo_s" in row:
            cells.append(f"{row['lo_s'] * 1000:8.1f}  x{row['lo_s'] / row['docx2pdf_s']:7.1f}")
        print(f"{i + 1:4d} {doc.name[:60]:60s} " + " ".join(cells), file=sys.stderr, flush=True)

    batch = None
    if lo:
        outdir = work / "lo-batch"
        batch, batch_calls = batch_until_done(lo_cmd, docs, outdir, work / "lo-batch.log", args.timeout)
        batch_ok = sum(produced(outdir / (d.stem + ".pdf")) for d in docs)

    n = len(docs)
    total = sum(r["docx2pdf_s"] for r in rows)
    summary = {"documents": n, "docx2pdf_total_s": total}
    peer_figures("docx2pdf", [r["docx2pdf_s"] for r in rows], sum(r["docx2pdf_ok"] for r in rows), n, total)
    if docxide:
        peer_figures("docxide-pdf", [r["docxide_s"] for r in rows], sum(r["docxide_ok"] for r in rows), n, total)
        summary["docxide_total_s"] = sum(r["docxide_s"] for r in rows)
    else:
        print("# docxide-pdf: not found (cargo install docxide-pdf, or --docxide BIN); not measured")
    if rows and "lo_s" in rows[0]:
        peer_figures("libreoffice", [r["lo_s"] for r in rows], sum(r["lo_ok"] for r in rows), n, total)
        summary["lo_total_s"] = sum(r["lo_s"] for r in rows)
    elif not lo:
        print("# libreoffice: soffice not found (apt-get install libreoffice-writer, or --soffice BIN); not measured")
    if batch is not None:
        figure("process.libreoffice-batch.total", f"{batch:.3f}", "s", tool="compare", documents=n,
               converted=batch_ok, calls=batch_calls)
        figure("process.libreoffice-batch.throughput", f"{n / batch:.1f}", "documents/s", tool="compare", documents=n)
        figure("speedup.libreoffice-batch", f"{batch / total:.2f}", "x", tool="compare", documents=n)
        summary["lo_batch_s"] = batch
        summary["lo_batch_calls"] = batch_calls
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
