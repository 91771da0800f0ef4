"""Encrypts a DOCX with a password for tests/input_options.rs: `agile` as Word 2010 and later
do (msoffcrypto-tool's encryptor), `standard` as Word 2007 did (ECMA-376 standard
encryption, MS-OFFCRYPTO 2.3.4.5-9: AES-128 ECB, key from SHA-1), written into the same
compound file. Either is read back with msoffcrypto-tool before it is used, so a fixture is
checked by another implementation than the one under test.

Usage: encrypt.py agile|standard PASSWORD IN.docx OUT.docx
"""

import io
import os
import struct
import sys
from hashlib import sha1

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from msoffcrypto.format.ooxml import OOXMLFile
from msoffcrypto.method.container.ecma376_encrypted import ECMA376Encrypted
from msoffcrypto.method.ecma376_standard import ECMA376Standard

kind, password, source, target = sys.argv[1:5]
plain = open(source, "rb").read()
out = io.BytesIO()
if kind == "agile":
    OOXMLFile(io.BytesIO(plain)).encrypt(password, out)
elif kind == "standard":
    salt = os.urandom(16)
    # AES-128 (0x660E), SHA-1 (0x8004), the AES provider (0x18): what Word 2007 writes.
    key = ECMA376Standard.makekey_from_password(password, 0x660E, 0x8004, 0x18, 128, 16, salt)

    def encrypt(data):
        encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
        return encryptor.update(data) + encryptor.finalize()

    verifier = os.urandom(16)
    verifier_hash = sha1(verifier).digest() + b"\0" * 12
    csp = "Microsoft Enhanced RSA and AES Cryptographic Provider\0".encode("utf-16le")
    # EncryptionHeader (2.3.2): flags fCryptoAPI|fAES, no extra, AlgID, AlgIDHash, KeySize,
    # ProviderType, two reserved words, the CSP name.
    header = struct.pack("<8I", 0x24, 0, 0x660E, 0x8004, 128, 0x18, 0, 0) + csp
    # EncryptionVerifier (2.3.3).
    verifier_block = struct.pack("<I", 16) + salt + encrypt(verifier) + struct.pack("<I", 20) + encrypt(verifier_hash)
    # Version 4.2, flags, header size (2.3.4.5).
    info = struct.pack("<HHII", 4, 2, 0x24, len(header)) + header + verifier_block
    package = struct.pack("<Q", len(plain)) + encrypt(plain + b"\0" * (-len(plain) % 16))
    ECMA376Encrypted(package, info).write_to(out)
else:
    sys.exit(f"unknown kind {kind}")

check = OOXMLFile(io.BytesIO(out.getvalue()))
check.load_key(password=password)
back = io.BytesIO()
check.decrypt(back)
assert back.getvalue() == plain, "msoffcrypto-tool does not read the fixture back"
open(target, "wb").write(out.getvalue())
