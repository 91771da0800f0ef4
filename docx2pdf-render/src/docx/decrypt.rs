//! Opening a password-protected DOCX ([MS-OFFCRYPTO] §2.3.4): an OLE compound file whose
//! `EncryptionInfo` stream says how the key is made from the password and whose
//! `EncryptedPackage` stream is the zip package, encrypted. Agile encryption (§2.3.4.10,
//! what Word 2010 and later write) and standard encryption (§2.3.4.5, Word 2007) are read;
//! extensible encryption and certificate-only key encryptors are not. The spin count, the
//! salt, key and block sizes are bounded before any work, and the time limit is checked
//! while the key is derived and while the package is decrypted.

use aes::cipher::{BlockDecrypt, KeyInit};
use base64::Engine;
use quick_xml::events::Event;
use sha2::Digest;

use super::compound_file::CompoundFile;
use super::DocxError;
use crate::deadline::Deadline;
use crate::password::Password;

/// The most hash iterations an agile key may ask for: §2.3.4.10 `spinCount` "MUST be less
/// than or equal to 10,000,000".
const MAX_SPIN_COUNT: u32 = 10_000_000;
/// Standard encryption's fixed iteration count (§2.3.4.7).
const STANDARD_SPIN_COUNT: u32 = 50_000;
/// The largest `EncryptionInfo` stream read: Word's are under 2 KB; an XML descriptor of
/// a megabyte is not one.
const MAX_INFO_BYTES: usize = 1 << 20;
/// The agile package is encrypted in segments of this many bytes (§2.3.4.15).
const SEGMENT: usize = 4096;
/// The time limit is checked every this many hash iterations or segments.
const CHECK_EVERY: u32 = 1024;

/// The block keys of §2.3.4.11–13: the verifier's input, its hash and the secret key.
const BLOCK_VERIFIER_INPUT: [u8; 8] = [0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79];
const BLOCK_VERIFIER_HASH: [u8; 8] = [0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e];
const BLOCK_KEY: [u8; 8] = [0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6];

/// Whether `bytes` are a compound file holding an encrypted package (an encrypted DOCX,
/// XLSX or PPTX) that the reader can open.
pub(crate) fn is_encrypted_package(bytes: &[u8]) -> bool {
    bytes.starts_with(&super::compound_file::SIGNATURE) && super::sniff::has_encrypted_package(bytes)
}

/// The zip package inside an encrypted compound file, decrypted with `password`.
pub(crate) fn decrypt(bytes: &[u8], password: &Password, deadline: &Deadline) -> Result<Vec<u8>, DocxError> {
    let file = CompoundFile::open(bytes).ok_or_else(|| damaged("its compound file header cannot be read"))?;
    let info = file.stream("EncryptionInfo").ok_or_else(|| damaged("it has no readable EncryptionInfo stream"))?;
    if info.len() > MAX_INFO_BYTES {
        return Err(damaged("its EncryptionInfo stream is larger than 1 MiB"));
    }
    let package = file.stream("EncryptedPackage").ok_or_else(|| damaged("its EncryptedPackage stream cannot be read"))?;
    deadline.check()?;
    let (Some(major), Some(minor)) = (crate::bytes::u16_le(&info, 0), crate::bytes::u16_le(&info, 2)) else {
        return Err(damaged("its EncryptionInfo stream is cut short"));
    };
    match (major, minor) {
        // §2.3.4.10: version 4.4, reserved 0x40, then the XML descriptor.
        (4, 4) => agile(info.get(8..).unwrap_or_default(), &package, password, deadline),
        // §2.3.4.5: versions 2.2, 3.2 and 4.2.
        (2..=4, 2) => standard(&info, &package, password, deadline),
        // §2.3.4.6: extensible encryption (x.3) relies on a provider we do not have.
        (3 | 4, 3) => Err(unsupported("extensible encryption")),
        _ => Err(damaged(&format!("its EncryptionInfo version {major}.{minor} is not one of ECMA-376's"))),
    }
}

fn damaged(reason: &str) -> DocxError {
    DocxError::EncryptionDamaged { reason: reason.to_owned() }
}

fn unsupported(what: &str) -> DocxError {
    DocxError::EncryptionUnsupported { what: what.to_owned() }
}

/// A hash function an agile descriptor may name (§2.3.4.10 `hashAlgorithm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hash {
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

impl Hash {
    fn named(name: &str) -> Option<Hash> {
        match name.to_ascii_uppercase().replace('-', "").as_str() {
            "SHA1" => Some(Hash::Sha1),
            "SHA256" => Some(Hash::Sha256),
            "SHA384" => Some(Hash::Sha384),
            "SHA512" => Some(Hash::Sha512),
            _ => None,
        }
    }

    fn size(self) -> usize {
        match self {
            Hash::Sha1 => 20,
            Hash::Sha256 => 32,
            Hash::Sha384 => 48,
            Hash::Sha512 => 64,
        }
    }

    /// The hash of the parts, one after the other.
    fn of(self, parts: &[&[u8]]) -> Vec<u8> {
        fn run<D: Digest>(parts: &[&[u8]]) -> Vec<u8> {
            let mut d = D::new();
            for p in parts {
                d.update(p);
            }
            d.finalize().to_vec()
        }
        match self {
            Hash::Sha1 => run::<sha1::Sha1>(parts),
            Hash::Sha256 => run::<sha2::Sha256>(parts),
            Hash::Sha384 => run::<sha2::Sha384>(parts),
            Hash::Sha512 => run::<sha2::Sha512>(parts),
        }
    }

    /// H(salt + password), then `spin` times H(iterator + H), the iterator a 32-bit
    /// little-endian count (§2.3.4.7, §2.3.4.11); the time limit is checked as it goes.
    fn spun(self, salt: &[u8], password: &Password, spin: u32, deadline: &Deadline) -> Result<Vec<u8>, DocxError> {
        let mut pw = password.utf16le();
        let mut h = self.of(&[salt, &pw]);
        wipe(&mut pw);
        for i in 0..spin {
            if i % CHECK_EVERY == 0 {
                deadline.check()?;
            }
            h = self.of(&[&i.to_le_bytes(), &h]);
        }
        Ok(h)
    }
}

/// Overwrites a copy of secret bytes before it is freed.
fn wipe(bytes: &mut [u8]) {
    for b in bytes {
        // SAFETY: a plain write to a byte we own; volatile so it is not optimised away.
        unsafe { std::ptr::write_volatile(b, 0) };
    }
}

/// `bytes` cut or padded with 0x36 to `len` (§2.3.4.11: "If hashSize is less than keyBits
/// … padded with 0x36"; the same for an IV, §2.3.4.12).
fn fitted(mut bytes: Vec<u8>, len: usize) -> Vec<u8> {
    bytes.resize(len, 0x36);
    bytes
}

/// An AES key of 128, 192 or 256 bits.
enum Aes {
    A128(aes::Aes128),
    A192(aes::Aes192),
    A256(aes::Aes256),
}

impl Aes {
    fn new(key: &[u8]) -> Option<Aes> {
        Some(match key.len() {
            16 => Aes::A128(aes::Aes128::new_from_slice(key).ok()?),
            24 => Aes::A192(aes::Aes192::new_from_slice(key).ok()?),
            32 => Aes::A256(aes::Aes256::new_from_slice(key).ok()?),
            _ => return None,
        })
    }

    fn decrypt_block(&self, block: &mut [u8]) {
        let block = aes::Block::from_mut_slice(block);
        match self {
            Aes::A128(c) => c.decrypt_block(block),
            Aes::A192(c) => c.decrypt_block(block),
            Aes::A256(c) => c.decrypt_block(block),
        }
    }

    /// ECB: each 16-byte block on its own; a partial tail block is left as it is.
    fn decrypt_ecb(&self, data: &mut [u8]) {
        for block in data.chunks_exact_mut(16) {
            self.decrypt_block(block);
        }
    }

    /// CBC with `iv` (16 bytes): each plain block is the decrypted block XOR the cipher
    /// block before it; a partial tail block is left as it is.
    fn decrypt_cbc(&self, iv: &[u8], data: &mut [u8]) {
        let mut previous = [0u8; 16];
        previous.copy_from_slice(&iv[..16]);
        for block in data.chunks_exact_mut(16) {
            let mut cipher = [0u8; 16];
            cipher.copy_from_slice(block);
            self.decrypt_block(block);
            for (b, p) in block.iter_mut().zip(previous) {
                *b ^= p;
            }
            previous = cipher;
        }
    }
}

/// The package's declared length (the first 8 bytes of `EncryptedPackage`, §2.3.4.4) and
/// its encrypted bytes; the length may not exceed what follows.
fn package_parts(package: &[u8]) -> Result<(usize, &[u8]), DocxError> {
    let size = package.get(..8).map(|s| u64::from_le_bytes(s.try_into().unwrap_or_default()));
    let data = package.get(8..).unwrap_or_default();
    match size {
        Some(size) if size <= data.len() as u64 => Ok((size as usize, data)),
        _ => Err(damaged("its EncryptedPackage stream is shorter than the size it declares")),
    }
}

/// One key encryptor's or the key data's parameters (§2.3.4.10 `CT_KeyData`,
/// `CT_PasswordKeyEncryptor`).
#[derive(Debug, Default)]
struct Params {
    salt: Vec<u8>,
    block_size: usize,
    key_bits: usize,
    hash: Option<Hash>,
    hash_size: usize,
    cipher_ok: bool,
    spin_count: u32,
    verifier_input: Vec<u8>,
    verifier_hash: Vec<u8>,
    key_value: Vec<u8>,
}

/// Reads `keyData` and the password's `encryptedKey` from the agile XML descriptor.
fn agile_params(xml: &[u8]) -> Result<(Params, Params), DocxError> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut key_data = None;
    let mut key = None;
    let mut certificate_only = false;
    loop {
        let event = reader.read_event().map_err(|_| damaged("its encryption descriptor is not well-formed XML"))?;
        match event {
            Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                b"keyData" => key_data = Some(params(&e)?),
                // The password's key encryptor has a spin count; a certificate's has not.
                b"encryptedKey" if e.try_get_attribute("spinCount").ok().flatten().is_some() => key = Some(params(&e)?),
                b"encryptedKey" => certificate_only = true,
                _ => {}
            },
            Event::DocType(_) => return Err(damaged("its encryption descriptor declares a DTD")),
            Event::Eof => break,
            _ => {}
        }
    }
    match (key_data, key) {
        (Some(data), Some(key)) => Ok((data, key)),
        (Some(_), None) if certificate_only => Err(unsupported("a certificate instead of a password")),
        _ => Err(damaged("its encryption descriptor lacks keyData or a password key encryptor")),
    }
}

/// The attributes of one descriptor element, base64 values decoded.
fn params(e: &quick_xml::events::BytesStart<'_>) -> Result<Params, DocxError> {
    let mut p = Params::default();
    for a in e.attributes().flatten() {
        let value = String::from_utf8_lossy(&a.value).into_owned();
        let number = || value.trim().parse::<usize>().map_err(|_| damaged("a size in its encryption descriptor is not a number"));
        let b64 = || {
            base64::engine::general_purpose::STANDARD
                .decode(value.trim())
                .map_err(|_| damaged("a value in its encryption descriptor is not base64"))
        };
        match a.key.local_name().as_ref() {
            b"saltValue" => p.salt = b64()?,
            b"blockSize" => p.block_size = number()?,
            b"keyBits" => p.key_bits = number()?,
            b"hashSize" => p.hash_size = number()?,
            b"hashAlgorithm" => p.hash = Some(Hash::named(&value).ok_or_else(|| unsupported(&format!("the hash {value:?}")))?),
            b"cipherAlgorithm" => p.cipher_ok = value == "AES",
            b"cipherChaining" if value != "ChainingModeCBC" => return Err(unsupported(&format!("the cipher chaining {value:?}"))),
            b"spinCount" => p.spin_count = value.trim().parse().map_err(|_| damaged("its spin count is not a number"))?,
            b"encryptedVerifierHashInput" => p.verifier_input = b64()?,
            b"encryptedVerifierHashValue" => p.verifier_hash = b64()?,
            b"encryptedKeyValue" => p.key_value = b64()?,
            _ => {}
        }
    }
    if !p.cipher_ok {
        return Err(unsupported("a cipher other than AES"));
    }
    // §2.3.4.10: salts of 1 to 65,536 bytes; AES blocks are 16 bytes; hash sizes as the
    // hash gives them; keys of 128, 192 or 256 bits.
    let hash = p.hash.ok_or_else(|| damaged("its encryption descriptor names no hash"))?;
    if p.salt.is_empty() || p.salt.len() > 65_536 || p.block_size != 16 || p.hash_size != hash.size() {
        return Err(damaged("its encryption descriptor has sizes ECMA-376 does not allow"));
    }
    if !matches!(p.key_bits, 128 | 192 | 256) {
        return Err(unsupported(&format!("{}-bit AES keys", p.key_bits)));
    }
    if p.spin_count > MAX_SPIN_COUNT {
        return Err(damaged("its spin count is over ECMA-376's limit of 10,000,000"));
    }
    Ok(p)
}

/// Agile encryption (§2.3.4.10–15).
fn agile(xml: &[u8], package: &[u8], password: &Password, deadline: &Deadline) -> Result<Vec<u8>, DocxError> {
    let (data, key) = agile_params(xml)?;
    let (hash, data_hash) = (key.hash.unwrap_or(Hash::Sha512), data.hash.unwrap_or(Hash::Sha512));
    let key_len = key.key_bits / 8;
    let spun = hash.spun(&key.salt, password, key.spin_count, deadline)?;
    let block_key = |block: &[u8]| fitted(hash.of(&[&spun, block]), key_len);
    let iv = fitted(key.salt.clone(), key.block_size);
    let decrypt = |block: &[u8], value: &[u8]| -> Result<Vec<u8>, DocxError> {
        let cipher = Aes::new(&block_key(block)).ok_or_else(|| damaged("its key size is not AES's"))?;
        let mut out = value.to_vec();
        if out.len() % 16 != 0 {
            return Err(damaged("an encrypted value is not whole AES blocks"));
        }
        cipher.decrypt_cbc(&iv, &mut out);
        Ok(out)
    };
    // §2.3.4.13: the password is right when the verifier's hash is the hash it carries.
    let input = decrypt(&BLOCK_VERIFIER_INPUT, &key.verifier_input)?;
    let expected = decrypt(&BLOCK_VERIFIER_HASH, &key.verifier_hash)?;
    let input = input.get(..key.salt.len()).ok_or_else(|| damaged("its verifier is shorter than its salt"))?;
    let expected = expected.get(..key.hash_size).ok_or_else(|| damaged("its verifier hash is shorter than the hash"))?;
    if hash.of(&[input]) != expected {
        return Err(DocxError::WrongPassword);
    }
    let mut secret = decrypt(&BLOCK_KEY, &key.key_value)?;
    let data_key_len = data.key_bits / 8;
    if secret.len() < data_key_len {
        return Err(damaged("its encrypted key is shorter than the key"));
    }
    let cipher = Aes::new(&secret[..data_key_len]).ok_or_else(|| damaged("its key size is not AES's"))?;
    wipe(&mut secret);

    // §2.3.4.15: 4096-byte segments, each with the IV H(keyData salt + segment index).
    let (size, encrypted) = package_parts(package)?;
    let mut plain = encrypted.to_vec();
    for (i, segment) in plain.chunks_mut(SEGMENT).enumerate() {
        let i = u32::try_from(i).map_err(|_| damaged("its package has too many segments"))?;
        if i % CHECK_EVERY == 0 {
            deadline.check()?;
        }
        let iv = fitted(data_hash.of(&[&data.salt, &i.to_le_bytes()]), data.block_size);
        cipher.decrypt_cbc(&iv, segment);
    }
    plain.truncate(size);
    Ok(plain)
}

/// Standard encryption's key (§2.3.4.7): SHA-1 spun 50,000 times, then stretched with the
/// 0x36 and 0x5C pads to `key_bits`.
fn standard_key(salt: &[u8], password: &Password, key_bits: usize, deadline: &Deadline) -> Result<Vec<u8>, DocxError> {
    let h = Hash::Sha1.spun(salt, password, STANDARD_SPIN_COUNT, deadline)?;
    let mut final_hash = Hash::Sha1.of(&[&h, &0u32.to_le_bytes()]);
    let derive = |pad: u8| {
        let mut buf = [pad; 64];
        for (b, h) in buf.iter_mut().zip(&final_hash) {
            *b ^= h;
        }
        Hash::Sha1.of(&[&buf])
    };
    let mut x = derive(0x36);
    x.extend(derive(0x5c));
    wipe(&mut final_hash);
    let key = x[..key_bits / 8].to_vec();
    wipe(&mut x);
    Ok(key)
}

/// Standard encryption (§2.3.4.5–9): AES in ECB mode, the key made with SHA-1.
fn standard(info: &[u8], package: &[u8], password: &Password, deadline: &Deadline) -> Result<Vec<u8>, DocxError> {
    let field = |at: usize| crate::bytes::u32_le(info, at).ok_or_else(|| damaged("its EncryptionInfo stream is cut short"));
    let flags = field(4)?;
    let header_size = field(8)? as usize;
    // §2.3.1: fCryptoAPI (bit 2) and fAES (bit 5) must be set; fExternal (bit 4) means
    // extensible encryption.
    if flags & 0x10 != 0 {
        return Err(unsupported("extensible encryption"));
    }
    if flags & 0x24 != 0x24 {
        return Err(unsupported("RC4 encryption"));
    }
    // The EncryptionHeader (§2.3.2): AlgID at +8, KeySize at +16.
    let header = 12;
    let alg = field(header + 8)?;
    let key_bits = field(header + 16)? as usize;
    if !matches!(alg, 0 | 0x660E | 0x660F | 0x6610) || !matches!(key_bits, 128 | 192 | 256) {
        return Err(unsupported("a cipher other than AES"));
    }
    // The EncryptionVerifier (§2.3.3) follows the header.
    let verifier = header.checked_add(header_size).ok_or_else(|| damaged("its header size is out of range"))?;
    let salt_size = field(verifier)? as usize;
    if salt_size != 16 {
        return Err(damaged("its salt is not 16 bytes"));
    }
    let part = |at: usize, len: usize| {
        info.get(verifier + at..verifier + at + len).ok_or_else(|| damaged("its EncryptionVerifier is cut short"))
    };
    let salt = part(4, 16)?;
    let encrypted_verifier = part(20, 16)?;
    let encrypted_hash = part(40, 32)?;

    let cipher = Aes::new(&standard_key(salt, password, key_bits, deadline)?).ok_or_else(|| damaged("its key size is not AES's"))?;

    // §2.3.4.8: the password is right when SHA-1 of the verifier is its hash.
    let mut check = encrypted_verifier.to_vec();
    cipher.decrypt_ecb(&mut check);
    let mut hash = encrypted_hash.to_vec();
    cipher.decrypt_ecb(&mut hash);
    if Hash::Sha1.of(&[&check]) != hash[..20] {
        return Err(DocxError::WrongPassword);
    }

    // §2.3.4.4: the package, AES-ECB over the whole stream after its size.
    let (size, encrypted) = package_parts(package)?;
    let mut plain = encrypted.to_vec();
    for (i, chunk) in plain.chunks_mut(SEGMENT * CHECK_EVERY as usize).enumerate() {
        if i > 0 {
            deadline.check()?;
        }
        cipher.decrypt_ecb(chunk);
    }
    plain.truncate(size);
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use aes::cipher::BlockEncrypt;

    use super::*;
    use crate::deadline::Limit;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    fn encrypt_ecb(key: &[u8], data: &[u8]) -> Vec<u8> {
        let cipher = aes::Aes128::new_from_slice(key).unwrap();
        let mut out = data.to_vec();
        for block in out.chunks_exact_mut(16) {
            cipher.encrypt_block(aes::Block::from_mut_slice(block));
        }
        out
    }

    /// msoffcrypto-tool's known answer for standard encryption (its ECMA376Standard doctests).
    #[test]
    fn the_standard_key_and_verifier_match_a_known_answer() {
        let salt = unhex("e88266490c5bd1eebd2b4394e3f830ef");
        let key = standard_key(&salt, &Password::new("Password1234_"), 128, &Deadline::none()).unwrap();
        assert_eq!(key, unhex("40b13a71f90b966e375408f2d181a1aa"));
        let cipher = Aes::new(&key).unwrap();
        let mut verifier = unhex("516f732e966fac17b1c5d7d8cc36c928");
        cipher.decrypt_ecb(&mut verifier);
        let mut hash = unhex("2b6168dabe2911ad2bd37c1746745c14d3cf1bb140a48f4e6f3d23880872b16a");
        cipher.decrypt_ecb(&mut hash);
        assert_eq!(Hash::Sha1.of(&[&verifier]), hash[..20]);
    }

    /// A standard EncryptionInfo stream (§2.3.4.5) for `password`, and its package.
    fn standard_file(password: &str, plain: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let salt = [7u8; 16];
        let key = standard_key(&salt, &Password::new(password), 128, &Deadline::none()).unwrap();
        let verifier = [3u8; 16];
        let mut hash = Hash::Sha1.of(&[&verifier]);
        hash.resize(32, 0);
        let mut header = Vec::new();
        for v in [0x24u32, 0, 0x660E, 0x8004, 128, 0x18, 0, 0] {
            header.extend(v.to_le_bytes());
        }
        let mut info = vec![4, 0, 2, 0];
        info.extend(0x24u32.to_le_bytes());
        info.extend((header.len() as u32).to_le_bytes());
        info.extend(&header);
        info.extend(16u32.to_le_bytes());
        info.extend(salt);
        info.extend(encrypt_ecb(&key, &verifier));
        info.extend(20u32.to_le_bytes());
        info.extend(encrypt_ecb(&key, &hash));
        let mut padded = plain.to_vec();
        padded.resize(plain.len().div_ceil(16) * 16, 0);
        let mut package = (plain.len() as u64).to_le_bytes().to_vec();
        package.extend(encrypt_ecb(&key, &padded));
        (info, package)
    }

    #[test]
    fn a_standard_package_opens_with_its_password_only() {
        let plain = b"PK\x03\x04 a zip package, as far as this test goes".to_vec();
        let (info, package) = standard_file("s3cret", &plain);
        let open = |pw: &str| standard(&info, &package, &Password::new(pw), &Deadline::none());
        assert_eq!(open("s3cret").unwrap(), plain);
        assert!(matches!(open("S3cret"), Err(DocxError::WrongPassword)));
        // A package that declares more than it holds is refused, not read past its end.
        let mut lying = package.clone();
        lying[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = standard(&info, &lying, &Password::new("s3cret"), &Deadline::none()).unwrap_err();
        assert!(matches!(e, DocxError::EncryptionDamaged { .. }), "{e}");
    }

    #[test]
    fn deriving_the_key_counts_against_the_time_limit() {
        let (info, package) = standard_file("s3cret", b"x");
        let passed = Deadline::after(Duration::ZERO);
        let e = standard(&info, &package, &Password::new("s3cret"), &passed).unwrap_err();
        assert!(matches!(e, DocxError::Limit(Limit::Time)), "{e}");
    }

    fn agile_xml(spin: &str, hash: &str) -> String {
        let zeros = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![0u8; n]);
        let (salt, input, value, key) = (zeros(16), zeros(16), zeros(64), zeros(32));
        format!(
            r#"<?xml version="1.0"?><encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password"><keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="{salt}"/><keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password"><p:encryptedKey spinCount="{spin}" saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="{hash}" saltValue="{salt}" encryptedVerifierHashInput="{input}" encryptedVerifierHashValue="{value}" encryptedKeyValue="{key}"/></keyEncryptor></keyEncryptors></encryption>"#
        )
    }

    #[test]
    fn agile_parameters_are_bounded_before_any_hashing() {
        let pw = Password::new("x");
        let package = [0u8; 8];
        // Over the spin count ECMA-376 allows: refused at once, no 4-billion-round loop.
        let e = agile(agile_xml("4294967295", "SHA512").as_bytes(), &package, &pw, &Deadline::none()).unwrap_err();
        assert!(matches!(e, DocxError::EncryptionDamaged { .. }), "{e}");
        let e = agile(agile_xml("100000", "MD5").as_bytes(), &package, &pw, &Deadline::none()).unwrap_err();
        assert!(matches!(e, DocxError::EncryptionUnsupported { .. }), "{e}");
        // A valid descriptor with another password's verifier: the wrong password.
        let e = agile(agile_xml("1000", "SHA512").as_bytes(), &package, &pw, &Deadline::none()).unwrap_err();
        assert!(matches!(e, DocxError::WrongPassword), "{e}");
        // And the spinning stops at the time limit.
        let e = agile(agile_xml("10000000", "SHA512").as_bytes(), &package, &pw, &Deadline::after(Duration::ZERO)).unwrap_err();
        assert!(matches!(e, DocxError::Limit(Limit::Time)), "{e}");
    }

    #[test]
    fn a_protected_document_without_a_password_says_so_and_a_damaged_one_is_invalid() {
        let file = crate::docx::sniff::tests::compound_file("EncryptedPackage");
        let limits = crate::docx::PackageLimits::default();
        let e = crate::docx::read_with_password(&file, None, &limits, &Deadline::none()).unwrap_err();
        assert!(matches!(e, DocxError::PasswordRequired), "{e}");
        assert_eq!(e.kind(), crate::docx::DocxErrorKind::Encrypted);
        // The test file has no EncryptionInfo stream at all.
        let e = crate::docx::read_with_password(&file, Some(&Password::new("x")), &limits, &Deadline::none()).unwrap_err();
        assert!(matches!(e, DocxError::EncryptionDamaged { .. }), "{e}");
        assert_eq!(e.kind(), crate::docx::DocxErrorKind::Invalid);
    }
}
