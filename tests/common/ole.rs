//! Minimal OLE compound files (MS-CFB, version 3): what legacy `.doc` files and
//! password-protected OOXML packages are wrapped in.

const MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

fn put(f: &mut [u8], at: usize, bytes: &[u8]) {
    f[at..at + bytes.len()].copy_from_slice(bytes);
}

/// A three-sector compound file (header, FAT, directory) whose root storage holds one
/// stream per name: `WordDocument` for a .doc, `EncryptedPackage` for an encrypted .docx.
pub fn compound_file(streams: &[&str]) -> Vec<u8> {
    let mut f = vec![0u8; 512 * 3];
    put(&mut f, 0, &MAGIC);
    // Minor and major version, byte order, sector shift 9 (512), mini sector shift 6.
    for (at, v) in [
        (0x18, 0x3Eu16),
        (0x1A, 3),
        (0x1C, 0xFFFE),
        (0x1E, 9),
        (0x20, 6),
    ] {
        put(&mut f, at, &v.to_le_bytes());
    }
    // One FAT sector; the directory starts at sector 1; no mini FAT, no DIFAT sectors.
    for (at, v) in [
        (0x2C, 1u32),
        (0x30, 1),
        (0x38, 4096),
        (0x3C, 0xFFFF_FFFE),
        (0x44, 0xFFFF_FFFE),
    ] {
        put(&mut f, at, &v.to_le_bytes());
    }
    for k in 0..109 {
        put(
            &mut f,
            0x4C + 4 * k,
            &(if k == 0 { 0u32 } else { 0xFFFF_FFFF }).to_le_bytes(),
        );
    }
    // FAT: sector 0 is the FAT itself, sector 1 (directory) ends its chain.
    for i in 0..128 {
        let v: u32 = match i {
            0 => 0xFFFF_FFFD,
            1 => 0xFFFF_FFFE,
            _ => 0xFFFF_FFFF,
        };
        put(&mut f, 512 + 4 * i, &v.to_le_bytes());
    }
    let names: Vec<&str> = std::iter::once("Root Entry")
        .chain(streams.iter().copied())
        .collect();
    for (slot, name) in names.iter().enumerate() {
        let at = 1024 + 128 * slot;
        let units: Vec<u8> = name
            .encode_utf16()
            .chain([0])
            .flat_map(u16::to_le_bytes)
            .collect();
        put(&mut f, at, &units);
        put(&mut f, at + 64, &(units.len() as u16).to_le_bytes());
        f[at + 66] = if slot == 0 { 5 } else { 2 };
        // Siblings and child: the root's child is the first stream, streams chain rightwards.
        let child: u32 = if slot == 0 && names.len() > 1 {
            1
        } else {
            0xFFFF_FFFF
        };
        let right = if slot > 0 && slot + 1 < names.len() {
            slot as u32 + 1
        } else {
            0xFFFF_FFFF
        };
        put(&mut f, at + 68, &0xFFFF_FFFFu32.to_le_bytes());
        put(&mut f, at + 72, &right.to_le_bytes());
        put(&mut f, at + 76, &child.to_le_bytes());
    }
    f
}
