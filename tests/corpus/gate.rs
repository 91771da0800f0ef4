//! The fidelity gate's committed files and their comparison with a run:
//! `tests/corpus/baseline.tsv`, the scores of every corpus document, and
//! `tests/corpus/manifest.tsv`, the SHA-256 of every PDF we make of them.

use std::collections::BTreeMap;
use std::path::Path;

use super::score::Score;

/// A document loses its place in the gate when it loses its page match, or when its visual
/// or placed score drops by more than this.
pub const MAX_DROP: f64 = 0.02;

/// The command that rewrites both files (docs/fidelity.md).
pub const UPDATE: &str = "DOCX2PDF_UPDATE_FIDELITY=1 cargo test --test corpus";

/// Scores by `set/NAME.docx`.
pub type Scores = BTreeMap<String, Score>;

/// Digests by `set/NAME.pdf`.
pub type Manifest = BTreeMap<String, String>;

/// The scores rounded as the baseline keeps them, so a rewritten baseline reads back equal.
fn rounded(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

pub fn write_baseline(path: &Path, scores: &Scores) {
    let mut text = format!("# document\tpages\tvisual\tplaced\ttext; written by `{UPDATE}`\n");
    for (doc, s) in scores {
        text += &format!("{doc}\t{}\t{:.4}\t{:.4}\t{:.4}\n", u8::from(s.pages), s.visual, s.placed, s.text);
    }
    std::fs::write(path, text).expect("write the baseline");
}

pub fn read_baseline(path: &Path) -> Result<Scores, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}; write it with `{UPDATE}`", path.display()))?;
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let number = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).ok_or_else(|| format!("{}: bad line {line:?}", path.display()));
            Ok((f[0].to_owned(), Score { pages: number(1)? == 1.0, visual: number(2)?, placed: number(3)?, text: number(4)? }))
        })
        .collect()
}

/// Every way `now` falls short of `baseline`: a lost page match, a visual or placed score
/// down by more than [`MAX_DROP`], a document scored before and not now, or one scored now
/// that the baseline lacks.
pub fn regressions(baseline: &Scores, now: &Scores) -> Vec<String> {
    let mut found = Vec::new();
    for (doc, before) in baseline {
        let Some(after) = now.get(doc) else {
            found.push(format!("{doc}: scored in the baseline, not now"));
            continue;
        };
        if before.pages && !after.pages {
            found.push(format!("{doc}: lost its page match"));
        }
        for (measure, was, is) in [("visual", before.visual, after.visual), ("placed", before.placed, after.placed)] {
            if rounded(was) - rounded(is) > MAX_DROP + 1e-9 {
                found.push(format!("{doc}: {measure} {was:.4} -> {is:.4}"));
            }
        }
    }
    found.extend(now.keys().filter(|d| !baseline.contains_key(*d)).map(|d| format!("{d}: not in the baseline")));
    found
}

/// The means of each measure, for the report.
pub fn summary(scores: &Scores) -> String {
    let n = scores.len().max(1) as f64;
    let mean = |f: fn(&Score) -> f64| scores.values().map(f).sum::<f64>() / n;
    format!(
        "{} documents: text {:.4}, pages {:.4}, visual {:.4}, placed {:.4}",
        scores.len(),
        mean(|s| s.text),
        mean(|s| f64::from(u8::from(s.pages))),
        mean(|s| s.visual),
        mean(|s| s.placed)
    )
}

pub fn write_manifest(path: &Path, manifest: &Manifest) {
    let mut text = format!("# PDF\tSHA-256; written by `{UPDATE}`\n");
    for (pdf, digest) in manifest {
        text += &format!("{pdf}\t{digest}\n");
    }
    std::fs::write(path, text).expect("write the manifest");
}

pub fn read_manifest(path: &Path) -> Result<Manifest, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}; write it with `{UPDATE}`", path.display()))?;
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split_once('\t').map(|(p, d)| (p.to_owned(), d.to_owned())).ok_or_else(|| format!("{}: bad line {l:?}", path.display())))
        .collect()
}

/// Every PDF whose bytes differ from the manifest's, or that one side lacks.
pub fn changed(manifest: &Manifest, now: &Manifest) -> Vec<String> {
    let mut found: Vec<String> = manifest
        .iter()
        .filter_map(|(pdf, digest)| match now.get(pdf) {
            None => Some(format!("{pdf}: in the manifest, not made now")),
            Some(d) if d != digest => Some(format!("{pdf}: its bytes changed")),
            Some(_) => None,
        })
        .collect();
    found.extend(now.keys().filter(|p| !manifest.contains_key(*p)).map(|p| format!("{p}: not in the manifest")));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(pages: bool, visual: f64, placed: f64) -> Score {
        Score { text: 1.0, pages, visual, placed }
    }

    #[test]
    fn the_gate_fails_a_lost_page_match_and_a_drop_past_two_hundredths_only() {
        let baseline: Scores = [("word/a.docx", score(true, 0.90, 0.70)), ("word/b.docx", score(false, 0.50, 0.40))]
            .into_iter()
            .map(|(d, s)| (d.to_owned(), s))
            .collect();
        let mut now = baseline.clone();
        assert!(regressions(&baseline, &now).is_empty());
        now.insert("word/a.docx".into(), score(true, 0.88, 0.68));
        now.insert("word/b.docx".into(), score(true, 0.60, 0.40));
        assert!(regressions(&baseline, &now).is_empty(), "a drop of exactly 0.02 passes, gains pass");
        now.insert("word/a.docx".into(), score(false, 0.8799, 0.70));
        assert_eq!(regressions(&baseline, &now), ["word/a.docx: lost its page match", "word/a.docx: visual 0.9000 -> 0.8799"]);
        now.remove("word/a.docx");
        now.insert("word/c.docx".into(), score(true, 1.0, 1.0));
        assert_eq!(regressions(&baseline, &now), ["word/a.docx: scored in the baseline, not now", "word/c.docx: not in the baseline"]);
    }

    #[test]
    fn the_manifest_names_every_pdf_whose_bytes_changed() {
        let manifest: Manifest = [("docs/a.pdf", "11"), ("docs/b.pdf", "22")].into_iter().map(|(p, d)| (p.to_owned(), d.to_owned())).collect();
        let mut now = manifest.clone();
        assert!(changed(&manifest, &now).is_empty());
        now.insert("docs/b.pdf".into(), "23".into());
        now.insert("docs/c.pdf".into(), "33".into());
        assert_eq!(changed(&manifest, &now), ["docs/b.pdf: its bytes changed", "docs/c.pdf: not in the manifest"]);
    }

    #[test]
    fn a_written_baseline_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("baseline.tsv");
        let scores: Scores = [("docs/a.docx".to_owned(), Score { text: 0.5, pages: true, visual: 0.25, placed: 0.125 })].into();
        write_baseline(&path, &scores);
        assert_eq!(read_baseline(&path).unwrap(), scores);
    }
}
