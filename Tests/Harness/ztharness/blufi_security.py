"""Device side of BluFi key agreement and frame encryption, V1 and V2, as ESP-IDF's BluFi example
(`examples/bluetooth/blufi/main/blufi_security.c`) does them.

V1 (IDF ≤ 5.x example): DH with the phone's p and g (in practice the 1024-bit prime below), key =
MD5 of the secret *without* leading zero bytes, AES-128-CFB128 with a fresh IV [seq, 0 × 15] per frame.
V2 (IDF ≥ 6.0 example): ffdhe3072 whatever the phone sends as p and g, 384-byte public keys, key =
SHA-256 of the secret padded to 384 bytes, AES-256-CTR with one continuous stream per direction.

DH uses GMP's modular power (gmpy2), not `cryptography`: recent `cryptography` releases refuse the V1
prime (it is not a safe prime). Not Python's pow() either: one mock process runs every emulated device,
so a device's key agreement holds up all the others, and pow() takes about 10 ms per ffdhe3072
agreement where GMP takes about 1 ms.
"""

import hashlib
from typing import Callable

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from gmpy2 import powmod

from . import blufi_frame as bf

V1_PRIME = int(
    "cf5cf5c38419a724957ff5dd323b9c45c3cdd261eb740f69aa94b8bb1a5c9640"
    "9153bd76b24222d03274e4725a5406092e9e82e9135c643cae98132b0d95f7d6"
    "5347c68afc1e677da90e51bbab5f5cf429c291b4ba39c6b2dc5e8c7231e46aa7"
    "728e87664532cdf547be20c9a3fa8342be6e34371a27c06f7dc0edddd2f86373", 16)

FFDHE3072_PRIME = int(
    "FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695A9E13641146433FBCC939DCE249B3EF9"
    "7D2FE363630C75D8F681B202AEC4617AD3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935"
    "984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797ABC0AB182B324FB61D108A94BB2C8E3FB"
    "B96ADAB760D7F4681D4F42A3DE394DF4AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F61"
    "9172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005C58EF1837D1683B2C6F34A26C1B2EFFA"
    "886B4238611FCFDCDE355B3B6519035BBC34F4DEF99C023861B46FC9D6E6C9077AD91D2691F7F7EE598CB0FAC186D91C"
    "AEFE130985139270B4130C93BC437944F4FD4452E2D74DD364F2E21E71F54BFF5CAE82AB9C9DF69EE86D2BC522363A0D"
    "ABC521979B0DEADA1DBF9A42D5C4484E0ABCD06BFA53DDEF3C1B20EE3FD59D7C25E41D2B66C62E37FFFFFFFFFFFFFFFF", 16)
FFDHE3072_BYTES = 384

# The model draws 256-bit private exponents; tests inject them to reproduce the worked examples of
# Tests/BluFiTests/Vectors/worked-examples.json.
PRIVATE_KEY_BYTES = 32

RandomBytes = Callable[[int], bytes]


class NegotiationError(Exception):
    """A negotiation step failed; `code` is the BluFi error report to send (`esp_blufi_error_state_t`)."""

    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code = code


def int_to_bytes(value: int, length: int) -> bytes:
    return value.to_bytes(length, "big")


def minimal_bytes(value: int) -> bytes:
    """Big-endian without leading zero bytes, as mbedtls_dhm_calc_secret writes the V1 secret."""
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def split_length_prefixed(params: bytes, count: int) -> list[bytes] | None:
    """Reads `count` fields of (2-byte big-endian length, bytes); None if they do not fit."""
    fields, offset = [], 0
    for _ in range(count):
        if offset + 2 > len(params):
            return None
        length = int.from_bytes(params[offset:offset + 2], "big")
        offset += 2
        if offset + length > len(params):
            return None
        fields.append(params[offset:offset + length])
        offset += length
    return fields


class SecurityV1:
    """V1: DH over the phone's group, MD5 key, AES-128-CFB128 per frame."""

    name = "v1"

    def __init__(self, random_bytes: RandomBytes):
        self._random_bytes = random_bytes
        self.key: bytes | None = None

    def agree(self, params: bytes) -> bytes:
        """Takes the NEG "parameter data" after its 0x01 byte; returns the device public key."""
        fields = split_length_prefixed(params, 3)
        if fields is None:
            raise NegotiationError(bf.ERR_READ_PARAM, "p/g/public key lengths do not fit")
        p, g, peer = (int.from_bytes(field, "big") for field in fields)
        if p < 5 or not 2 <= peer <= p - 2:
            raise NegotiationError(bf.ERR_READ_PARAM, "public key out of range")
        p_len = (p.bit_length() + 7) // 8
        if p_len > 128:
            raise NegotiationError(bf.ERR_DH_PARAM, "prime larger than 1024 bits")
        private = int.from_bytes(self._random_bytes(PRIVATE_KEY_BYTES), "big")
        own_public = int(powmod(g, private, p))
        secret = minimal_bytes(int(powmod(peer, private, p)))
        self.key = hashlib.md5(secret).digest()
        return int_to_bytes(own_public, p_len)

    def _cipher(self, seq: int) -> Cipher:
        return Cipher(algorithms.AES(self.key), modes.CFB(bytes([seq]) + bytes(15)))

    def encrypt(self, seq: int, data: bytes) -> bytes:
        encryptor = self._cipher(seq).encryptor()
        return encryptor.update(data) + encryptor.finalize()

    def decrypt(self, seq: int, data: bytes) -> bytes:
        decryptor = self._cipher(seq).decryptor()
        return decryptor.update(data) + decryptor.finalize()


class SecurityV2:
    """V2: ffdhe3072, SHA-256 key and IVs, AES-256-CTR streams that ignore sequence numbers."""

    name = "v2"

    def __init__(self, random_bytes: RandomBytes):
        self._random_bytes = random_bytes
        self.key: bytes | None = None
        self._decryptor = None
        self._encryptor = None
        self._own: tuple[int, int] | None = None

    def prepare(self) -> None:
        """Draws the device's key pair ahead of the phone's key (the group is fixed), so the emulator's own
        modular exponentiation is not on the negotiation's path: the model's device answers at once."""
        if self._own is None:
            private = int.from_bytes(self._random_bytes(PRIVATE_KEY_BYTES), "big")
            self._own = (private, int(powmod(2, private, FFDHE3072_PRIME)))

    def agree(self, params: bytes) -> bytes:
        fields = split_length_prefixed(params, 3)
        if fields is None:
            raise NegotiationError(bf.ERR_DH_PARAM, "p/g/public key lengths do not fit")
        peer_bytes = fields[2]
        if len(peer_bytes) != FFDHE3072_BYTES:
            raise NegotiationError(bf.ERR_DH_PARAM, f"public key has {len(peer_bytes)} bytes, not 384")
        peer = int.from_bytes(peer_bytes, "big")
        if not 2 <= peer <= FFDHE3072_PRIME - 2:
            raise NegotiationError(bf.ERR_DH_PARAM, "public key out of range")
        self.prepare()
        private, own_public = self._own
        self._own = None
        secret = int_to_bytes(int(powmod(peer, private, FFDHE3072_PRIME)), FFDHE3072_BYTES)
        self.key = hashlib.sha256(secret).digest()
        phone_to_device_iv = hashlib.sha256(b"blufi_dec" + secret).digest()[:16]
        device_to_phone_iv = hashlib.sha256(b"blufi_enc" + secret).digest()[:16]
        self._decryptor = Cipher(algorithms.AES(self.key), modes.CTR(phone_to_device_iv)).decryptor()
        self._encryptor = Cipher(algorithms.AES(self.key), modes.CTR(device_to_phone_iv)).encryptor()
        return int_to_bytes(own_public, FFDHE3072_BYTES)

    def encrypt(self, _seq: int, data: bytes) -> bytes:
        return self._encryptor.update(data)

    def decrypt(self, _seq: int, data: bytes) -> bytes:
        return self._decryptor.update(data)
