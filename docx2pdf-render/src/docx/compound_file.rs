//! Reading whole streams out of an OLE compound file ([MS-CFB]): what a password-protected
//! DOCX is wrapped in ([MS-OFFCRYPTO] §2.3.4.4: `EncryptionInfo`, `EncryptedPackage`).
//! Every chain is followed at most as many steps as the file has sectors, and no stream is
//! read past the file's own length, so a hostile file can neither loop nor make us
//! allocate more than it is long.

use crate::bytes::u32_le;

/// The compound file signature ([MS-CFB] §2.2).
pub(crate) const SIGNATURE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// End of a sector chain (§2.1).
pub(crate) const END_OF_CHAIN: u32 = 0xFFFF_FFFE;
/// The highest regular sector number (§2.1).
const MAX_REGULAR_SECTOR: u32 = 0xFFFF_FFFA;
/// Object type of a stream directory entry (§2.6.1).
const STREAM: u8 = 2;
/// Object type of the root storage entry (§2.6.1).
const ROOT: u8 = 5;

/// An opened compound file: its header checked, nothing read yet.
pub(crate) struct CompoundFile<'a> {
    bytes: &'a [u8],
    /// Sector size as a power of two: 9 (version 3) or 12 (version 4), §2.2.
    shift: u32,
    /// Mini sector size as a power of two: 6, §2.2.
    mini_shift: u32,
    /// Streams shorter than this live in the mini stream (4096, §2.2).
    cutoff: u64,
}

impl<'a> CompoundFile<'a> {
    /// Checks the header ([MS-CFB] §2.2); `None` when it is not a compound file we can read.
    pub(crate) fn open(bytes: &'a [u8]) -> Option<CompoundFile<'a>> {
        if bytes.len() < 512 || bytes[..8] != SIGNATURE {
            return None;
        }
        let shift = u32::from(u16::from_le_bytes([bytes[0x1E], bytes[0x1F]]));
        let mini_shift = u32::from(u16::from_le_bytes([bytes[0x20], bytes[0x21]]));
        let cutoff = u64::from(u32_le(bytes, 0x38)?);
        ((shift == 9 || shift == 12) && mini_shift == 6).then_some(CompoundFile { bytes, shift, mini_shift, cutoff })
    }

    /// The stream named `name` in the root storage, read whole; `None` when there is no
    /// such stream or its chain is broken.
    pub(crate) fn stream(&self, name: &str) -> Option<Vec<u8>> {
        let entries = self.directory()?;
        let root = entries.first().filter(|e| e[66] == ROOT)?;
        let entry = entries.iter().find(|e| is_stream(e, name))?;
        let size = u64::from_le_bytes(entry[120..128].try_into().ok()?);
        let start = u32::from_le_bytes(entry[116..120].try_into().ok()?);
        // A stream cannot hold more than the file does (version 3 files may leave garbage
        // in the high half of the size: §2.6.3 says to ignore it).
        let size = if self.shift == 9 { size & 0xFFFF_FFFF } else { size };
        if size > self.bytes.len() as u64 {
            return None;
        }
        if size < self.cutoff {
            let mini_start = u32::from_le_bytes(root[116..120].try_into().ok()?);
            let mini_size = u64::from_le_bytes(root[120..128].try_into().ok()?);
            let mini_size = if self.shift == 9 { mini_size & 0xFFFF_FFFF } else { mini_size };
            if mini_size > self.bytes.len() as u64 {
                return None;
            }
            let mini = self.chain(mini_start, Some(mini_size))?;
            let mini_fat = self.chain(u32_le(self.bytes, 0x3C)?, None)?;
            self.mini_chain(&mini, &mini_fat, start, size)
        } else {
            self.chain(start, Some(size))
        }
    }

    fn sector_size(&self) -> usize {
        1 << self.shift
    }

    fn sector_count(&self) -> usize {
        (self.bytes.len() >> self.shift).saturating_sub(1)
    }

    fn sector(&self, id: u32) -> Option<&'a [u8]> {
        if id > MAX_REGULAR_SECTOR {
            return None;
        }
        let start = (id as usize + 1).checked_mul(self.sector_size())?;
        self.bytes.get(start..start.checked_add(self.sector_size())?)
    }

    /// The number of the `k`-th FAT sector: the first 109 in the header's DIFAT (0x4C),
    /// the rest in the DIFAT chain from 0x44 (§2.5).
    fn fat_sector(&self, k: usize) -> Option<u32> {
        if k < 109 {
            return u32_le(self.bytes, 0x4C + 4 * k);
        }
        let per_sector = self.sector_size() / 4 - 1;
        let mut k = k - 109;
        let mut difat = u32_le(self.bytes, 0x44)?;
        for _ in 0..self.sector_count() {
            let sector = self.sector(difat)?;
            if k < per_sector {
                return u32_le(sector, 4 * k);
            }
            k -= per_sector;
            difat = u32_le(sector, 4 * per_sector)?;
        }
        None
    }

    /// The sector after `id` in its chain (§2.3).
    fn next(&self, id: u32) -> Option<u32> {
        let per_sector = self.sector_size() / 4;
        let fat = self.sector(self.fat_sector(id as usize / per_sector)?)?;
        u32_le(fat, 4 * (id as usize % per_sector))
    }

    /// The first `size` bytes of the chain from `start` (`None`: to its end); `None` when
    /// the chain is shorter, loops or leaves the file.
    fn chain(&self, start: u32, size: Option<u64>) -> Option<Vec<u8>> {
        let size = match size {
            Some(size) => usize::try_from(size).ok()?,
            None => usize::MAX,
        };
        let mut out = Vec::with_capacity(size.min(self.bytes.len()));
        let mut id = start;
        // A chain can never be longer than the file has sectors: this also stops cycles.
        for _ in 0..=self.sector_count() {
            if out.len() >= size || id == END_OF_CHAIN {
                break;
            }
            out.extend_from_slice(self.sector(id)?);
            id = self.next(id)?;
        }
        if size == usize::MAX {
            return Some(out);
        }
        (out.len() >= size).then(|| {
            out.truncate(size);
            out
        })
    }

    /// The first `size` bytes of the mini stream chain from `start` (§2.4).
    fn mini_chain(&self, mini: &[u8], mini_fat: &[u8], start: u32, size: u64) -> Option<Vec<u8>> {
        let size = usize::try_from(size).ok()?;
        let unit = 1usize << self.mini_shift;
        let mut out = Vec::with_capacity(size.min(mini.len()));
        let mut id = start;
        for _ in 0..=mini.len() / unit {
            if out.len() >= size || id == END_OF_CHAIN {
                break;
            }
            let at = (id as usize).checked_mul(unit)?;
            out.extend_from_slice(mini.get(at..at.checked_add(unit)?)?);
            id = u32_le(mini_fat, 4 * id as usize)?;
        }
        (out.len() >= size).then(|| {
            out.truncate(size);
            out
        })
    }

    /// The 128-byte directory entries, from the header's first directory sector (0x30);
    /// `None` when the chain is broken.
    pub(crate) fn directory(&self) -> Option<Vec<&'a [u8]>> {
        let mut entries = Vec::new();
        let mut id = u32_le(self.bytes, 0x30)?;
        for _ in 0..=self.sector_count() {
            if id == END_OF_CHAIN {
                return Some(entries);
            }
            entries.extend(self.sector(id)?.chunks_exact(128));
            id = self.next(id)?;
        }
        None
    }
}

/// Whether a 128-byte directory entry is a stream named `name` (UTF-16LE with its
/// terminator, §2.6.1).
pub(crate) fn is_stream(entry: &[u8], name: &str) -> bool {
    let wanted: Vec<u8> = name.encode_utf16().chain([0]).flat_map(u16::to_le_bytes).collect();
    let len = usize::from(u16::from_le_bytes([entry[64], entry[65]]));
    entry[66] == STREAM && len == wanted.len() && len <= 64 && entry[..len] == wanted[..]
}
