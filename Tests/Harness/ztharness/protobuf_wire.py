"""Minimal protobuf wire-format codec for the emulated devices.

The devices deliberately avoid code generated from the project's own .proto files: they
encode and decode with field numbers written out by hand from ESP-IDF's protocomm and
wifi_provisioning .proto files, so they stay an independent check of the Swift side.

Encoding: `encode(fields)` takes a sequence of `(field_number, value)` pairs and writes them
in order. Values: `bool`/`int` → varint (negative ints as 64-bit two's complement, as
protobuf does for int32/int64), `bytes`/`str` → length-delimited, `list`/`tuple` of pairs →
nested message, `None` → field omitted. Proto3 leaves zero scalars off the wire while a set
oneof member is always written (an empty sub-message is `tag, 00`); callers express that
choice by passing `None` (omit) or a value (write), `proto3()` helps with the former.

Decoding: `decode(data)` returns a `Message` that keeps every field in wire order and offers
typed accessors. Unknown fields are kept; groups and truncated data raise `WireError`.
"""

VARINT = 0
FIXED64 = 1
LENGTH_DELIMITED = 2
FIXED32 = 5


class WireError(ValueError):
    """Bytes that are not a well-formed protobuf message."""


def encode_varint(value):
    if value < 0:
        value &= (1 << 64) - 1
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def decode_varint(data, offset):
    """Returns (value, next_offset); at most 10 bytes as protobuf allows."""
    value = 0
    for index in range(10):
        if offset + index >= len(data):
            raise WireError("truncated varint")
        byte = data[offset + index]
        value |= (byte & 0x7F) << (7 * index)
        if not byte & 0x80:
            return value, offset + index + 1
    raise WireError("varint longer than 10 bytes")


def proto3(value):
    """None for a proto3 default (0, False, empty), so `encode` leaves it off the wire."""
    return value if value else None


def _tag(number, wire_type):
    return encode_varint((number << 3) | wire_type)


def encode(fields):
    out = bytearray()
    for number, value in fields:
        if value is None:
            continue
        if isinstance(value, (bool, int)):
            out += _tag(number, VARINT) + encode_varint(int(value))
            continue
        if isinstance(value, str):
            value = value.encode("utf-8")
        elif isinstance(value, (list, tuple)):
            value = encode(value)
        elif not isinstance(value, (bytes, bytearray)):
            raise TypeError(f"field {number}: cannot encode {type(value).__name__}")
        out += _tag(number, LENGTH_DELIMITED) + encode_varint(len(value)) + bytes(value)
    return bytes(out)


def to_int32(raw):
    """Reinterprets a decoded varint as a signed 32-bit value (int32/enum fields)."""
    raw &= (1 << 64) - 1
    if raw >= 1 << 63:
        raw -= 1 << 64
    if not -(1 << 31) <= raw < 1 << 31:
        raise WireError(f"{raw} does not fit int32")
    return raw


class Message:
    """A decoded message: `fields` is the list of (number, wire_type, value) in wire order."""

    def __init__(self, fields):
        self.fields = fields

    def has(self, number):
        return any(field[0] == number for field in self.fields)

    def _last(self, number, wire_type):
        found = None
        for field_number, field_type, value in self.fields:
            if field_number != number:
                continue
            if field_type != wire_type:
                raise WireError(f"field {number} has wire type {field_type}, expected {wire_type}")
            found = value
        return found

    def uint(self, number, default=0):
        value = self._last(number, VARINT)
        return default if value is None else value

    def int32(self, number, default=0):
        value = self._last(number, VARINT)
        return default if value is None else to_int32(value)

    def boolean(self, number):
        return bool(self.uint(number))

    def bytes(self, number, default=b""):
        value = self._last(number, LENGTH_DELIMITED)
        return default if value is None else value

    def message(self, number):
        """The nested message, or None when the field is absent."""
        value = self._last(number, LENGTH_DELIMITED)
        return None if value is None else decode(value)

    def messages(self, number):
        """Every occurrence of a repeated message field, decoded."""
        return [decode(value) for field_number, field_type, value in self.fields
                if field_number == number and field_type == LENGTH_DELIMITED]

    def numbers(self):
        return [field[0] for field in self.fields]


def decode(data):
    data = bytes(data)
    fields = []
    offset = 0
    while offset < len(data):
        key, offset = decode_varint(data, offset)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0")
        if wire_type == VARINT:
            value, offset = decode_varint(data, offset)
        elif wire_type == LENGTH_DELIMITED:
            length, offset = decode_varint(data, offset)
            if offset + length > len(data):
                raise WireError("truncated length-delimited field")
            value = data[offset:offset + length]
            offset += length
        elif wire_type in (FIXED64, FIXED32):
            size = 8 if wire_type == FIXED64 else 4
            if offset + size > len(data):
                raise WireError("truncated fixed-width field")
            value = int.from_bytes(data[offset:offset + size], "little")
            offset += size
        else:
            raise WireError(f"unsupported wire type {wire_type}")
        fields.append((number, wire_type, value))
    return Message(fields)
