//! On-disk index of the installed faces, validated by folder and fontconfig mtimes (as fontconfig's own cache is), so a process start reads one small file instead of parsing every font.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use fontdb::{Database, FaceInfo, Language, Source, Stretch, Style, Weight, ID};
use sha2::{Digest, Sha256};

use crate::layout::cache_file::{write_atomically, Reader, Writer};
use crate::layout::fonts::PACKAGED_FACES;

const MAGIC: &[u8; 4] = b"D2PI";

/// Bumped whenever the file layout or what it records changes. Version 3 replaced JSON by
/// the little-endian fields of `cache_file`: reading the 341 faces of the standard font
/// set took 1.9 M instructions of serde_json, 9% of a one-page conversion (callgrind).
/// Version 4 records the packaged faces outside the font folders (`PACKAGED_FACES`).
/// Version 5 leaves out the faces a better face of their family and style shadows
/// (`shadowed.rs`).
const VERSION: u32 = 5;

/// Where the index files live: `$XDG_CACHE_HOME/docx2pdf`, `~/.cache/docx2pdf`, else a
/// folder in the temp directory. Nothing but speed depends on it being writable.
pub(crate) fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("docx2pdf");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".cache/docx2pdf");
    }
    std::env::temp_dir().join("docx2pdf-cache")
}

/// A file or folder and its modification time in nanoseconds (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    path: PathBuf,
    mtime: Option<u128>,
}

impl Stamp {
    fn of(path: &Path) -> Stamp {
        let mtime = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map(|d| d.as_nanos());
        Stamp {
            path: path.to_path_buf(),
            mtime,
        }
    }

    fn is_current(&self) -> bool {
        Stamp::of(&self.path).mtime == self.mtime
    }

    fn write(&self, w: &mut Writer) -> Option<()> {
        w.str(self.path.to_str()?);
        let mtime = self.mtime.unwrap_or(u128::MAX);
        w.u64(mtime as u64);
        w.u64((mtime >> 64) as u64);
        Some(())
    }

    fn read(r: &mut Reader<'_>) -> Option<Stamp> {
        let path = PathBuf::from(r.str()?);
        let mtime = u128::from(r.u64()?) | u128::from(r.u64()?) << 64;
        Some(Stamp { path, mtime: (mtime != u128::MAX).then_some(mtime) })
    }
}

/// One face as fontdb describes it, minus the parsed data.
#[derive(Debug)]
struct IndexedFace {
    path: PathBuf,
    index: u32,
    families: Vec<String>,
    post_script_name: String,
    style: u8,
    weight: u16,
    stretch: u16,
    monospaced: bool,
}

/// The cache files of one font configuration (system fonts or not, extra folders).
#[derive(Debug, Clone)]
pub(crate) struct IndexPaths {
    /// The face list.
    pub index: PathBuf,
    /// The per-face character coverage, written the first time a glyph is searched in
    /// every face.
    pub coverage: PathBuf,
}

impl IndexPaths {
    /// The files for `dirs` (and the system folders when `system`) inside `cache_dir`.
    pub fn new(cache_dir: &Path, dirs: &[PathBuf], system: bool) -> IndexPaths {
        let mut key = Sha256::new();
        key.update(format!("v{VERSION} system={system}\n"));
        for d in dirs {
            key.update(d.as_os_str().as_encoded_bytes());
            key.update(b"\n");
        }
        let hex: String = key.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        IndexPaths {
            index: cache_dir.join(format!("fonts-{hex}.bin")),
            coverage: cache_dir.join(format!("coverage-{hex}.bin")),
        }
    }
}

/// Loads the database from the index when every stamp still holds; `None` otherwise.
/// Returns the index's generation with it, which the coverage file must match.
pub(crate) fn load(paths: &IndexPaths) -> Option<(Database, [u8; 8])> {
    let bytes = std::fs::read(&paths.index).ok()?;
    let mut r = Reader::new(&bytes);
    if r.take(4)? != MAGIC || r.u32()? != VERSION {
        return None;
    }
    let generation = r.u64()?;
    for _ in 0..r.count(20)? {
        if !Stamp::read(&mut r)?.is_current() {
            return None;
        }
    }
    let mut db = Database::new();
    for _ in 0..r.count(16)? {
        let path = PathBuf::from(r.str()?);
        let index = r.u32()?;
        let families = (0..r.count(4)?)
            .map(|_| r.str().map(|n| (n.to_owned(), Language::English_UnitedStates)))
            .collect::<Option<Vec<_>>>()?;
        db.push_face_info(FaceInfo {
            id: ID::dummy(),
            source: Source::File(path),
            index,
            // Only the names are read (family lookup); fontdb lists the US English one first.
            families,
            post_script_name: r.str()?.to_owned(),
            style: style_from(r.u8()?),
            weight: Weight(r.u16()?),
            stretch: stretch_from(r.u16()?),
            monospaced: r.u8()? != 0,
        });
    }
    r.at_end().then_some((db, generation.to_le_bytes()))
}

/// Writes the index of `db` (faces in database order, so a loaded index answers every
/// query as the scan did) and returns its generation. Faces not backed by a file (the
/// embedded fallback) or at a path that is no UTF-8 make the database unsuitable for an
/// index.
pub(crate) fn store(
    paths: &IndexPaths,
    db: &Database,
    dirs: &[PathBuf],
    system: bool,
) -> Option<[u8; 8]> {
    let mut faces = Vec::new();
    for face in db.faces() {
        let path = match &face.source {
            Source::File(p) | Source::SharedFile(p, _) => p.clone(),
            Source::Binary(_) => return None,
        };
        faces.push(IndexedFace {
            path,
            index: face.index,
            families: face.families.iter().map(|(n, _)| n.clone()).collect(),
            post_script_name: face.post_script_name.clone(),
            style: style_to(face.style),
            weight: face.weight.0,
            stretch: face.stretch.to_number(),
            monospaced: face.monospaced,
        });
    }
    let stamps = stamps(&faces, dirs, system);
    // Set when the index is written (clock and process id); the coverage file names the
    // generation it was computed for. Cheaper than hashing the index at every start.
    let nanos = std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let generation = nanos ^ (u64::from(std::process::id()) << 48);
    let mut w = Writer::default();
    w.raw(MAGIC);
    w.u32(VERSION);
    w.u64(generation);
    w.count(stamps.len());
    for stamp in &stamps {
        stamp.write(&mut w)?;
    }
    w.count(faces.len());
    for f in &faces {
        w.str(f.path.to_str()?);
        w.u32(f.index);
        w.count(f.families.len());
        for name in &f.families {
            w.str(name);
        }
        w.str(&f.post_script_name);
        w.u8(f.style);
        w.u16(f.weight);
        w.u16(f.stretch);
        w.u8(u8::from(f.monospaced));
    }
    write_atomically(&paths.index, &w.bytes);
    Some(generation.to_le_bytes())
}

/// What invalidates the index: the fontconfig files that name the font folders, the
/// standard folders (present or not), and every folder holding or leading to a font. A
/// folder's mtime changes when an entry is added, removed or renamed in it, which is how
/// packages install fonts; a font file rewritten in place keeps its folder's mtime, the
/// same blind spot fontconfig's cache has.
fn stamps(faces: &[IndexedFace], dirs: &[PathBuf], system: bool) -> Vec<Stamp> {
    let mut paths: Vec<PathBuf> = dirs.to_vec();
    if system {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let config_home = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".config")));
        paths.extend(
            [
                "/etc/fonts/fonts.conf",
                "/etc/fonts/local.conf",
                "/etc/fonts/conf.d",
                "/usr/share/fonts",
                "/usr/local/share/fonts",
            ]
            .map(PathBuf::from),
        );
        paths.extend(PACKAGED_FACES.iter().filter_map(|f| Path::new(f).parent()).map(Path::to_path_buf));
        if let Some(file) = std::env::var_os("FONTCONFIG_FILE") {
            paths.push(file.into());
        }
        if let Some(c) = config_home {
            paths.push(c.join("fontconfig/fonts.conf"));
        }
        if let Some(h) = home {
            paths.push(h.join(".fonts"));
            paths.push(h.join(".local/share/fonts"));
        }
    }
    let roots = paths.clone();
    for root in &roots {
        walk_dirs(root, &mut paths);
    }
    for face in faces {
        if let Some(parent) = face.path.parent() {
            paths.push(parent.to_path_buf());
        }
    }
    paths.sort();
    paths.dedup();
    paths.iter().map(|p| Stamp::of(p)).collect()
}

/// Every folder below `dir` (not following links twice: depth-limited).
fn walk_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    fn go(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if depth < 16 && p.is_dir() {
                out.push(p.clone());
                go(&p, out, depth + 1);
            }
        }
    }
    go(dir, out, 0);
}

fn style_to(s: Style) -> u8 {
    match s {
        Style::Normal => 0,
        Style::Italic => 1,
        Style::Oblique => 2,
    }
}

fn style_from(n: u8) -> Style {
    match n {
        1 => Style::Italic,
        2 => Style::Oblique,
        _ => Style::Normal,
    }
}

fn stretch_from(n: u16) -> Stretch {
    match n {
        1 => Stretch::UltraCondensed,
        2 => Stretch::ExtraCondensed,
        3 => Stretch::Condensed,
        4 => Stretch::SemiCondensed,
        6 => Stretch::SemiExpanded,
        7 => Stretch::Expanded,
        8 => Stretch::ExtraExpanded,
        9 => Stretch::UltraExpanded,
        _ => Stretch::Normal,
    }
}
