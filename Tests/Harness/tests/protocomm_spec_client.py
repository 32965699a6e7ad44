"""A protocomm client for ESP-IDF's security schemes and Wi-Fi messages, used only to drive the device model.

It builds every message by field number, so a test failure points at either the model or
this client's reading of the protocol, never at shared generated code.
`transport(endpoint, body) -> bytes` carries the requests: `via_model(device)` calls
`ProtocommDevice.handle` directly, the device-host test passes an HTTP transport.
"""

import hashlib

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ztharness.protobuf_wire import decode, encode
from ztharness.protocomm_security import SRP_G, SRP_N

SRP_K = int("a9c2e2559bf0ebb53f0cbbf62282906bede7f2182f00678211fbd5bde5b285033a4993503b87397f9be5"
            "ec02080fedbc0835587ad039060879b8621e8c3659e0", 16)
GROUP_HASH = bytes.fromhex("dad76ed5365ed7bf6bbc1bfa050981458392bbd35a50335d03db3c7535b261d1c902"
                           "f2ffb8647125bd28ce966c066d5be9b939216c6078b65889299c61624694")


def h512(*parts):
    return hashlib.sha512(b"".join(parts)).digest()


def pad384(value):
    return value.to_bytes(384, "big")


def minimal(value):
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


def via_model(device):
    return lambda endpoint, body: device.handle(endpoint, body).body


class SpecClient:
    def __init__(self, transport, security, pop="", username="wifiprov", password="abcd1234",
                 patch=1, private=None, srp_a=None):
        self.transport = transport
        self.security = security
        self.pop = pop.encode()
        self.username = username.encode()
        self.password = password.encode()
        self.patch = patch
        self.private = private or bytes(range(1, 33))
        self.srp_a = srp_a or bytes(range(0x41, 0x61))
        self.bodies = []

    def post(self, endpoint, body):
        self.bodies.append((endpoint, body))
        return self.transport(endpoint, body)

    # --- handshakes ----------------------------------------------------------------

    def handshake(self):
        getattr(self, f"_handshake{self.security}")()

    def _handshake0(self):
        response = self.post("prov-session", encode([(10, [(20, [])])]))
        assert response == bytes.fromhex("52050801aa0100")

    def sec1_command0(self):
        key = X25519PrivateKey.from_private_bytes(self.private)
        self.client_public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        response = self.post("prov-session", encode([(2, 1), (11, [(20, [(1, self.client_public)])])]))
        resp0 = decode(response).message(11).message(21)
        self.device_public, self.device_random = resp0.bytes(2), resp0.bytes(3)
        shared = key.exchange(X25519PublicKey.from_public_bytes(self.device_public))
        if self.pop:
            shared = bytes(a ^ b for a, b in zip(shared, hashlib.sha256(self.pop).digest()))
        self.stream = Cipher(algorithms.AES(shared), modes.CTR(self.device_random)).encryptor()
        return response

    def sec1_command1(self):
        verify = self.stream.update(self.device_public)
        response = self.post("prov-session", encode([(2, 1), (11, [(1, 2), (22, [(2, verify)])])]))
        device_verify = decode(response).message(11).message(23).bytes(3)
        assert self.stream.update(device_verify) == self.client_public, "device failed to verify"
        return response

    def _handshake1(self):
        self.sec1_command0()
        self.sec1_command1()

    def sec2_command0(self):
        a = int.from_bytes(self.srp_a, "big")
        self.client_public = pad384(pow(SRP_G, a, SRP_N))
        response = self.post("prov-session", encode(
            [(2, 2), (12, [(20, [(1, self.username), (2, self.client_public)])])]))
        resp0 = decode(response).message(12).message(21)
        self.device_public, self.salt = resp0.bytes(2), resp0.bytes(3)
        b_value = int.from_bytes(self.device_public, "big")
        u = int.from_bytes(h512(self.client_public, pad384(b_value)), "big")
        x = int.from_bytes(h512(self.salt, h512(self.username + b":" + self.password)), "big")
        premaster = pow((b_value - SRP_K * pow(SRP_G, x, SRP_N)) % SRP_N, a + u * x, SRP_N)
        self.u, self.x = u, x
        self.session_key = h512(minimal(premaster))
        self.proof = h512(GROUP_HASH, h512(self.username), self.salt, self.client_public,
                          self.device_public, self.session_key)
        return response

    def sec2_command1(self):
        response = self.post("prov-session", encode([(2, 2), (12, [(1, 2), (22, [(1, self.proof)])])]))
        resp1 = decode(response).message(12).message(23)
        self.device_proof, self.nonce = resp1.bytes(2), resp1.bytes(3)
        assert self.device_proof == h512(self.client_public, self.proof, self.session_key)
        self.aead = AESGCM(self.session_key[:32])
        self.iv = self.nonce
        return response

    def _handshake2(self):
        self.sec2_command0()
        self.sec2_command1()

    # --- application traffic ------------------------------------------------------------

    def _next_iv(self):
        iv = self.iv
        if self.patch == 1:
            counter = int.from_bytes(iv[8:], "big") + 1
            self.iv = iv[:8] + counter.to_bytes(4, "big")
        return iv

    def seal(self, plaintext):
        if self.security == 1:
            return self.stream.update(plaintext)
        if self.security == 2:
            return self.aead.encrypt(self._next_iv(), plaintext, None)
        return plaintext

    def open(self, body):
        if self.security == 1:
            return self.stream.update(body)
        if self.security == 2:
            return self.aead.decrypt(self._next_iv(), body, None)
        return body

    def call(self, endpoint, fields):
        """Sends one encrypted request; returns the decoded response message."""
        return decode(self.open(self.post(endpoint, self.seal(encode(fields)))))

    def set_config(self, ssid, passphrase):
        return self.call("prov-config", [(1, 2), (12, [(1, ssid.encode()), (2, passphrase.encode())])])

    def apply_config(self):
        return self.call("prov-config", [(1, 4), (14, [])])

    def get_status(self):
        return self.call("prov-config", [(10, [])]).message(11)
