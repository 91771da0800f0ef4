//! The standard security handler, revision 6 (ISO 32000-2 §7.6.4): a random file
//! encryption key, the password entries that unlock it (O, U, OE, UE, Perms) and AES-256
//! encryption of strings and streams (the AESV3 crypt filter, §7.6.3).

use aes::cipher::block_padding::{NoPadding, Pkcs7};
use aes::cipher::generic_array::GenericArray;
use aes::cipher::{BlockEncrypt, BlockEncryptMut, KeyInit, KeyIvInit};
use sha2::{Digest, Sha256, Sha384, Sha512};

use super::password::Passwords;
use crate::pdf::PdfError;

type Aes128Cbc = cbc::Encryptor<aes::Aes128>;
type Aes256Cbc = cbc::Encryptor<aes::Aes256>;

/// Printing (bit 3), copying (bit 5), extraction for accessibility (bit 10) and
/// high-quality printing (bit 12) allowed; changing the document (bit 4), annotating and
/// filling forms (bits 6, 9) and assembling (bit 11) not. Bits 7–8 and 13–32 are 1, bits
/// 1–2 are 0 (ISO 32000-2 §7.6.4.2, Table 22).
const RESTRICTED: u32 = 0xFFFF_F000 | 0x0C0 | (1 << 2) | (1 << 4) | (1 << 9) | (1 << 11);

/// Every permission: all bits but 1–2 (Table 22).
const EVERYTHING: u32 = 0xFFFF_FFFC;

/// Random bytes from the operating system, taken a few kilobytes at a time: every string
/// and stream needs an initialisation vector of its own (ISO 32000-2 §7.6.3).
pub(super) struct Random {
    pool: [u8; 4096],
    used: usize,
}

impl Random {
    pub(super) fn new() -> Random {
        Random { pool: [0; 4096], used: 4096 }
    }

    pub(super) fn fill(&mut self, out: &mut [u8]) -> Result<(), PdfError> {
        for byte in out {
            if self.used == self.pool.len() {
                getrandom::fill(&mut self.pool).map_err(|e| PdfError::Encrypt(format!("no random bytes from the system: {e}")))?;
                self.used = 0;
            }
            *byte = self.pool[self.used];
            self.used += 1;
        }
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], PdfError> {
        let mut out = [0; N];
        self.fill(&mut out)?;
        Ok(out)
    }
}

/// A document's file encryption key and the entries of its encryption dictionary.
pub(super) struct Handler {
    key: [u8; 32],
    /// The owner and user entries: 32 bytes of hash, then the validation and key salts.
    o: [u8; 48],
    u: [u8; 48],
    /// The file encryption key encrypted under each password.
    oe: [u8; 32],
    ue: [u8; 32],
    /// The permissions, and the same encrypted under the file key (§7.6.4.4.9).
    p: u32,
    perms: [u8; 16],
}

impl Handler {
    /// A fresh random file encryption key, locked with `passwords`.
    pub(super) fn new(passwords: &Passwords, random: &mut Random) -> Result<Handler, PdfError> {
        let key: [u8; 32] = random.array()?;
        // Algorithm 8 (§7.6.4.4.7): the user entries.
        let (user_validation, user_key_salt): ([u8; 8], [u8; 8]) = (random.array()?, random.array()?);
        let mut u = [0; 48];
        u[..32].copy_from_slice(&hash(&passwords.user, &user_validation, &[]));
        u[32..40].copy_from_slice(&user_validation);
        u[40..].copy_from_slice(&user_key_salt);
        let ue = wrap(&hash(&passwords.user, &user_key_salt, &[]), &key);
        // Algorithm 9 (§7.6.4.4.8): the owner entries, which hash the user entry too.
        let (owner_validation, owner_key_salt): ([u8; 8], [u8; 8]) = (random.array()?, random.array()?);
        let mut o = [0; 48];
        o[..32].copy_from_slice(&hash(&passwords.owner, &owner_validation, &u));
        o[32..40].copy_from_slice(&owner_validation);
        o[40..].copy_from_slice(&owner_key_salt);
        let oe = wrap(&hash(&passwords.owner, &owner_key_salt, &u), &key);
        // Algorithm 10 (§7.6.4.4.9): the permissions, sealed so they cannot be edited.
        let p = if passwords.restricted { RESTRICTED } else { EVERYTHING };
        let mut perms = [0u8; 16];
        perms[..4].copy_from_slice(&p.to_le_bytes());
        perms[4..8].fill(0xFF);
        // Metadata is encrypted too (EncryptMetadata true), then "adb", then 4 random bytes.
        perms[8..12].copy_from_slice(b"Tadb");
        random.fill(&mut perms[12..])?;
        let cipher = aes::Aes256::new(GenericArray::from_slice(&key));
        cipher.encrypt_block(GenericArray::from_mut_slice(&mut perms));
        Ok(Handler { key, o, u, oe, ue, p, perms })
    }

    /// `data` encrypted with the AESV3 filter: a random 16-byte initialisation vector,
    /// then the data in AES-256-CBC with PKCS#5 padding (§7.6.3, under the file key alone).
    pub(super) fn encrypt(&self, data: &[u8], random: &mut Random, out: &mut Vec<u8>) -> Result<(), PdfError> {
        let iv: [u8; 16] = random.array()?;
        let start = out.len();
        out.extend_from_slice(&iv);
        out.resize(start + 16 + (data.len() / 16 + 1) * 16, 0);
        let cipher = Aes256Cbc::new(GenericArray::from_slice(&self.key), GenericArray::from_slice(&iv));
        let written = cipher
            .encrypt_padded_b2b_mut::<Pkcs7>(data, &mut out[start + 16..])
            .map_err(|_| PdfError::Encrypt("a block could not be padded".into()))?
            .len();
        out.truncate(start + 16 + written);
        Ok(())
    }

    /// The encryption dictionary's entries, without `<<` and `>>` (Tables 20, 21 and 25).
    pub(super) fn dictionary(&self) -> Vec<u8> {
        let mut d = b"/Filter/Standard/V 5/R 6/Length 256/CF<</StdCF<</Type/CryptFilter/CFM/AESV3/AuthEvent/DocOpen/Length 32>>>>/StmF/StdCF/StrF/StdCF".to_vec();
        for (name, value) in [
            (&b"/O"[..], &self.o[..]),
            (&b"/U"[..], &self.u[..]),
            (&b"/OE"[..], &self.oe[..]),
            (&b"/UE"[..], &self.ue[..]),
            (&b"/Perms"[..], &self.perms[..]),
        ] {
            d.extend_from_slice(name);
            push_hex(&mut d, value);
        }
        d.extend_from_slice(format!("/P {}/EncryptMetadata true", self.p as i32).as_bytes());
        d
    }
}

/// Writes `bytes` as a hexadecimal string, `<…>` (§7.3.4.3).
pub(super) fn push_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    out.reserve(2 * bytes.len() + 2);
    out.push(b'<');
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)]);
        out.push(DIGITS[usize::from(b & 15)]);
    }
    out.push(b'>');
}

/// Algorithm 2.B (ISO 32000-2 §7.6.4.3.4): the hash of a password with a salt and, for
/// the owner password, the user entry.
fn hash(password: &[u8], salt: &[u8], user_entry: &[u8]) -> [u8; 32] {
    let mut k: Vec<u8> = Sha256::new().chain_update(password).chain_update(salt).chain_update(user_entry).finalize().to_vec();
    let mut round = 0u32;
    loop {
        round += 1;
        let mut k1 = Vec::with_capacity(64 * (password.len() + k.len() + user_entry.len()));
        for _ in 0..64 {
            k1.extend_from_slice(password);
            k1.extend_from_slice(&k);
            k1.extend_from_slice(user_entry);
        }
        let len = k1.len();
        // K1 is a multiple of 16 bytes long (64 copies), so no padding is needed.
        let cipher = Aes128Cbc::new(GenericArray::from_slice(&k[..16]), GenericArray::from_slice(&k[16..32]));
        let e = match cipher.encrypt_padded_mut::<NoPadding>(&mut k1, len) {
            Ok(e) => e,
            Err(_) => unreachable!("64 copies are whole blocks"),
        };
        // The first 16 bytes of E as a number, modulo 3: the sum of the bytes modulo 3
        // is the same, as 256 ≡ 1 (mod 3).
        let choice = e[..16].iter().map(|&b| u32::from(b)).sum::<u32>() % 3;
        k = match choice {
            0 => Sha256::digest(&*e).to_vec(),
            1 => Sha384::digest(&*e).to_vec(),
            _ => Sha512::digest(&*e).to_vec(),
        };
        // At least 64 rounds, then until E's last byte is at most the round number - 32
        // (counting the first hash as round 0, as Acrobat does).
        let last = u32::from(e[len - 1]);
        if round >= 64 && last + 32 <= round {
            break;
        }
    }
    let mut out = [0; 32];
    out.copy_from_slice(&k[..32]);
    out
}

/// The file key encrypted under an intermediate key: AES-256, CBC with a zero
/// initialisation vector and no padding (Algorithms 8 and 9, step c).
fn wrap(intermediate: &[u8; 32], key: &[u8; 32]) -> [u8; 32] {
    let mut out = *key;
    let cipher = Aes256Cbc::new(GenericArray::from_slice(intermediate), &GenericArray::default());
    if cipher.encrypt_padded_mut::<NoPadding>(&mut out, 32).is_err() {
        unreachable!("32 bytes are two whole blocks");
    }
    out
}

#[cfg(test)]
mod tests {
    use aes::cipher::{BlockDecrypt, BlockDecryptMut};

    use super::*;

    type Aes256CbcDec = cbc::Decryptor<aes::Aes256>;

    fn handler(user: Option<&str>, owner: Option<&str>) -> Handler {
        let passwords = Passwords::new(user, owner).unwrap().unwrap();
        Handler::new(&passwords, &mut Random::new()).unwrap()
    }

    /// Algorithm 11 (§7.6.4.4.10): a user password is right when the hash of it with the
    /// validation salt is the first half of U; Algorithm 12 likewise for the owner.
    #[test]
    fn each_password_validates_against_its_entry_and_no_other() {
        let h = handler(Some("user pw"), Some("owner pw"));
        assert_eq!(hash(b"user pw", &h.u[32..40], &[]), h.u[..32]);
        assert_ne!(hash(b"owner pw", &h.u[32..40], &[]), h.u[..32]);
        assert_eq!(hash(b"owner pw", &h.o[32..40], &h.u), h.o[..32]);
        assert_ne!(hash(b"user pw", &h.o[32..40], &h.u), h.o[..32]);
    }

    /// Both passwords unwrap the same file key, and Perms decrypts to P with "adb"
    /// (§7.6.4.4.11).
    #[test]
    fn both_passwords_unwrap_the_file_key_and_perms_seals_p() {
        let h = handler(Some("user pw"), Some("owner pw"));
        let unwrap = |intermediate: [u8; 32], wrapped: [u8; 32]| {
            let mut out = wrapped;
            Aes256CbcDec::new(GenericArray::from_slice(&intermediate), &GenericArray::default())
                .decrypt_padded_mut::<NoPadding>(&mut out)
                .unwrap();
            out
        };
        assert_eq!(unwrap(hash(b"user pw", &h.u[40..], &[]), h.ue), h.key);
        assert_eq!(unwrap(hash(b"owner pw", &h.o[40..], &h.u), h.oe), h.key);
        let mut perms = h.perms;
        aes::Aes256::new(GenericArray::from_slice(&h.key)).decrypt_block(GenericArray::from_mut_slice(&mut perms));
        assert_eq!(&perms[..4], &RESTRICTED.to_le_bytes());
        assert_eq!(&perms[8..12], b"Tadb");
        assert_eq!(h.p as i32, -1324, "print, copy, accessibility and high-quality print only");
        assert_eq!(handler(Some("user pw"), None).p as i32, -4);
    }

    /// Every string and stream gets a fresh vector, and decrypts back to itself.
    #[test]
    fn data_is_encrypted_with_a_fresh_vector_each_time() {
        let h = handler(None, Some("owner pw"));
        let mut random = Random::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        h.encrypt(b"BT /F1 12 Tf (Hello) Tj ET", &mut random, &mut a).unwrap();
        h.encrypt(b"BT /F1 12 Tf (Hello) Tj ET", &mut random, &mut b).unwrap();
        assert_eq!(a.len(), 16 + 32);
        assert_ne!(a, b);
        let mut body = a[16..].to_vec();
        let plain = Aes256CbcDec::new(GenericArray::from_slice(&h.key), GenericArray::from_slice(&a[..16]))
            .decrypt_padded_mut::<Pkcs7>(&mut body)
            .unwrap();
        assert_eq!(plain, b"BT /F1 12 Tf (Hello) Tj ET");
        let mut empty = Vec::new();
        h.encrypt(b"", &mut random, &mut empty).unwrap();
        assert_eq!(empty.len(), 32, "an empty string is one block of padding");
    }
}
