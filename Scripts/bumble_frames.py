"""The beacon frames the Bumble scripts advertise (Scripts/bumble-record.py,
Scripts/bumble-advertise.py): each frame's kind, the advertising address it is sent from,
and its AD data."""

FLAGS = bytes.fromhex("020106")


def eddystone(frame):
    return FLAGS + bytes.fromhex("0303aafe") + bytes([len(frame) + 3, 0x16, 0xAA, 0xFE]) + frame


# The frames, written from docs/spec/eddystone.md (UID, URL, TLM), docs/spec/ibeacon-altbeacon.md
# and docs/spec/ble-token.md, in AD structures as docs/spec/ad-structures.md lays them out (AD-1,
# AD-8, AD-9), each with the advertising address it is sent from.
FRAMES = [
    ("eddystone-uid", "c4:7d:00:00:0b:01",
     eddystone(bytes.fromhex("00ec") + bytes.fromhex("8b0ca750095477cb3e77") + bytes.fromhex("000000000b01") + b"\0\0")),
    ("eddystone-url", "c4:7d:00:00:0b:02",
     eddystone(bytes.fromhex("10ec03") + b"example" + bytes([0x07]))),               # https://example.com
    ("eddystone-tlm", "c4:7d:00:00:0b:01",
     eddystone(bytes.fromhex("20000bb81980000010000000021c"))),                       # 3000 mV, 25.5 C, 4096, 54.0 s
    ("ibeacon", "c4:7d:00:00:0b:03",
     FLAGS + bytes.fromhex("1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")),
    ("altbeacon", "c4:7d:00:00:0b:04",
     FLAGS + bytes.fromhex("1bff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c500")),
    ("token-v1", "c4:7d:00:00:0b:05",
     FLAGS + bytes.fromhex("0303f3fe") + bytes.fromhex("0d16f3fef71006a1b2c3d4e5f6f4")),  # token a1b2c3d4e5f6, -12 dBm
]
