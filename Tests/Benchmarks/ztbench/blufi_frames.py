"""The fewest BluFi frames (ATT writes) that can carry a given message, and the count per provisioning.

Framing (Sources/BluFi/BluFiFragmenter.swift): a frame is type, control, sequence and
length (4 bytes), the data field, and a 2-byte CRC when the checksum bit (control 0x02) is set. One
frame is one ATT write, so it holds at most L = min(MTU − 3, 255) bytes (255: the length is one
byte). A message that fits, m ≤ C with C = L − 4 − 2·checksum, takes one frame. A longer one is
fragmented: every fragment but the last starts with a 2-byte "bytes remaining" prefix, so it carries
C − 2 message bytes, and the last piece (no prefix) carries up to C. Hence

    frames(m) = 1                          if m ≤ C
              = 1 + ceil((m − C) / (C − 2)) otherwise

No sender can do better under these rules; our fragmenter (the Android library's rule) reaches it.
The minimum for a provisioning is the sum over the messages the device actually received (the
harness records each reassembled message with its control byte), so it counts what *must* be sent
for that conversation; a client sending extra frames (needless ACKs, re-sends) shows up as excess.
"""

ATT_HEADER = 3
FRAME_HEADER = 4
CHECKSUM = 2
FRAGMENT_PREFIX = 2
MAX_DATA = 255
CONTROL_CHECKSUM = 0x02


def frame_capacity(mtu: int, checksum: bool) -> int:
    """Message bytes one unfragmented frame carries at this ATT MTU."""
    limit = min(mtu - ATT_HEADER, MAX_DATA)
    return limit - FRAME_HEADER - (CHECKSUM if checksum else 0)


def minimum_frames(message_length: int, mtu: int, checksum: bool) -> int:
    """The fewest frames a message of this length needs (an empty message is one frame)."""
    capacity = frame_capacity(mtu, checksum)
    if message_length <= capacity:
        return 1
    per_fragment = capacity - FRAGMENT_PREFIX
    return 1 + -(-(message_length - capacity) // per_fragment)


def minimum_for_messages(messages: list[dict], mtu: int) -> int:
    """Sum over harness-recorded messages ({"data": hex, "fc": control byte})."""
    return sum(minimum_frames(len(bytes.fromhex(m["data"])), mtu, bool(m["fc"] & CONTROL_CHECKSUM))
               for m in messages)
