"""The minimal protobuf codec: encodings fixed by the protobuf spec and malformed input."""

import pytest

from ztharness.protobuf_wire import WireError, decode, encode, encode_varint, proto3


def test_varints_and_negative_int32_use_ten_bytes():
    assert encode_varint(0) == b"\x00"
    assert encode_varint(300) == b"\xac\x02"
    assert encode_varint(-45) == bytes.fromhex("d3ffffffffffffffff01")
    assert decode(encode([(3, -45)])).int32(3) == -45


def test_nested_messages_and_oneof_empty_member():
    data = encode([(1, 2), (12, [(1, b"myssid"), (2, "mypassword")]), (14, []), (9, None)])
    assert data == bytes.fromhex("080262140a066d7973736964120a6d7970617373776f72647200")
    message = decode(data)
    assert message.uint(1) == 2 and message.has(14) and not message.has(9)
    assert message.message(12).bytes(2) == b"mypassword"
    assert message.message(14).fields == []


def test_proto3_omits_defaults_only():
    assert encode([(1, proto3(0)), (2, proto3(b"")), (3, proto3(False)), (4, 0)]) == b"\x20\x00"


def test_repeated_messages_and_unknown_fixed_fields_are_kept():
    fixed32, fixed64 = bytes.fromhex("1d01000000"), bytes.fromhex("21" + "02" + "00" * 7)
    data = encode([(1, [(1, b"a")]), (1, [(1, b"b")])]) + fixed32 + fixed64
    message = decode(data)
    assert [m.bytes(1) for m in message.messages(1)] == [b"a", b"b"]
    assert message.numbers() == [1, 1, 3, 4]


@pytest.mark.parametrize("data", ["0a05aa", "08", "0b", "00", "08ffffffffffffffffffff01"])
def test_malformed_input_raises(data):
    with pytest.raises(WireError):
        decode(bytes.fromhex(data))


def test_wrong_wire_type_for_accessor_raises():
    with pytest.raises(WireError):
        decode(bytes.fromhex("0a0100")).uint(1)
