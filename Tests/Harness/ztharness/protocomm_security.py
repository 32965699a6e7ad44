"""Device side of protocomm security 0, 1 and 2, as ESP-IDF's `components/protocomm/src/security/` runs them.

Each class holds the one session a real device keeps (`security0.c`, `security1.c`,
`security2.c`): `handshake(session_data)` takes a decoded `SessionData` and returns the
response bytes, `encrypt`/`decrypt` protect endpoint payloads. Anything the device would
answer by closing the socket raises `ProtocommFailure`.

Randomness comes from `random_bytes(purpose, length)` so tests can pin every value:
purposes "sec1_device_private" (32), "sec1_device_random" (16), "sec2_b" (32),
"sec2_session_id" (8, patch 1) and "sec2_nonce" (16, patch 0).
"""

import hashlib
import hmac

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .protobuf_wire import encode

SRP_N = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
    "3995497CEA956AE515D2261898FA051015728E5A8AAAC42DAD33170D04507A33"
    "A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864"
    "D87602733EC86A64521F2B18177B200CBBE117577A615D6C770988C0BAD946E2"
    "08E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF", 16)
SRP_G = 5
SRP_LEN = 384

# SessionData field numbers (session.proto) and the per-scheme payload fields.
SESSION_SEC_VER = 2
SESSION_SEC0, SESSION_SEC1, SESSION_SEC2 = 10, 11, 12
PAYLOAD_MSG = 1
PAYLOAD_CMD0, PAYLOAD_RESP0, PAYLOAD_CMD1, PAYLOAD_RESP1 = 20, 21, 22, 23


class ProtocommFailure(Exception):
    """The device ends the request by closing the connection without a response."""


def sha512(*parts):
    return hashlib.sha512(b"".join(parts)).digest()


def minimal_bytes(value):
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big")


def padded(value):
    return value.to_bytes(SRP_LEN, "big")


SRP_K = int.from_bytes(sha512(padded(SRP_N), padded(SRP_G)), "big")


def srp_x(username, password, salt):
    """x = H(salt ‖ H(I ‖ ":" ‖ p)), the private value behind the stored verifier."""
    return int.from_bytes(sha512(salt, sha512(username + b":" + password)), "big")


def srp_verifier(username, password, salt):
    return pow(SRP_G, srp_x(username, password, salt), SRP_N)


def _require_sec_ver(session_data, version):
    if session_data.uint(SESSION_SEC_VER) != version:
        raise ProtocommFailure("security version mismatch")


class Security0:
    version = 0
    established = True

    def __init__(self, record):
        self.record = record

    def reset(self):
        pass

    def handshake(self, session_data):
        _require_sec_ver(session_data, 0)
        self.record("session", scheme=0, step="cmd0")
        return encode([(SESSION_SEC0, [(PAYLOAD_MSG, 1), (21, [])])])

    def encrypt(self, data):
        return data

    def decrypt(self, data):
        return data


class _TwoStepHandshake:
    """What both schemes share: Command0/Command1 dispatch inside their SessionData field, and "done"."""

    version = 0
    session_field = 0
    missing_payload = ""

    @property
    def established(self):
        return self.state == "done"

    def handshake(self, session_data):
        _require_sec_ver(session_data, self.version)
        payload = session_data.message(self.session_field)
        if payload is None:
            raise ProtocommFailure(self.missing_payload)
        msg = payload.uint(PAYLOAD_MSG)
        if msg == 0:
            return self._command0(payload)
        if msg == 2:
            return self._command1(payload)
        raise ProtocommFailure(f"invalid security message type {msg}")


class Security1(_TwoStepHandshake):
    """X25519 + optional PoP; one AES-256-CTR stream shared by both directions."""

    version = 1
    session_field = SESSION_SEC1
    missing_payload = "empty session data"

    def __init__(self, pop, random_bytes, record):
        self.pop = pop or b""
        self.random_bytes = random_bytes
        self.record = record
        self.reset()

    def reset(self):
        self.state = "cmd0"
        self.stream = None

    def _command0(self, payload):
        if self.state != "cmd0":
            self.reset()
        command = payload.message(PAYLOAD_CMD0)
        client_public = command.bytes(1) if command else b""
        if len(client_public) != 32:
            self.record("session", scheme=1, step="cmd0", ok=False, reason="public key length")
            raise ProtocommFailure("invalid client public key length")
        private = X25519PrivateKey.from_private_bytes(self.random_bytes("sec1_device_private", 32))
        self.device_public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.client_public = client_public
        try:
            shared = private.exchange(X25519PublicKey.from_public_bytes(client_public))
        except ValueError as error:
            raise ProtocommFailure(f"X25519 failed: {error}") from error
        if self.pop:
            mask = hashlib.sha256(self.pop).digest()
            shared = bytes(a ^ b for a, b in zip(shared, mask))
        self.key = shared
        self.device_random = self.random_bytes("sec1_device_random", 16)
        self.state = "cmd1"
        self.record("session", scheme=1, step="cmd0", ok=True)
        response = [(2, self.device_public), (3, self.device_random)]
        return encode([(SESSION_SEC_VER, 1),
                       (SESSION_SEC1, [(PAYLOAD_MSG, 1), (PAYLOAD_RESP0, response)])])

    def _command1(self, payload):
        if self.state != "cmd1":
            raise ProtocommFailure("session command1 out of order")
        command = payload.message(PAYLOAD_CMD1)
        verifier = command.bytes(2) if command else b""
        if len(verifier) < 32:
            raise ProtocommFailure("client verifier too short")
        self.stream = Cipher(algorithms.AES(self.key), modes.CTR(self.device_random)).encryptor()
        if not hmac.compare_digest(self.stream.update(verifier[:32]), self.device_public):
            self.record("session", scheme=1, step="cmd1", ok=False, reason="key mismatch")
            raise ProtocommFailure("key mismatch (wrong PoP)")
        device_verify = self.stream.update(self.client_public)
        self.state = "done"
        self.record("session", scheme=1, step="cmd1", ok=True)
        return encode([(SESSION_SEC_VER, 1),
                       (SESSION_SEC1, [(PAYLOAD_MSG, 3), (PAYLOAD_RESP1, [(3, device_verify)])])])

    def _crypt(self, data):
        if not self.established:
            raise ProtocommFailure("secure session not established")
        return self.stream.update(data)

    encrypt = _crypt
    decrypt = _crypt


class Security2(_TwoStepHandshake):
    """SRP6a 3072/SHA-512 + AES-256-GCM; patch 1 = counter IV, patch 0 = one fixed 16-byte IV."""

    version = 2
    session_field = SESSION_SEC2
    missing_payload = "security scheme mismatch"

    def __init__(self, username, password, salt, patch, random_bytes, record):
        self.salt = salt
        self.verifier = srp_verifier(username, password, salt)
        self.patch = patch
        self.random_bytes = random_bytes
        self.record = record
        self.reset()

    def reset(self):
        self.state = "cmd0"
        self.aead = None

    def _command0(self, payload):
        command = payload.message(PAYLOAD_CMD0)
        if command is None:
            raise ProtocommFailure("missing sc0 payload")
        if self.state != "cmd0":
            self.reset()
        username, client_public = command.bytes(1), command.bytes(2)
        if len(client_public) != SRP_LEN or not 1 <= len(username) <= 0xFFFF:
            self.record("session", scheme=2, step="cmd0", ok=False, reason="bad A or username length")
            raise ProtocommFailure("invalid client public key or username length")
        a_value = int.from_bytes(client_public, "big")
        if a_value % SRP_N == 0:
            raise ProtocommFailure("A mod N is zero")
        b_secret = int.from_bytes(self.random_bytes("sec2_b", 32), "big")
        b_value = (SRP_K * self.verifier + pow(SRP_G, b_secret, SRP_N)) % SRP_N
        device_public = minimal_bytes(b_value)
        u = int.from_bytes(sha512(client_public, padded(b_value)), "big")
        if u == 0:
            raise ProtocommFailure("u is zero")
        premaster = pow(a_value * pow(self.verifier, u, SRP_N), b_secret, SRP_N)
        self.session_key = sha512(minimal_bytes(premaster))
        self.username = username
        self.client_public = client_public
        self.device_public = device_public
        self.state = "cmd1"
        self.record("session", scheme=2, step="cmd0", ok=True,
                    username=username.decode("utf-8", "backslashreplace"))
        response = [(2, device_public), (3, self.salt)]
        return encode([(SESSION_SEC_VER, 2),
                       (SESSION_SEC2, [(PAYLOAD_MSG, 1), (PAYLOAD_RESP0, response)])])

    def _command1(self, payload):
        command = payload.message(PAYLOAD_CMD1)
        if command is None:
            raise ProtocommFailure("missing sc1 payload")
        if self.state != "cmd1":
            raise ProtocommFailure("session command1 out of order")
        client_proof = command.bytes(1)
        if len(client_proof) != 64:
            raise ProtocommFailure("client proof length is not 64")
        group_hash = bytes(a ^ b for a, b in zip(sha512(padded(SRP_N)), sha512(padded(SRP_G))))
        expected = sha512(group_hash, sha512(self.username), self.salt,
                          self.client_public, self.device_public, self.session_key)
        if not hmac.compare_digest(expected, client_proof):
            self.record("session", scheme=2, step="cmd1", ok=False, reason="proof mismatch")
            raise ProtocommFailure("client proof mismatch (wrong credentials)")
        device_proof = sha512(self.client_public, client_proof, self.session_key)
        if self.patch >= 1:
            self.iv = self.random_bytes("sec2_session_id", 8) + (1).to_bytes(4, "big")
        else:
            self.iv = self.random_bytes("sec2_nonce", 16)
        self.aead = AESGCM(self.session_key[:32])
        self.state = "done"
        self.record("session", scheme=2, step="cmd1", ok=True)
        response = [(2, device_proof), (3, self.iv)]
        return encode([(SESSION_SEC_VER, 2),
                       (SESSION_SEC2, [(PAYLOAD_MSG, 3), (PAYLOAD_RESP1, response)])])

    def _current_iv(self):
        if not self.established:
            raise ProtocommFailure("secure session not established")
        if self.patch >= 1 and self.iv[8:] == b"\0\0\0\0":
            raise ProtocommFailure("GCM counter wrapped; restart session")
        return self.iv

    def _advance(self):
        if self.patch >= 1:
            counter = (int.from_bytes(self.iv[8:], "big") + 1) & 0xFFFFFFFF
            self.iv = self.iv[:8] + counter.to_bytes(4, "big")

    def encrypt(self, data):
        sealed = self.aead.encrypt(self._current_iv(), data, None)
        self._advance()
        return sealed

    def decrypt(self, data):
        iv = self._current_iv()
        if len(data) < 16:
            raise ProtocommFailure("ciphertext shorter than the GCM tag")
        try:
            plain = self.aead.decrypt(iv, data, None)
        except InvalidTag as error:
            raise ProtocommFailure("GCM authentication failed") from error
        self._advance()
        return plain
