#!/usr/bin/env python3
"""Write the systematic frame vectors: Vectors/frames/eddystone-systematic.json,
Vectors/frames/apple-altbeacon-systematic.json and Vectors/frames/token-systematic.json.

Each vector is one advertisement's AD data (`"input": {"adData": HEX}`) and the beacons or
the fault the clauses of docs/spec/eddystone.md, docs/spec/ibeacon-altbeacon.md and
docs/spec/ble-token.md give for it, printed as docs/decode-output.md says `decode` prints
them. The inputs are enumerated from the clauses, not drawn at random:

- every frame at every length from empty to a few bytes past its longest legal form, with the
  fault code and offset the length clauses give (or both readings, `acceptable`, where a
  clause allows two);
- every field at its bounds (unsigned 0 and maximum; signed −128, −1, 0, 127; the TLM
  "not measured" values and the fixed-point edges);
- every Eddystone-URL scheme and expansion code, every reserved byte of the encoded URL;
- unknown frame types, TLM versions and token versions, reserved bits set, trailing bytes;
- the frames among other AD structures.

Every expected value is worked out here from the clause text (this file's `expand_url`,
`tlm_beacon`, … implement the tables of the pages, not the reference decoder), so `source` is
`hand`. The output is the same on every run (nothing random). Run from anywhere:
    python3 Scripts/frame-vectors.py
"""
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAMES = os.path.join(ROOT, "Vectors", "frames")
SPEC = os.path.join(ROOT, "docs", "spec")
FLAGS = os.path.join(ROOT, "Vectors", "schema", "flags.json")


# ---------------------------------------------------------------------------------------------
# Vectors


def known_clauses():
    """Every clause id defined on the pages of docs/spec/ (a list item starting `**ID**`)."""
    ids = set()
    for name in os.listdir(SPEC):
        if name.endswith(".md"):
            with open(os.path.join(SPEC, name), encoding="utf-8") as f:
                ids.update(re.findall(r"^- \*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*", f.read(), re.M))
    return ids


CLAUSES = known_clauses()
with open(FLAGS, encoding="utf-8") as f:
    FLAG_NAMES = set(json.load(f)["flags"])


class VectorFile:
    def __init__(self, name, description):
        self.name, self.description, self.vectors, self.ids = name, description, [], set()

    def add(self, vid, description, clauses, flags, ad, beacons=None, error=None, alternatives=None):
        """One frame vector. Exactly one of `beacons` (a list of beacon objects) and `error`
        (`(code, offset)`) is the expectation; `alternatives` (a list of the same kind of
        thing, beacons lists or error tuples) makes it `acceptable`."""
        assert vid == vid.lower() and re.fullmatch(r"[a-z0-9._/-]+", vid), vid
        assert vid not in self.ids, vid
        assert (beacons is None) != (error is None), vid
        for c in clauses:
            assert c in CLAUSES, (vid, c)
        assert len(set(clauses)) == len(clauses), vid
        for fl in flags:
            assert fl in FLAG_NAMES, (vid, fl)
        assert len(set(flags)) == len(flags), vid
        self.ids.add(vid)
        v = {
            "id": vid,
            "kind": "frame",
            "description": description,
            "clauses": list(clauses),
            "flags": list(flags),
            "source": "hand",
            "verdict": "acceptable" if alternatives else ("invalid" if error else "valid"),
            "input": {"adData": bytes(ad).hex()},
            "expect": expect(beacons, error),
        }
        if alternatives:
            v["alternatives"] = [
                expect(None, a) if isinstance(a, tuple) else expect(a, None) for a in alternatives
            ]
        self.vectors.append(v)

    def write(self):
        path = os.path.join(FRAMES, self.name)
        doc = {"vectorFile": 1, "description": self.description, "vectors": self.vectors}
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        return path, len(self.vectors)


def expect(beacons, error):
    if error is not None:
        return {"error": {"code": error[0], "offset": error[1]}}
    return {"beacons": beacons}


def ad_structure(ad_type, payload):
    assert len(payload) + 1 <= 255
    return bytes([len(payload) + 1, ad_type]) + bytes(payload)


def service_data(uuid16, payload):
    """A Service Data – 16-bit UUID structure (type 0x16), the UUID least significant byte first."""
    return ad_structure(0x16, uuid16.to_bytes(2, "little") + bytes(payload))


def manufacturer_data(company, payload):
    """A Manufacturer Specific Data structure (type 0xFF), the company least significant byte first."""
    return ad_structure(0xFF, company.to_bytes(2, "little") + bytes(payload))


def s8(b):
    """A byte read as a signed 8-bit two's complement value."""
    return b - 256 if b >= 128 else b


def dbm(v):
    return ("−%d" % -v if v < 0 else ("+%d" % v if v > 0 else "0")) + " dBm"


FLAGS_AD = bytes.fromhex("020106")  # Flags: LE General Discoverable, BR/EDR not supported
NAME_AD = ad_structure(0x09, b"Beacon")  # Complete Local Name


# ---------------------------------------------------------------------------------------------
# Eddystone (docs/spec/eddystone.md)

FEAA = 0xFEAA
EDDY_LIST = bytes.fromhex("0303aafe")  # Complete List of 16-bit Service UUIDs: 0xFEAA
EDDY_PREFIX = FLAGS_AD + EDDY_LIST  # s = 11

SCHEMES = ["http://www.", "https://www.", "http://", "https://"]
EXPANSIONS = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
              ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]

NAMESPACE = bytes.fromhex("8b0ca750095477cb3e77")
INSTANCE = bytes.fromhex("0000000000a1")


def eddystone(frame, prefix=b"", after=b""):
    """AD data holding `frame` as 0xFEAA service data after `prefix`; returns (adData, s)."""
    return prefix + service_data(FEAA, frame) + after, len(prefix) + 4


def is_reserved_url_byte(b):
    return 0x0E <= b <= 0x20 or b >= 0x7F  # EDDYSTONE-URL-6


def expand_url(scheme, encoded):
    """The URL of EDDYSTONE-URL-8, or None when the scheme (URL-7) or a byte (URL-6) is reserved."""
    if scheme > 3 or any(is_reserved_url_byte(b) for b in encoded):
        return None
    return SCHEMES[scheme] + "".join(EXPANSIONS[b] if b <= 0x0D else chr(b) for b in encoded)


def uid_frame(tx=0xEE, namespace=NAMESPACE, instance=INSTANCE, reserved=b"\x00\x00"):
    return bytes([0x00, tx]) + namespace + instance + reserved


def uid_beacon(tx=0xEE, namespace=NAMESPACE, instance=INSTANCE, reserved=b"\x00\x00"):
    b = {"type": "eddystone-uid", "txPower": s8(tx), "namespace": namespace.hex(), "instance": instance.hex()}
    if reserved is not None:
        b["reserved"] = reserved.hex()
    return b


def url_frame(tx, scheme, encoded):
    return bytes([0x10, tx, scheme]) + bytes(encoded)


def url_beacon(tx, scheme, encoded):
    encoded = bytes(encoded)
    b = {"type": "eddystone-url", "txPower": s8(tx), "scheme": scheme, "encodedUrl": encoded.hex(),
         "url": expand_url(scheme, encoded)}
    reserved = [{"offset": i, "value": v} for i, v in enumerate(encoded) if is_reserved_url_byte(v)]
    if reserved:
        b["reservedBytes"] = reserved
    return b


def tlm_frame(vbatt=3000, temp=0x1980, adv=1000, sec=36000):
    return (bytes([0x20, 0x00]) + vbatt.to_bytes(2, "big") + temp.to_bytes(2, "big")
            + adv.to_bytes(4, "big") + sec.to_bytes(4, "big"))


def tlm_beacon(vbatt=3000, temp=0x1980, adv=1000, sec=36000):
    signed = temp - 0x10000 if temp >= 0x8000 else temp
    return {
        "type": "eddystone-tlm", "version": 0,
        "batteryMillivolts": None if vbatt == 0 else vbatt,  # EDDYSTONE-TLM-5
        "temperatureCelsius": None if temp == 0x8000 else signed / 256,  # TLM-6, TLM-7 (exact in binary)
        "advertisingCount": adv,
        "uptimeSeconds": sec / 10,  # TLM-9: the nearest double to the one-decimal value
    }


ETLM = bytes.fromhex("d5d89979ae79ebee4e385fa5")
SALT = bytes.fromhex("f683")
MIC = bytes.fromhex("0efb")


def etlm_frame(etlm=ETLM, salt=SALT, mic=MIC, padding=b""):
    return bytes([0x20, 0x01]) + etlm + salt + mic + padding


def etlm_beacon(etlm=ETLM, salt=SALT, mic=MIC, padding=None):
    b = {"type": "eddystone-etlm", "version": 1, "encryptedTlm": etlm.hex(), "salt": salt.hex(), "mic": mic.hex()}
    if padding is not None:
        b["nordicPadding"] = padding
    return b


EID = bytes.fromhex("4144413e45fefa58")


def eid_frame(tx=0xFC, eid=EID):
    return bytes([0x30, tx]) + eid


def eid_beacon(tx=0xFC, eid=EID):
    return {"type": "eddystone-eid", "txPower": s8(tx), "eid": eid.hex()}


def e2ee_frame(eid, flags=None):
    return bytes([0x40]) + eid + (bytes([flags]) if flags is not None else b"")


def e2ee_beacon(eid, flags=None):
    return {"type": "eddystone-e2ee-eid", "eid": eid.hex(), "hashedFlags": flags}


def e2ee_length_flag(n):
    """A 0x40 frame of a length EDDYSTONE-E2EE-3 refuses: short of the next legal length, or past one."""
    return "Truncated" if n < 21 or 30 <= n < 33 else "TrailingBytes"


def counting(n, start=1):
    """n bytes counting up from `start` (wrapping), to make cut points visible."""
    return bytes((start + i) & 0xFF for i in range(n))


def eddystone_vectors():
    vf = VectorFile(
        "eddystone-systematic.json",
        "Eddystone frames enumerated from the clauses of docs/spec/eddystone.md (written by "
        "Scripts/frame-vectors.py): every frame type at every length around its legal ones, every "
        "field at its bounds, every URL scheme, expansion code and reserved byte, unknown frame "
        "types and TLM versions, and the frames among other AD structures.")
    add = vf.add

    # --- The container: empty service data (EDDYSTONE-FRAME-9) -------------------------------
    ad, s = eddystone(b"")
    add("frame/eddystone/container/empty-service-data",
        "0xFEAA service data that ends right after the UUID has no frame type: eddystone/truncated at s + 0 = %d." % s,
        ["EDDYSTONE-FRAME-9", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s))
    ad, s = eddystone(b"", EDDY_PREFIX)
    add("frame/eddystone/container/empty-service-data-after-flags",
        "Empty 0xFEAA service data after the Flags and the UUID list: eddystone/truncated at s + 0 = %d, "
        "an offset counted from the first byte of the AD data." % s,
        ["EDDYSTONE-FRAME-9", "EDDYSTONE-FRAME-1", "EDDYSTONE-FRAME-5"], ["Truncated", "MultipleStructures"],
        ad, error=("eddystone/truncated", s))

    # --- UID: every length 1…22 (EDDYSTONE-UID-6…9) -------------------------------------------
    full = uid_frame(0xEE, counting(10, 0x11), counting(6, 0x51), b"\x00\x00")
    for n in range(1, 23):
        frame = full[:n] if n <= 20 else full + counting(n - 20, 0xE1)
        ad, s = eddystone(frame)
        vid = "frame/eddystone/uid/length-%d" % n
        if n == 1:
            add(vid, "A UID frame of 1 byte, the frame type alone: eddystone/truncated at s + 1, where the Tx power would be.",
                ["EDDYSTONE-UID-8", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 1))
        elif n < 12:
            add(vid, "A UID frame of %d bytes cuts the namespace (bytes 2–11): eddystone/truncated at s + 2, its first byte." % n,
                ["EDDYSTONE-UID-8", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 2))
        elif n < 18:
            add(vid, "A UID frame of %d bytes cuts the instance (bytes 12–17): eddystone/truncated at s + 12, its first byte." % n,
                ["EDDYSTONE-UID-8", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 12))
        elif n == 18:
            add(vid, "A UID frame of 18 bytes, the legacy form without reserved bytes: a valid UID whose `reserved` is absent.",
                ["EDDYSTONE-UID-6", "EDDYSTONE-UID-3"], ["FieldBounds"], ad,
                beacons=[uid_beacon(0xEE, counting(10, 0x11), counting(6, 0x51), None)])
        elif n == 19:
            add(vid, "A UID frame of 19 bytes: valid, `reserved` holding the one reserved byte sent (00).",
                ["EDDYSTONE-UID-7", "EDDYSTONE-UID-5"], ["FieldBounds"], ad,
                beacons=[uid_beacon(0xEE, counting(10, 0x11), counting(6, 0x51), b"\x00")])
        elif n == 20:
            add(vid, "A UID frame of 20 bytes, its full length: Tx power, namespace and instance as sent, reserved 0000.",
                ["EDDYSTONE-UID-1", "EDDYSTONE-UID-3", "EDDYSTONE-UID-4", "EDDYSTONE-UID-5"], ["FieldBounds"], ad,
                beacons=[uid_beacon(0xEE, counting(10, 0x11), counting(6, 0x51))])
        else:
            add(vid, "A UID frame of %d bytes, %d past its 20: eddystone/trailing-bytes at s + 20, the first byte too many, and no UID." % (n, n - 20),
                ["EDDYSTONE-UID-9", "EDDYSTONE-FRAME-1"], ["TrailingBytes"], ad, error=("eddystone/trailing-bytes", s + 20))
    # UID faults inside a whole advertisement: the offsets move with s.
    for n, err, cl in [(1, s + 1, "EDDYSTONE-UID-8"), (11, s + 2, "EDDYSTONE-UID-8"), (17, s + 12, "EDDYSTONE-UID-8"),
                       (21, s + 20, "EDDYSTONE-UID-9")]:
        frame = full[:n] if n <= 20 else full + b"\x00"
        ad, s2 = eddystone(frame, EDDY_PREFIX)
        off = err - s + s2
        code = "eddystone/trailing-bytes" if n > 20 else "eddystone/truncated"
        add("frame/eddystone/uid/length-%d-in-advertisement" % n,
            "A UID frame of %d bytes after the Flags and the 0xFEAA UUID list (s = %d): %s at %d, s plus the clause's offset." % (n, s2, code, off),
            [cl, "EDDYSTONE-FRAME-1", "EDDYSTONE-FRAME-5"],
            ["TrailingBytes" if n > 20 else "Truncated", "MultipleStructures"], ad, error=(code, off))

    # UID Tx power at its bounds (EDDYSTONE-UID-1, -2).
    for tx in [0x80, 0x9B, 0x9C, 0xFF, 0x00, 0x14, 0x15, 0x7F]:
        ad, s = eddystone(uid_frame(tx))
        note = {0x9B: ", one below the −100 that binds beacons, still reported", 0x15: ", one above the +20 that binds beacons, still reported",
                0x80: ", the least int8", 0x7F: ", the greatest int8"}.get(tx, "")
        add("frame/eddystone/uid/tx-power-0x%02x" % tx,
            "UID Tx power byte 0x%02X is %s as a signed 8-bit value%s." % (tx, dbm(s8(tx)), note),
            ["EDDYSTONE-UID-1", "EDDYSTONE-UID-2"], ["SignedField", "FieldBounds"], ad, beacons=[uid_beacon(tx)])
    # Identifiers at their bounds (EDDYSTONE-UID-3).
    for name, ns, inst in [("zero", bytes(10), bytes(6)), ("ones", b"\xff" * 10, b"\xff" * 6)]:
        ad, s = eddystone(uid_frame(0xEE, ns, inst))
        add("frame/eddystone/uid/identifiers-all-%s" % name,
            "UID namespace and instance all 0x%s: opaque identifiers reported as sent, not dropped as empty or invalid." % ("00" if name == "zero" else "FF"),
            ["EDDYSTONE-UID-3"], ["FieldBounds"], ad, beacons=[uid_beacon(0xEE, ns, inst)])
    ad, s = eddystone(uid_frame(0xEE, counting(10, 0x00), counting(6, 0xF0)))
    add("frame/eddystone/uid/identifiers-order",
        "UID namespace 00…09 and instance f0…f5: both reported in the order sent, no byte swapped.",
        ["EDDYSTONE-UID-3", "EDDYSTONE-FRAME-7"], ["ByteOrder"], ad,
        beacons=[uid_beacon(0xEE, counting(10, 0x00), counting(6, 0xF0))])
    # Reserved bytes set (EDDYSTONE-UID-4, -5, -7).
    for rsv in [b"\x00\x01", b"\x80\x00", b"\xff\xff"]:
        ad, s = eddystone(uid_frame(0xEE, reserved=rsv))
        add("frame/eddystone/uid/reserved-%s" % rsv.hex(),
            "UID reserved bytes sent as %s instead of 0000: reported as sent, not a fault." % rsv.hex(),
            ["EDDYSTONE-UID-5", "EDDYSTONE-UID-4"], ["ReservedBits"], ad, beacons=[uid_beacon(0xEE, reserved=rsv)])
    ad, s = eddystone(uid_frame(0xEE, reserved=b"\xff"))
    add("frame/eddystone/uid/reserved-one-byte-ff",
        "A 19-byte UID whose one reserved byte is 0xFF: valid, `reserved` is ff.",
        ["EDDYSTONE-UID-7", "EDDYSTONE-UID-5"], ["ReservedBits"], ad, beacons=[uid_beacon(0xEE, reserved=b"\xff")])

    # --- URL: every length 1…22 (EDDYSTONE-URL-9…12) ------------------------------------------
    text = b"abcdefghijklmnopqrstuvwxyz"
    for n in range(1, 23):
        frame = url_frame(0xF6, 0x03, text[: max(0, n - 3)])[:n]
        ad, s = eddystone(frame)
        vid = "frame/eddystone/url/length-%d" % n
        enc = frame[3:]
        if n == 1:
            add(vid, "A URL frame of 1 byte, the frame type alone: eddystone/truncated at s + 1, where the Tx power would be.",
                ["EDDYSTONE-URL-10", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 1))
        elif n == 2:
            add(vid, "A URL frame of 2 bytes has no scheme: eddystone/truncated at s + 2.",
                ["EDDYSTONE-URL-10", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 2))
        elif n == 3:
            add(vid, "A URL frame of 3 bytes, an empty encoded URL: either the URL `https://` alone (expected) or eddystone/truncated at s + 3.",
                ["EDDYSTONE-URL-9", "EDDYSTONE-URL-2"], ["FieldBounds", "UrlExpansion"], ad,
                beacons=[url_beacon(0xF6, 0x03, b"")], alternatives=[("eddystone/truncated", s + 3)])
        elif n <= 20:
            add(vid, "A URL frame with %d byte%s of encoded URL (%s): `https://%s`, every byte a literal character." % (
                n - 3, "" if n == 4 else "s", "the fewest the clauses agree on" if n == 4 else ("the most a beacon sends" if n == 20 else "within 1…17"),
                enc.decode()),
                ["EDDYSTONE-URL-3", "EDDYSTONE-URL-5", "EDDYSTONE-URL-8"] + (["EDDYSTONE-URL-11"] if n == 20 else []),
                ["UrlExpansion"] + (["FieldBounds"] if n in (4, 20) else []), ad, beacons=[url_beacon(0xF6, 0x03, enc)])
        else:
            add(vid, "A URL frame with %d bytes of encoded URL, past the 17 a beacon sends: either every byte expanded (expected) or eddystone/trailing-bytes at s + 20." % (n - 3),
                ["EDDYSTONE-URL-12", "EDDYSTONE-URL-11"], ["FieldBounds", "UrlExpansion", "TrailingBytes"], ad,
                beacons=[url_beacon(0xF6, 0x03, enc)], alternatives=[("eddystone/trailing-bytes", s + 20)])
    enc = bytes(range(0x41, 0x41 + 40))
    ad, s = eddystone(url_frame(0xF6, 0x03, enc))
    add("frame/eddystone/url/length-43",
        "A URL frame with 40 bytes of encoded URL, as only an extended advertisement carries: either all 40 expanded (expected) or eddystone/trailing-bytes at s + 20.",
        ["EDDYSTONE-URL-12"], ["FieldBounds", "UrlExpansion", "TrailingBytes"], ad,
        beacons=[url_beacon(0xF6, 0x03, enc)], alternatives=[("eddystone/trailing-bytes", s + 20)])
    for n in (1, 2):
        ad, s = eddystone(url_frame(0xF6, 0x03, b"")[:n], EDDY_PREFIX)
        add("frame/eddystone/url/length-%d-in-advertisement" % n,
            "A %d-byte URL frame after the Flags and the UUID list (s = %d): eddystone/truncated at s + %d = %d." % (n, s, n, s + n),
            ["EDDYSTONE-URL-10", "EDDYSTONE-FRAME-1"], ["Truncated", "MultipleStructures"], ad,
            error=("eddystone/truncated", s + n))
    # URL Tx power (EDDYSTONE-URL-1).
    for tx in [0x80, 0xFF, 0x00, 0x7F]:
        ad, s = eddystone(url_frame(tx, 0x02, b"example\x07"))
        add("frame/eddystone/url/tx-power-0x%02x" % tx,
            "URL Tx power byte 0x%02X is %s, reported as sent." % (tx, dbm(s8(tx))),
            ["EDDYSTONE-URL-1"], ["SignedField", "FieldBounds"], ad, beacons=[url_beacon(tx, 0x02, b"example\x07")])
    # Every scheme (EDDYSTONE-URL-2) and the reserved ones (EDDYSTONE-URL-7).
    for sch in range(4):
        ad, s = eddystone(url_frame(0x00, sch, b"example\x07"))
        add("frame/eddystone/url/scheme-0x%02x" % sch,
            "URL scheme 0x%02X is the prefix `%s`: the URL is %sexample.com." % (sch, SCHEMES[sch], SCHEMES[sch]),
            ["EDDYSTONE-URL-2", "EDDYSTONE-URL-8"], ["UrlExpansion"], ad, beacons=[url_beacon(0x00, sch, b"example\x07")])
    for sch in [0x04, 0x05, 0x0F, 0x10, 0x7F, 0x80, 0xFF]:
        ad, s = eddystone(url_frame(0x00, sch, b"example\x07"))
        add("frame/eddystone/url/scheme-0x%02x-reserved" % sch,
            "URL scheme 0x%02X is reserved: `url` null, `scheme` and `encodedUrl` as sent, no fault and no reserved byte listed (the encoded URL is all defined)." % sch,
            ["EDDYSTONE-URL-7"], ["UrlExpansion", "ReservedBits"], ad, beacons=[url_beacon(0x00, sch, b"example\x07")])
    ad, s = eddystone(url_frame(0x00, 0x04, b""))
    add("frame/eddystone/url/scheme-0x04-empty",
        "A reserved scheme with an empty encoded URL: either a URL beacon with `url` null (expected) or eddystone/truncated at s + 3.",
        ["EDDYSTONE-URL-7", "EDDYSTONE-URL-9"], ["UrlExpansion", "ReservedBits", "FieldBounds"], ad,
        beacons=[url_beacon(0x00, 0x04, b"")], alternatives=[("eddystone/truncated", s + 3)])
    ad, s = eddystone(url_frame(0x00, 0x05, b"ab\x10cd"))
    add("frame/eddystone/url/scheme-reserved-and-byte-reserved",
        "A reserved scheme (0x05) and a reserved byte 0x10 at encoded offset 2: `url` null, the byte listed in `reservedBytes`.",
        ["EDDYSTONE-URL-6", "EDDYSTONE-URL-7"], ["UrlExpansion", "ReservedBits"], ad, beacons=[url_beacon(0x00, 0x05, b"ab\x10cd")])
    # Every expansion code in the middle and at the end (EDDYSTONE-URL-4).
    for code in range(0x0E):
        for where, enc in [("middle", b"ab" + bytes([code]) + b"cd"), ("end", b"example" + bytes([code]))]:
            ad, s = eddystone(url_frame(0xEB, 0x02, enc))
            add("frame/eddystone/url/expansion-0x%02x-%s" % (code, where),
                "Expansion code 0x%02X %s the encoded URL is `%s`: the URL is %s." % (
                    code, "in the middle of" if where == "middle" else "at the end of", EXPANSIONS[code], expand_url(2, enc)),
                ["EDDYSTONE-URL-4", "EDDYSTONE-URL-8"], ["UrlExpansion"], ad, beacons=[url_beacon(0xEB, 0x02, enc)])
    enc = bytes([0x00, 0x07, 0x0D, 0x06])
    ad, s = eddystone(url_frame(0xEB, 0x03, enc))
    add("frame/eddystone/url/expansion-only",
        "An encoded URL of expansion codes alone (00 07 0d 06): each is replaced by its text in order, https://.com/.com.gov.gov/.",
        ["EDDYSTONE-URL-4", "EDDYSTONE-URL-8"], ["UrlExpansion"], ad, beacons=[url_beacon(0xEB, 0x03, enc)])
    enc = bytes([0x00]) * 17
    ad, s = eddystone(url_frame(0xEB, 0x02, enc))
    add("frame/eddystone/url/expansion-seventeen-times",
        "Seventeen expansion codes 0x00: the URL is http:// followed by `.com/` 17 times, 85 characters from 17 bytes.",
        ["EDDYSTONE-URL-4", "EDDYSTONE-URL-8", "EDDYSTONE-URL-11"], ["UrlExpansion", "FieldBounds"], ad,
        beacons=[url_beacon(0xEB, 0x02, enc)])
    # Literal characters at the edges of 0x21–0x7E, case kept (EDDYSTONE-URL-5).
    for name, enc, what in [("0x21", b"a!b", "0x21 `!`, the first literal"), ("0x7e", b"a~b", "0x7E `~`, the last literal"),
                            ("mixed-case", b"ExAmPlE\x07", "upper and lower case letters, kept as sent"),
                            ("punctuation", b"a/b?c=d&e#f%20", "URL punctuation and a percent escape, passed through as characters")]:
        ad, s = eddystone(url_frame(0xEB, 0x03, enc))
        add("frame/eddystone/url/literal-%s" % name,
            "Encoded URL with %s: %s." % (what, expand_url(3, enc)),
            ["EDDYSTONE-URL-5", "EDDYSTONE-URL-8"], ["UrlExpansion"] + (["FieldBounds"] if name.startswith("0x") else []),
            ad, beacons=[url_beacon(0xEB, 0x03, enc)])
    # Every reserved byte 0x0E–0x20 alone, in the middle (EDDYSTONE-URL-6).
    for r in range(0x0E, 0x21):
        enc = b"ab" + bytes([r]) + b"cd"
        ad, s = eddystone(url_frame(0xEB, 0x02, enc))
        add("frame/eddystone/url/reserved-0x%02x" % r,
            "Reserved byte 0x%02X at encoded offset 2: `url` null, `reservedBytes` lists offset 2 value %d, and the frame is not a fault." % (r, r),
            ["EDDYSTONE-URL-6"], ["UrlExpansion", "ReservedBits"] + (["FieldBounds"] if r in (0x0E, 0x20) else []), ad,
            beacons=[url_beacon(0xEB, 0x02, enc)])
    # 0x7F–0xFF: the edges alone, and every value in runs of 17.
    for r in [0x7F, 0x80, 0xC3, 0xFE, 0xFF]:
        enc = b"ab" + bytes([r]) + b"cd"
        ad, s = eddystone(url_frame(0xEB, 0x02, enc))
        add("frame/eddystone/url/reserved-0x%02x" % r,
            "Reserved byte 0x%02X at encoded offset 2: `url` null (never a character, Latin-1 or UTF-8), offset 2 value %d listed." % (r, r),
            ["EDDYSTONE-URL-6"], ["UrlExpansion", "ReservedBits"] + (["FieldBounds"] if r in (0x7F, 0xFF) else []), ad,
            beacons=[url_beacon(0xEB, 0x02, enc)])
    high = list(range(0x7F, 0x100))
    for i in range(0, len(high), 17):
        enc = bytes(high[i:i + 17])
        ad, s = eddystone(url_frame(0xEB, 0x02, enc))
        add("frame/eddystone/url/reserved-run-0x%02x-0x%02x" % (enc[0], enc[-1]),
            "An encoded URL of the reserved bytes 0x%02X–0x%02X: `url` null and every one of the %d bytes listed with its offset." % (enc[0], enc[-1], len(enc)),
            ["EDDYSTONE-URL-6"], ["UrlExpansion", "ReservedBits"], ad, beacons=[url_beacon(0xEB, 0x02, enc)])
    for name, enc, what in [("first", b"\x20abc\x07", "the first byte of the encoded URL (offset 0), a space"),
                            ("last", b"example\x07\x0e", "the last byte (offset 8), just past the expansion codes"),
                            ("several", b"\x0fa\x00b\x7fc\x0dd\xff", "offsets 0, 4 and 8, between expansion codes and letters")]:
        ad, s = eddystone(url_frame(0xEB, 0x00, enc))
        add("frame/eddystone/url/reserved-at-%s" % name,
            "Reserved bytes at %s: `url` null and each listed with its encoded-URL offset." % what,
            ["EDDYSTONE-URL-6"], ["UrlExpansion", "ReservedBits"], ad, beacons=[url_beacon(0xEB, 0x00, enc)])

    # --- TLM version 0: every length 1…16 (EDDYSTONE-TLM-3, -10) -------------------------------
    full = tlm_frame(0x0BB8, 0x1980, 0x01020304, 0x0A0B0C0D)
    cuts = {2: 2, 3: 2, 4: 4, 5: 4, 6: 6, 7: 6, 8: 6, 9: 6, 10: 10, 11: 10, 12: 10, 13: 10}
    field = {2: "VBATT", 4: "TEMP", 6: "ADV_CNT", 10: "SEC_CNT"}
    for n in range(1, 19):
        frame = full[:n] if n <= 14 else full + counting(n - 14, 0xA0)
        ad, s = eddystone(frame)
        vid = "frame/eddystone/tlm/length-%d" % n
        if n == 1:
            add(vid, "A TLM frame of 1 byte has no version: eddystone/truncated at s + 1.",
                ["EDDYSTONE-TLM-3", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 1))
        elif n < 14:
            add(vid, "A version 0 TLM frame of %d bytes cuts %s: eddystone/truncated at s + %d, its first byte." % (n, field[cuts[n]], cuts[n]),
                ["EDDYSTONE-TLM-10", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + cuts[n]))
        elif n == 14:
            add(vid, "A version 0 TLM frame of 14 bytes: VBATT 3000 mV, 25.5 °C, ADV_CNT 0x01020304 and SEC_CNT 0x0A0B0C0D, all big-endian.",
                ["EDDYSTONE-TLM-10", "EDDYSTONE-TLM-4", "EDDYSTONE-TLM-6", "EDDYSTONE-TLM-8", "EDDYSTONE-TLM-9", "EDDYSTONE-FRAME-7"],
                ["FieldBounds", "ByteOrder", "FixedPoint"], ad, beacons=[tlm_beacon(0x0BB8, 0x1980, 0x01020304, 0x0A0B0C0D)])
        else:
            add(vid, "A version 0 TLM frame of %d bytes, %d past its 14: eddystone/trailing-bytes at s + 14." % (n, n - 14),
                ["EDDYSTONE-TLM-10", "EDDYSTONE-FRAME-1"], ["TrailingBytes"], ad, error=("eddystone/trailing-bytes", s + 14))
    for n in (1, 9, 15):
        frame = full[:n] if n <= 14 else full + b"\x00"
        ad, s = eddystone(frame, EDDY_PREFIX)
        off = s + (1 if n == 1 else (6 if n == 9 else 14))
        code = "eddystone/trailing-bytes" if n > 14 else "eddystone/truncated"
        add("frame/eddystone/tlm/length-%d-in-advertisement" % n,
            "A TLM frame of %d bytes after the Flags and the UUID list (s = %d): %s at %d." % (n, s, code, off),
            ["EDDYSTONE-TLM-3" if n == 1 else "EDDYSTONE-TLM-10", "EDDYSTONE-FRAME-1"],
            ["TrailingBytes" if n > 14 else "Truncated", "MultipleStructures"], ad, error=(code, off))
    # Unknown TLM versions (EDDYSTONE-TLM-2), at several lengths.
    for ver, n in [(0x02, 2), (0x02, 14), (0x03, 18), (0x0F, 14), (0x10, 3), (0x80, 14), (0xFF, 2), (0xFF, 30)]:
        frame = bytes([0x20, ver]) + counting(n - 2, 0x30)
        ad, s = eddystone(frame)
        add("frame/eddystone/tlm/version-0x%02x-length-%d" % (ver, n),
            "A TLM frame of unknown version 0x%02X and %d bytes: reported as eddystone-tlm with `version` %d and the whole service data, not a fault." % (ver, n, ver),
            ["EDDYSTONE-TLM-2", "EDDYSTONE-TLM-1"], ["VersionMismatch"], ad,
            beacons=[{"type": "eddystone-tlm", "version": ver, "data": frame.hex()}])
    # VBATT (EDDYSTONE-TLM-4, -5, -11).
    for v, what in [(0, "0 means not measured: null, not 0"), (1, "1 mV, the least measured value"),
                    (0x0102, "0x0102 is 258 mV big-endian, not 513"), (0x8000, "0x8000 is 32768 mV, unsigned"),
                    (0xFFFF, "0xFFFF is 65535 mV, reported though no battery shows it")]:
        ad, s = eddystone(tlm_frame(vbatt=v))
        add("frame/eddystone/tlm/vbatt-0x%04x" % v, "TLM VBATT %s." % what,
            ["EDDYSTONE-TLM-4"] + (["EDDYSTONE-TLM-5"] if v == 0 else []) + (["EDDYSTONE-TLM-11"] if v >= 0x8000 else [])
            + (["EDDYSTONE-FRAME-7"] if v == 0x0102 else []),
            ["FieldBounds"] + (["ByteOrder"] if v == 0x0102 else []), ad, beacons=[tlm_beacon(vbatt=v)])
    # TEMP, signed 8.8 (EDDYSTONE-TLM-6, -7, -11).
    for t, what in [(0x8000, "0x8000 means not measured: null, not −128"), (0x7FFF, "0x7FFF is the greatest, 127.99609375 °C"),
                    (0x8001, "0x8001 is the least measured value, −127.99609375 °C"), (0xFFFF, "0xFFFF is −1/256, −0.00390625 °C"),
                    (0x0000, "0x0000 is 0 °C, not a missing value"), (0x0001, "0x0001 is 1/256, 0.00390625 °C"),
                    (0x0080, "0x0080 is 0.5 °C, the fraction in the low byte"), (0x0100, "0x0100 is 1 °C"),
                    (0xFF00, "0xFF00 is −1 °C"), (0xFF80, "0xFF80 is −0.5 °C"), (0x8080, "0x8080 is −127.5 °C, sign and fraction together"),
                    (0x1980, "0x1980 is 25.5 °C")]:
        ad, s = eddystone(tlm_frame(temp=t))
        add("frame/eddystone/tlm/temp-0x%04x" % t, "TLM TEMP %s." % what,
            ["EDDYSTONE-TLM-7"] if t == 0x8000 else (["EDDYSTONE-TLM-6"] + (["EDDYSTONE-TLM-11"] if t in (0x7FFF, 0x8001) else [])),
            ["SignedField", "FixedPoint"] + (["FieldBounds"] if t in (0x8000, 0x7FFF, 0x8001, 0xFFFF, 0x0000) else []), ad,
            beacons=[tlm_beacon(temp=t)])
    # ADV_CNT (EDDYSTONE-TLM-8).
    for a in [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]:
        ad, s = eddystone(tlm_frame(adv=a))
        add("frame/eddystone/tlm/adv-cnt-0x%08x" % a,
            "TLM ADV_CNT 0x%08X is %d PDUs, unsigned 32-bit." % (a, a),
            ["EDDYSTONE-TLM-8"] + (["EDDYSTONE-TLM-11"] if a >= 0x80000000 else []), ["FieldBounds"], ad, beacons=[tlm_beacon(adv=a)])
    # SEC_CNT, tenths of a second (EDDYSTONE-TLM-9).
    for c in [0, 1, 9, 10, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF]:
        ad, s = eddystone(tlm_frame(sec=c))
        add("frame/eddystone/tlm/sec-cnt-0x%08x" % c,
            "TLM SEC_CNT 0x%08X counts tenths of a second: uptime %s s." % (c, repr(c / 10)),
            ["EDDYSTONE-TLM-9"] + (["EDDYSTONE-TLM-11"] if c >= 0x80000000 else []), ["FieldBounds", "FixedPoint"], ad,
            beacons=[tlm_beacon(sec=c)])
    ad, s = eddystone(tlm_frame(0, 0x8000, 0xFFFFFFFF, 0xFFFFFFFF), EDDY_PREFIX)
    add("frame/eddystone/tlm/not-measured-with-counts",
        "A TLM frame in a whole advertisement with VBATT 0 and TEMP 0x8000 (neither measured) but both counts at 0xFFFFFFFF: both readings null, the counts unsigned.",
        ["EDDYSTONE-TLM-5", "EDDYSTONE-TLM-7", "EDDYSTONE-TLM-8", "EDDYSTONE-TLM-9"], ["FieldBounds", "FixedPoint", "MultipleStructures"], ad,
        beacons=[tlm_beacon(0, 0x8000, 0xFFFFFFFF, 0xFFFFFFFF)])
    ad, s = eddystone(tlm_frame(0xFFFF, 0x7FFF, 0xFFFFFFFF, 0xFFFFFFFF))
    add("frame/eddystone/tlm/all-maximum",
        "A TLM frame with every field at its greatest value: 65535 mV, 127.99609375 °C, 4294967295 PDUs, 429496729.5 s, none a fault.",
        ["EDDYSTONE-TLM-4", "EDDYSTONE-TLM-6", "EDDYSTONE-TLM-8", "EDDYSTONE-TLM-9", "EDDYSTONE-TLM-11"],
        ["FieldBounds", "FixedPoint", "SignedField"], ad, beacons=[tlm_beacon(0xFFFF, 0x7FFF, 0xFFFFFFFF, 0xFFFFFFFF)])

    # --- eTLM: every length 2…21 (EDDYSTONE-ETLM-2…4) -----------------------------------------
    full = etlm_frame()
    for n in range(2, 22):
        frame = full[:n] if n <= 18 else full + counting(n - 18, 0x00)
        ad, s = eddystone(frame)
        vid = "frame/eddystone/etlm/length-%d" % n
        if n < 18:
            cut = 2 if n < 14 else (14 if n < 16 else 16)
            add(vid, "An eTLM frame of %d bytes cuts %s: eddystone/truncated at s + %d." % (n, {2: "ETLM", 14: "SALT", 16: "MIC"}[cut], cut),
                ["EDDYSTONE-ETLM-2", "EDDYSTONE-FRAME-1"], ["Truncated", "Encrypted"], ad, error=("eddystone/truncated", s + cut))
        elif n == 18:
            add(vid, "An eTLM frame of 18 bytes: ETLM, SALT and MIC as byte strings in the order sent, no `nordicPadding`.",
                ["EDDYSTONE-ETLM-1", "EDDYSTONE-ETLM-2", "EDDYSTONE-ETLM-5"], ["Encrypted", "FieldBounds"], ad, beacons=[etlm_beacon()])
        elif n == 19:
            add(vid, "An eTLM frame of 19 bytes as Nordic's firmware sends it: either read with `nordicPadding` 0 (expected) or eddystone/trailing-bytes at s + 18.",
                ["EDDYSTONE-ETLM-3"], ["Encrypted", "TrailingBytes"], ad,
                beacons=[etlm_beacon(padding=0)], alternatives=[("eddystone/trailing-bytes", s + 18)])
        else:
            add(vid, "An eTLM frame of %d bytes, past Nordic's 19: eddystone/trailing-bytes at s + 19." % n,
                ["EDDYSTONE-ETLM-4", "EDDYSTONE-FRAME-1"], ["Encrypted", "TrailingBytes"], ad, error=("eddystone/trailing-bytes", s + 19))
    for n in (15, 20):
        frame = full[:n] if n <= 18 else full + b"\x00\x00"
        ad, s = eddystone(frame, EDDY_PREFIX)
        code, off = ("eddystone/truncated", s + 14) if n < 18 else ("eddystone/trailing-bytes", s + 19)
        add("frame/eddystone/etlm/length-%d-in-advertisement" % n,
            "An eTLM frame of %d bytes after the Flags and the UUID list (s = %d): %s at %d." % (n, s, code, off),
            ["EDDYSTONE-ETLM-2" if n < 18 else "EDDYSTONE-ETLM-4", "EDDYSTONE-FRAME-1"],
            ["Encrypted", "Truncated" if n < 18 else "TrailingBytes", "MultipleStructures"], ad, error=(code, off))
    ad, s = eddystone(etlm_frame(padding=b"\xff"))
    add("frame/eddystone/etlm/nordic-padding-ff",
        "A 19-byte eTLM whose extra byte is 0xFF: either `nordicPadding` 255 (expected) or eddystone/trailing-bytes at s + 18.",
        ["EDDYSTONE-ETLM-3"], ["Encrypted", "TrailingBytes", "ReservedBits"], ad,
        beacons=[etlm_beacon(padding=255)], alternatives=[("eddystone/trailing-bytes", s + 18)])
    for name, fill in [("zero", 0x00), ("ones", 0xFF)]:
        e, sa, m = bytes([fill]) * 12, bytes([fill]) * 2, bytes([fill]) * 2
        ad, s = eddystone(etlm_frame(e, sa, m))
        add("frame/eddystone/etlm/all-%s" % name,
            "An eTLM frame whose ETLM, SALT and MIC are all 0x%02X: byte strings reported as sent, never read as numbers." % fill,
            ["EDDYSTONE-ETLM-1", "EDDYSTONE-ETLM-5"], ["Encrypted", "FieldBounds"], ad, beacons=[etlm_beacon(e, sa, m)])

    # --- EID: every length 1…12 (EDDYSTONE-EID-3) ---------------------------------------------
    full = eid_frame(0xFC, counting(8, 0x81))
    for n in range(1, 14):
        frame = full[:n] if n <= 10 else full + counting(n - 10, 0x20)
        ad, s = eddystone(frame)
        vid = "frame/eddystone/eid/length-%d" % n
        if n == 1:
            add(vid, "An EID frame of 1 byte has no Tx power: eddystone/truncated at s + 1.",
                ["EDDYSTONE-EID-3", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 1))
        elif n < 10:
            add(vid, "An EID frame of %d bytes cuts the 8-byte EID: eddystone/truncated at s + 2." % n,
                ["EDDYSTONE-EID-3", "EDDYSTONE-FRAME-1"], ["Truncated"], ad, error=("eddystone/truncated", s + 2))
        elif n == 10:
            add(vid, "An EID frame of 10 bytes: Tx power −4 dBm and the EID 8182…88 in the order sent.",
                ["EDDYSTONE-EID-1", "EDDYSTONE-EID-2", "EDDYSTONE-EID-3", "EDDYSTONE-EID-4"], ["FieldBounds"], ad,
                beacons=[eid_beacon(0xFC, counting(8, 0x81))])
        else:
            add(vid, "An EID frame of %d bytes, %d past its 10: eddystone/trailing-bytes at s + 10." % (n, n - 10),
                ["EDDYSTONE-EID-3", "EDDYSTONE-FRAME-1"], ["TrailingBytes"], ad, error=("eddystone/trailing-bytes", s + 10))
    for n in (5, 11):
        ad, s = eddystone(full[:n] if n <= 10 else full + b"\x00", EDDY_PREFIX)
        code, off = ("eddystone/truncated", s + 2) if n < 10 else ("eddystone/trailing-bytes", s + 10)
        add("frame/eddystone/eid/length-%d-in-advertisement" % n,
            "An EID frame of %d bytes after the Flags and the UUID list (s = %d): %s at %d." % (n, s, code, off),
            ["EDDYSTONE-EID-3", "EDDYSTONE-FRAME-1"], ["Truncated" if n < 10 else "TrailingBytes", "MultipleStructures"],
            ad, error=(code, off))
    for tx in [0x80, 0xFF, 0x00, 0x7F]:
        ad, s = eddystone(eid_frame(tx))
        add("frame/eddystone/eid/tx-power-0x%02x" % tx,
            "EID Tx power byte 0x%02X is %s, reported as sent." % (tx, dbm(s8(tx))),
            ["EDDYSTONE-EID-1"], ["SignedField", "FieldBounds"], ad, beacons=[eid_beacon(tx)])
    for name, e in [("zero", bytes(8)), ("ones", b"\xff" * 8)]:
        ad, s = eddystone(eid_frame(0xFC, e))
        add("frame/eddystone/eid/eid-all-%s" % name,
            "An EID of eight 0x%s bytes: reported as sent, with nothing resolved without a registry." % ("00" if name == "zero" else "FF"),
            ["EDDYSTONE-EID-2", "EDDYSTONE-EID-4"], ["FieldBounds"], ad, beacons=[eid_beacon(0xFC, e)])

    # --- E2EE-EID (0x40): every length class (EDDYSTONE-E2EE-1…3) -----------------------------
    for n in [1, 2, 11, 20, 21, 22, 23, 24, 32, 33, 34, 35, 36, 60]:
        body = counting(n - 1, 0x01)
        frame = bytes([0x40]) + body
        ad, s = eddystone(frame)
        vid = "frame/eddystone/e2ee/length-%d" % n
        if n in (21, 33):
            add(vid, "A 0x40 frame of %d bytes: a %d-byte EID and no hashed flags (`hashedFlags` null)." % (n, n - 1),
                ["EDDYSTONE-E2EE-1"], ["FieldBounds"], ad, beacons=[e2ee_beacon(body)])
        elif n in (22, 34):
            add(vid, "A 0x40 frame of %d bytes: a %d-byte EID and the hashed flags byte 0x%02X = %d." % (n, n - 2, body[-1], body[-1]),
                ["EDDYSTONE-E2EE-2"], ["FieldBounds"], ad, beacons=[e2ee_beacon(body[:-1], body[-1])])
        else:
            add(vid, "A 0x40 frame of %d byte%s, none of 21, 22, 33 or 34: eddystone/length-mismatch at s + 1." % (n, "" if n == 1 else "s"),
                ["EDDYSTONE-E2EE-3", "EDDYSTONE-FRAME-1"], [e2ee_length_flag(n)], ad,
                error=("eddystone/length-mismatch", s + 1))
    for n in (1, 23):
        ad, s = eddystone(bytes([0x40]) + counting(n - 1, 0x01), EDDY_PREFIX)
        add("frame/eddystone/e2ee/length-%d-in-advertisement" % n,
            "A 0x40 frame of %d bytes after the Flags and the UUID list (s = %d): eddystone/length-mismatch at %d." % (n, s, s + 1),
            ["EDDYSTONE-E2EE-3", "EDDYSTONE-FRAME-1"], [e2ee_length_flag(n), "MultipleStructures"],
            ad, error=("eddystone/length-mismatch", s + 1))
    for size in (20, 32):
        e = b"\xff" * size
        ad, s = eddystone(e2ee_frame(e), EDDY_PREFIX)
        add("frame/eddystone/e2ee/eid%d-ones-in-advertisement" % size,
            "A %d-byte E2EE EID of 0xFF bytes after the Flags and the UUID list, no flags byte: `eid` as sent, `hashedFlags` null." % size,
            ["EDDYSTONE-E2EE-1"], ["FieldBounds", "MultipleStructures"], ad, beacons=[e2ee_beacon(e)])
    for size, flags in [(20, 0x00), (20, 0xFF), (32, 0x00), (32, 0x80), (32, 0xFF)]:
        e = counting(size, 0xA0)
        ad, s = eddystone(e2ee_frame(e, flags))
        add("frame/eddystone/e2ee/eid%d-flags-0x%02x" % (size, flags),
            "A %d-byte E2EE EID with hashed flags 0x%02X: `hashedFlags` is %d, an unsigned byte." % (size, flags, flags),
            ["EDDYSTONE-E2EE-2"], ["FieldBounds"], ad, beacons=[e2ee_beacon(e, flags)])

    # --- Unknown frame types (EDDYSTONE-FRAME-8, -10) ------------------------------------------
    for ft in [0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0, 0xFF]:
        for n in ([1, 20] if ft in (0x50, 0xF0) else [12]):
            frame = bytes([ft]) + counting(n - 1, 0x01)
            ad, s = eddystone(frame)
            add("frame/eddystone/unknown/type-0x%02x-length-%d" % (ft, n),
                "Frame type 0x%02X, which Eddystone reserves, in %d byte%s: eddystone-unknown with `frameType` %d and the whole service data, no fault." % (
                    ft, n, "" if n == 1 else "s", ft),
                ["EDDYSTONE-FRAME-10", "EDDYSTONE-FRAME-8"], ["UnknownType"], ad,
                beacons=[{"type": "eddystone-unknown", "frameType": ft, "data": frame.hex()}])
    # A known frame with its reserved lower half set: unknown, whatever its length.
    for ft, body, what in [(0x01, uid_frame()[1:], "a UID's 20 bytes"), (0x0F, uid_frame()[1:], "a UID's 20 bytes"),
                           (0x11, url_frame(0, 2, b"example\x07")[1:], "a valid URL's bytes"),
                           (0x21, tlm_frame()[1:], "a TLM's 14 bytes"), (0x28, etlm_frame()[1:], "an eTLM's 18 bytes"),
                           (0x31, eid_frame()[1:], "an EID's 10 bytes"), (0x3F, b"", "nothing after it"),
                           (0x41, counting(20, 0x01), "21 bytes, Find Hub's other mode"), (0x4F, counting(33, 0x01), "34 bytes")]:
        frame = bytes([ft]) + body
        ad, s = eddystone(frame)
        add("frame/eddystone/unknown/type-0x%02x" % ft,
            "Frame type 0x%02X (a known type with its reserved lower four bits set) with %s: eddystone-unknown, not that frame and not a fault." % (ft, what),
            ["EDDYSTONE-FRAME-8", "EDDYSTONE-FRAME-10"], ["UnknownType", "ReservedBits"], ad,
            beacons=[{"type": "eddystone-unknown", "frameType": ft, "data": frame.hex()}])

    # --- The container among other AD structures (EDDYSTONE-FRAME-2…7, -11) ---------------------
    uid = uid_frame()
    ad, s = eddystone(uid)
    add("frame/eddystone/container/uid-alone",
        "A UID frame as the only AD structure, without the Flags or the 0xFEAA UUID list: a UID; the UUID list is not required.",
        ["EDDYSTONE-FRAME-6", "EDDYSTONE-FRAME-2"], [], ad, beacons=[uid_beacon()])
    ad, s = eddystone(uid, FLAGS_AD)
    add("frame/eddystone/container/uid-without-uuid-list",
        "A UID frame after the Flags, with no Complete List of 16-bit Service UUIDs: still a UID.",
        ["EDDYSTONE-FRAME-6"], ["MultipleStructures"], ad, beacons=[uid_beacon()])
    ad = service_data(FEAA, uid) + FLAGS_AD + EDDY_LIST
    add("frame/eddystone/container/uid-before-flags",
        "The 0xFEAA service data first, the Flags and the UUID list after it: the order of the AD structures does not matter.",
        ["EDDYSTONE-FRAME-2", "EDDYSTONE-FRAME-5", "EDDYSTONE-FRAME-6"], ["MultipleStructures"], ad, beacons=[uid_beacon()])
    ad = FLAGS_AD + bytes.fromhex("0503aafe0f18") + service_data(FEAA, uid)
    add("frame/eddystone/container/uuid-list-with-others",
        "The UUID list names 0xFEAA and 0x180F (Battery): the UID is read the same.",
        ["EDDYSTONE-FRAME-5", "EDDYSTONE-FRAME-2"], ["MultipleStructures"], ad, beacons=[uid_beacon()])
    ad = FLAGS_AD + bytes.fromhex("03030f18") + service_data(FEAA, uid)
    add("frame/eddystone/container/uuid-list-without-feaa",
        "The UUID list names 0x180F but not 0xFEAA: the service data alone decides, and the UID is read.",
        ["EDDYSTONE-FRAME-6"], ["MultipleStructures"], ad, beacons=[uid_beacon()])
    ad, s = eddystone(uid, EDDY_PREFIX, NAME_AD)
    add("frame/eddystone/container/uid-then-name",
        "A UID followed by a Complete Local Name: one UID (its frame ends with its AD structure) and no beacon from the name.",
        ["EDDYSTONE-FRAME-3", "EDDYSTONE-FRAME-2"], ["MultipleStructures"], ad, beacons=[uid_beacon()])
    legacy = uid[:18]
    ad, s = eddystone(legacy, EDDY_PREFIX, bytes.fromhex("030900ff"))
    add("frame/eddystone/container/legacy-uid-then-name",
        "An 18-byte UID followed by a name structure 03 09 00 ff: the UID ends with its structure, so `reserved` is absent and the next bytes are not read as it.",
        ["EDDYSTONE-FRAME-3", "EDDYSTONE-UID-6"], ["MultipleStructures"], ad, beacons=[uid_beacon(reserved=None)])
    ad, s = eddystone(eid_frame()[:6], EDDY_PREFIX, bytes.fromhex("050945fefa58"))
    add("frame/eddystone/container/cut-eid-then-name",
        "A 6-byte EID frame followed by a name whose bytes would complete it: eddystone/truncated at s + 2 = %d; the next structure is never part of the frame." % (s + 2),
        ["EDDYSTONE-FRAME-3", "EDDYSTONE-EID-3"], ["MultipleStructures", "Truncated"], ad, error=("eddystone/truncated", s + 2))
    ad, s = eddystone(url_frame(0xEB, 2, b"example"), EDDY_PREFIX, bytes.fromhex("020907"))
    add("frame/eddystone/container/url-then-name-byte",
        "A URL `http://example` followed by a name structure holding 0x07: the URL is not `http://example.com`.",
        ["EDDYSTONE-FRAME-3", "EDDYSTONE-URL-3"], ["MultipleStructures", "UrlExpansion"], ad,
        beacons=[url_beacon(0xEB, 2, b"example")])
    tlm = tlm_frame()
    ad = EDDY_PREFIX + service_data(FEAA, uid) + service_data(FEAA, tlm)
    add("frame/eddystone/container/uid-and-tlm",
        "Two 0xFEAA service data structures in one advertisement, a UID then a TLM: both beacons, in AD order.",
        ["EDDYSTONE-FRAME-2", "EDDYSTONE-FRAME-3"], ["MultipleStructures"], ad, beacons=[uid_beacon(), tlm_beacon()])
    ad = service_data(FEAA, tlm) + service_data(FEAA, uid)
    add("frame/eddystone/container/tlm-and-uid",
        "A TLM then a UID in one advertisement: both beacons, the TLM first as sent.",
        ["EDDYSTONE-FRAME-2", "EDDYSTONE-FRAME-3"], ["MultipleStructures"], ad, beacons=[tlm_beacon(), uid_beacon()])
    ad = service_data(FEAA, url_frame(0xEB, 3, b"x\x07")) + service_data(FEAA, eid_frame()) + service_data(FEAA, etlm_frame())
    add("frame/eddystone/container/url-eid-etlm",
        "A URL, an EID and an eTLM frame, three 0xFEAA structures in one extended advertisement: three beacons in order.",
        ["EDDYSTONE-FRAME-2", "EDDYSTONE-FRAME-3"], ["MultipleStructures"], ad,
        beacons=[url_beacon(0xEB, 3, b"x\x07"), eid_beacon(), etlm_beacon()])
    ad = service_data(FEAA, uid) + service_data(FEAA, uid_frame(0xC5, reserved=b"\x00\x00"))
    add("frame/eddystone/container/two-uids",
        "Two UID frames with different Tx powers in one advertisement: two beacons, neither merged nor dropped.",
        ["EDDYSTONE-FRAME-2"], ["MultipleStructures"], ad, beacons=[uid_beacon(), uid_beacon(0xC5)])
    ibeacon = manufacturer_data(0x004C, bytes.fromhex("0215") + IB_UUID + bytes.fromhex("00010002c5"))
    ad = FLAGS_AD + ibeacon + service_data(FEAA, eid_frame())
    add("frame/eddystone/container/ibeacon-then-eid",
        "An iBeacon and an Eddystone-EID in one advertisement: both beacons, the iBeacon first.",
        ["EDDYSTONE-FRAME-2", "IBEACON-2"], ["MultipleStructures", "ManufacturerData"], ad,
        beacons=[ibeacon_beacon(IB_UUID, 1, 2, 0xC5), eid_beacon()])
    ad = EDDY_PREFIX + service_data(FEAA, uid) + ibeacon
    add("frame/eddystone/container/uid-then-ibeacon",
        "A UID then an iBeacon in one advertisement: both beacons in AD order.",
        ["EDDYSTONE-FRAME-2", "IBEACON-2"], ["MultipleStructures", "ManufacturerData"], ad,
        beacons=[uid_beacon(), ibeacon_beacon(IB_UUID, 1, 2, 0xC5)])
    ad = FLAGS_AD + ad_structure(0x16, bytes.fromhex("feaa") + uid)
    add("frame/eddystone/container/uuid-byte-swapped",
        "Service data whose UUID is sent as fe aa (0xAAFE, the bytes in the wrong order): not Eddystone, no beacon and no fault.",
        ["EDDYSTONE-FRAME-2"], ["ByteOrder", "MultipleStructures"], ad, beacons=[])
    ad = FLAGS_AD + service_data(0xFEAB, uid)
    add("frame/eddystone/container/other-uuid",
        "A UID frame's bytes as service data of UUID 0xFEAB: not Eddystone, no beacon and no fault.",
        ["EDDYSTONE-FRAME-2"], ["MultipleStructures"], ad, beacons=[])
    ad = FLAGS_AD + ad_structure(0x20, bytes.fromhex("aafe0000") + uid)
    add("frame/eddystone/container/service-data-32-bit",
        "A UID frame's bytes in Service Data – 32-bit UUID (0x20) of UUID 0x0000FEAA: not the 16-bit service data Eddystone uses, no beacon.",
        ["EDDYSTONE-FRAME-2"], ["MultipleStructures", "UnknownType"], ad, beacons=[])
    ad = FLAGS_AD + EDDY_LIST
    add("frame/eddystone/container/uuid-list-only",
        "The Flags and a UUID list naming 0xFEAA, but no service data: no Eddystone beacon and no fault.",
        ["EDDYSTONE-FRAME-2", "EDDYSTONE-FRAME-5"], ["MultipleStructures"], ad, beacons=[])
    # EDDYSTONE-FRAME-4: the length byte claims more than the AD data holds.
    for name, frame, prefix in [("uid", uid, EDDY_PREFIX), ("tlm", tlm, b""), ("eid", eid_frame(), EDDY_PREFIX), ("url", url_frame(0, 2, b"ab"), b"")]:
        good = prefix + service_data(FEAA, frame)
        ad = bytearray(good)
        ad[len(prefix)] += 1
        add("frame/eddystone/container/length-overrun-%s" % name,
            "%s %s frame whose service data length byte claims one byte more than the AD data holds: ad/length-overrun at that length byte (%d), no frame read." % (
                "An" if name == "eid" else "A", name.upper(), len(prefix)),
            ["EDDYSTONE-FRAME-4"], ["LengthLie", "Truncated"] + (["MultipleStructures"] if prefix else []), ad,
            error=("ad/length-overrun", len(prefix)))
    ad = bytearray(EDDY_PREFIX + service_data(FEAA, uid))
    ad[len(EDDY_PREFIX)] = 0xFF
    add("frame/eddystone/container/length-overrun-ff",
        "A UID whose service data length byte is 0xFF, far past the 31 bytes of the advertisement: ad/length-overrun at 7.",
        ["EDDYSTONE-FRAME-4"], ["LengthLie", "Truncated", "MultipleStructures"], ad, error=("ad/length-overrun", 7))
    # EDDYSTONE-FRAME-11: a fault in one frame is reported; the next structure is still read.
    # (A frame vector pins the first fault; the beacons decoded after it are not compared.)
    ad = service_data(FEAA, uid[:11]) + service_data(FEAA, eid_frame())
    add("frame/eddystone/container/cut-uid-then-eid",
        "A UID cut inside its namespace followed by a whole EID: the UID's fault, eddystone/truncated at s + 2 = 6, is the first fault; the EID after it is still read.",
        ["EDDYSTONE-FRAME-11", "EDDYSTONE-UID-8"], ["MultipleStructures", "Truncated"], ad, error=("eddystone/truncated", 6))
    ad = service_data(FEAA, eid_frame()) + service_data(FEAA, tlm + b"\x00")
    add("frame/eddystone/container/eid-then-long-tlm",
        "A whole EID, then a TLM one byte too long: eddystone/trailing-bytes at the TLM's s + 14 = %d; the EID before it is not undone." % (14 + 4 + 14),
        ["EDDYSTONE-FRAME-11", "EDDYSTONE-TLM-10"], ["MultipleStructures", "TrailingBytes"], ad,
        error=("eddystone/trailing-bytes", 14 + 4 + 14))
    return vf


# ---------------------------------------------------------------------------------------------
# iBeacon and AltBeacon (docs/spec/ibeacon-altbeacon.md)

IB_UUID = bytes.fromhex("e2c56db5dffb48d2b060d0f5a71096e0")


def uuid_text(b):
    h = b.hex()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def ibeacon_payload(uuid=IB_UUID, major=1, minor=2, power=0xC5):
    return bytes.fromhex("0215") + uuid + major.to_bytes(2, "big") + minor.to_bytes(2, "big") + bytes([power])


def ibeacon_beacon(uuid=IB_UUID, major=1, minor=2, power=0xC5):
    return {"type": "ibeacon", "uuid": uuid_text(uuid), "major": major, "minor": minor, "measuredPower": s8(power)}


ALT_ID = bytes.fromhex("2f234454cf6d4a0fadf2f4911ba9ffa600010002")


def alt_payload(beacon_id=ALT_ID, rssi=0xC5, reserved=0x09):
    return bytes.fromhex("beac") + beacon_id + bytes([rssi]) + (bytes([reserved]) if reserved is not None else b"")


def alt_beacon(company=0x0118, beacon_id=ALT_ID, rssi=0xC5, reserved=0x09):
    return {"type": "altbeacon", "manufacturer": company, "beaconId": beacon_id.hex(), "uuid": uuid_text(beacon_id[:16]),
            "major": int.from_bytes(beacon_id[16:18], "big"), "minor": int.from_bytes(beacon_id[18:20], "big"),
            "measuredPower": s8(rssi), "reserved": reserved}


def apple_vectors():
    vf = VectorFile(
        "apple-altbeacon-systematic.json",
        "iBeacon and AltBeacon enumerated from the clauses of docs/spec/ibeacon-altbeacon.md (written by "
        "Scripts/frame-vectors.py): every length around the legal ones, every field at its bounds, other "
        "companies and Apple types, and the beacons among other AD structures.")
    add = vf.add

    # --- iBeacon: every length after 02 15 (IBEACON-8…10) -------------------------------------
    full = ibeacon_payload(counting(16, 0x10), 0x0102, 0x0304, 0xC5)
    fields = [(16, "the UUID"), (18, "major"), (20, "minor"), (21, "the measured power")]
    for k in range(0, 26):
        payload = full[: 2 + k] if k <= 21 else full + counting(k - 21, 0x10)[: k - 21]
        ad = manufacturer_data(0x004C, payload)
        m = 4
        vid = "frame/ibeacon/length-%d" % k
        if k < 21:
            cut = next(name for end, name in fields if k < end)
            add(vid, "An Apple 02 15 entry followed by %d of its 21 bytes (%s cut): ibeacon/length-overrun at m + 1 = 5, the length byte, and no iBeacon." % (k, cut),
                ["IBEACON-8", "IBEACON-1"], ["ManufacturerData", "LengthLie", "Truncated"], ad, error=("ibeacon/length-overrun", m + 1))
        elif k == 21:
            add(vid, "An Apple 02 15 entry with its 21 bytes: an iBeacon, UUID 10…1f, major 258, minor 772, −59 dBm.",
                ["IBEACON-2", "IBEACON-5", "IBEACON-6", "IBEACON-7", "IBEACON-9"], ["ManufacturerData", "FieldBounds"], ad,
                beacons=[ibeacon_beacon(counting(16, 0x10), 0x0102, 0x0304, 0xC5)])
        elif k in (22, 23, 25):
            add(vid, "An iBeacon entry with %d byte%s after its 21: either ibeacon/trailing-bytes at m + 23 = 27 (expected) or the iBeacon." % (
                k - 21, "" if k == 22 else "s"),
                ["IBEACON-10", "IBEACON-1"], ["ManufacturerData", "TrailingBytes"], ad, error=("ibeacon/trailing-bytes", m + 23),
                alternatives=[[ibeacon_beacon(counting(16, 0x10), 0x0102, 0x0304, 0xC5)]])
    for k in (0, 20, 22):
        payload = full[: 2 + k] if k <= 21 else full + b"\x00"
        ad = FLAGS_AD + manufacturer_data(0x004C, payload)
        m = 7
        if k < 21:
            add("frame/ibeacon/length-%d-in-advertisement" % k,
                "An Apple 02 15 entry with %d of its 21 bytes after the Flags (m = 7): ibeacon/length-overrun at m + 1 = 8." % k,
                ["IBEACON-8", "IBEACON-1"], ["ManufacturerData", "LengthLie", "Truncated", "MultipleStructures"], ad,
                error=("ibeacon/length-overrun", m + 1))
        else:
            add("frame/ibeacon/length-%d-in-advertisement" % k,
                "An iBeacon entry with one byte after it, after the Flags (m = 7): either ibeacon/trailing-bytes at m + 23 = 30 (expected) or the iBeacon.",
                ["IBEACON-10", "IBEACON-1"], ["ManufacturerData", "TrailingBytes", "MultipleStructures"], ad,
                error=("ibeacon/trailing-bytes", m + 23), alternatives=[[ibeacon_beacon(counting(16, 0x10), 0x0102, 0x0304, 0xC5)]])
    # Apple data that is not an iBeacon (IBEACON-4).
    for name, payload, what in [("empty", b"", "no byte after the company"), ("one-byte", b"\x02", "the single byte 02"),
                                ("type-02-length-14", bytes.fromhex("0214") + counting(20), "type 02 with length 0x14 and 20 bytes"),
                                ("type-02-length-16", bytes.fromhex("0216") + counting(22), "type 02 with length 0x16 and 22 bytes"),
                                ("type-02-length-15-swapped", bytes.fromhex("1502") + counting(21), "15 02, the type and length swapped"),
                                ("type-01", bytes.fromhex("0111") + counting(17), "type 01 (overflow area)"),
                                ("type-07", bytes.fromhex("0719") + counting(25), "type 07 (proximity pairing)"),
                                ("type-09", bytes.fromhex("0906") + counting(6), "type 09 (AirPlay target)"),
                                ("type-0c", bytes.fromhex("0c0e") + counting(14), "type 0C (Handoff)"),
                                ("type-12", bytes.fromhex("1219") + counting(25), "type 12 (Find My)"),
                                ("type-10-then-02-15", bytes.fromhex("100203") + b"\x1c" + ibeacon_payload(), "a Nearby Info entry first, the iBeacon entry after it")]:
        ad = manufacturer_data(0x004C, payload)
        add("frame/ibeacon/apple-%s" % name,
            "Apple manufacturer data with %s: not an iBeacon (it does not start with 02 15) and not a fault." % what,
            ["IBEACON-4", "IBEACON-2"], ["ManufacturerData", "UnknownType"] + (["Truncated"] if name in ("empty", "one-byte") else []),
            ad, beacons=[])
    # Another company's 02 15 (IBEACON-3).
    for company, what in [(0x004D, "0x004D, the company after Apple"), (0x4C00, "0x4C00, Apple's bytes in the wrong order (00 4c)"),
                          (0x0000, "0x0000"), (0xFFFF, "0xFFFF"), (0x0118, "0x0118 (Radius Networks)")]:
        ad = manufacturer_data(company, ibeacon_payload())
        add("frame/ibeacon/company-0x%04x" % company,
            "An iBeacon's 23 bytes under company %s: never an iBeacon (and not BE AC, so not an AltBeacon), no fault." % what,
            ["IBEACON-3", "ALTBEACON-4"], ["ManufacturerData"] + (["ByteOrder"] if company == 0x4C00 else []), ad, beacons=[])
    # Fields at their bounds (IBEACON-5…7).
    for major, minor in [(0, 0), (0, 65535), (65535, 0), (0x8000, 0x7FFF), (0x00FF, 0xFF00)]:
        ad = manufacturer_data(0x004C, ibeacon_payload(major=major, minor=minor))
        add("frame/ibeacon/major-%d-minor-%d" % (major, minor),
            "iBeacon major 0x%04X and minor 0x%04X: unsigned big-endian, %d and %d." % (major, minor, major, minor),
            ["IBEACON-6"], ["ManufacturerData", "FieldBounds"] + (["ByteOrder"] if major == 0x00FF else []), ad,
            beacons=[ibeacon_beacon(major=major, minor=minor)])
    for p in [0x80, 0x9C, 0xC5, 0xFF, 0x00, 0x01, 0x7F]:
        ad = manufacturer_data(0x004C, ibeacon_payload(power=p))
        add("frame/ibeacon/measured-power-0x%02x" % p,
            "iBeacon measured power byte 0x%02X is %s at 1 m, signed and reported as sent." % (p, dbm(s8(p))),
            ["IBEACON-7"], ["ManufacturerData", "SignedField"] + (["FieldBounds"] if p in (0x80, 0xFF, 0x00, 0x7F) else []), ad,
            beacons=[ibeacon_beacon(power=p)])
    for name, u in [("zero", bytes(16)), ("ones", b"\xff" * 16), ("counting", counting(16, 0x00))]:
        ad = manufacturer_data(0x004C, ibeacon_payload(uuid=u))
        add("frame/ibeacon/uuid-%s" % name,
            "iBeacon proximity UUID %s: printed in the 8-4-4-4-12 form, lower case, no byte swapped." % uuid_text(u),
            ["IBEACON-5"], ["ManufacturerData", "FieldBounds"] + (["ByteOrder"] if name == "counting" else []), ad,
            beacons=[ibeacon_beacon(uuid=u)])
    # Among other structures.
    ib = manufacturer_data(0x004C, ibeacon_payload())
    for name, ad, beacons, what in [
        ("flags-then-ibeacon-then-name", FLAGS_AD + ib + NAME_AD, [ibeacon_beacon()], "the Flags, the iBeacon and a Complete Local Name: one iBeacon"),
        ("ibeacon-then-flags", ib + FLAGS_AD, [ibeacon_beacon()], "the iBeacon before the Flags: still an iBeacon"),
        ("two-ibeacons", ib + manufacturer_data(0x004C, ibeacon_payload(major=7, minor=8)), [ibeacon_beacon(), ibeacon_beacon(major=7, minor=8)],
         "two iBeacon structures: two beacons in order"),
        ("ibeacon-and-altbeacon", ib + manufacturer_data(0x0118, alt_payload()), [ibeacon_beacon(), alt_beacon()],
         "an iBeacon and an AltBeacon: both, in order"),
        ("apple-other-then-ibeacon", manufacturer_data(0x004C, bytes.fromhex("100503") + counting(3)) + ib, [ibeacon_beacon()],
         "an Apple Nearby Info structure then an iBeacon structure: the first is no beacon, the second is one"),
    ]:
        add("frame/ibeacon/%s" % name, "An advertisement with %s." % what,
            ["IBEACON-2", "IBEACON-9"] + (["IBEACON-4"] if name.startswith("apple-other") else []) + (["ALTBEACON-2"] if "altbeacon" in name else []),
            ["ManufacturerData", "MultipleStructures"], ad, beacons=beacons)

    # --- AltBeacon: every length after BE AC (ALTBEACON-4, -10…12) ----------------------------
    alt_id = counting(20, 0x21)
    full = alt_payload(alt_id, 0xC5, 0x5A)
    for k in range(0, 26):
        payload = full[: 2 + k] if k <= 22 else full + counting(k - 22, 0xE0)
        ad = manufacturer_data(0x0118, payload)
        m = 4
        vid = "frame/altbeacon/length-%d" % k
        if k < 20:
            if k in (0, 1, 10, 16, 19) or k % 4 == 2:
                add(vid, "BE AC followed by %d bytes cuts the 20-byte beacon id: altbeacon/truncated at m + 2 = 6, no AltBeacon." % k,
                    ["ALTBEACON-10", "ALTBEACON-1"], ["ManufacturerData", "Truncated"], ad, error=("altbeacon/truncated", m + 2))
        elif k == 20:
            add(vid, "BE AC followed by the 20-byte beacon id alone: no reference RSSI, altbeacon/truncated at m + 22 = 26.",
                ["ALTBEACON-10", "ALTBEACON-1"], ["ManufacturerData", "Truncated"], ad, error=("altbeacon/truncated", m + 22))
        elif k == 21:
            add(vid, "BE AC, the beacon id and the reference RSSI without the reserved byte: either an AltBeacon with `reserved` null (expected) or altbeacon/truncated at m + 23 = 27.",
                ["ALTBEACON-11"], ["ManufacturerData", "Truncated"], ad,
                beacons=[alt_beacon(0x0118, alt_id, 0xC5, None)], alternatives=[("altbeacon/truncated", m + 23)])
        elif k == 22:
            add(vid, "A whole AltBeacon, 24 bytes after the company: id 21…34, −59 dBm, reserved 0x5A = 90.",
                ["ALTBEACON-2", "ALTBEACON-5", "ALTBEACON-6", "ALTBEACON-7", "ALTBEACON-9"], ["ManufacturerData", "FieldBounds"], ad,
                beacons=[alt_beacon(0x0118, alt_id, 0xC5, 0x5A)])
        elif k in (23, 24, 25):
            add(vid, "An AltBeacon with %d byte%s after its 24: altbeacon/trailing-bytes at m + 24 = 28, no AltBeacon." % (k - 22, "" if k == 23 else "s"),
                ["ALTBEACON-12", "ALTBEACON-1"], ["ManufacturerData", "TrailingBytes"], ad, error=("altbeacon/trailing-bytes", m + 24))
    for k in (5, 20, 23):
        payload = full[: 2 + k] if k <= 22 else full + b"\x00"
        ad = FLAGS_AD + manufacturer_data(0x0118, payload)
        m = 7
        code, off = ("altbeacon/truncated", m + 2) if k < 20 else (("altbeacon/truncated", m + 22) if k == 20 else ("altbeacon/trailing-bytes", m + 24))
        add("frame/altbeacon/length-%d-in-advertisement" % k,
            "AltBeacon data with %d bytes after BE AC, after the Flags (m = 7): %s at %d." % (k, code, off),
            ["ALTBEACON-12" if k > 22 else "ALTBEACON-10", "ALTBEACON-1"],
            ["ManufacturerData", "TrailingBytes" if k > 22 else "Truncated", "MultipleStructures"], ad, error=(code, off))
    ad = FLAGS_AD + manufacturer_data(0x0118, full[:23]) + NAME_AD
    add("frame/altbeacon/length-21-in-advertisement",
        "An AltBeacon without its reserved byte, between the Flags and a name (m = 7): either `reserved` null (expected) or altbeacon/truncated at m + 23 = 30; the name's bytes are not the reserved byte.",
        ["ALTBEACON-11"], ["ManufacturerData", "Truncated", "MultipleStructures"], ad,
        beacons=[alt_beacon(0x0118, alt_id, 0xC5, None)], alternatives=[("altbeacon/truncated", 30)])
    # Not an AltBeacon (ALTBEACON-4).
    for name, payload, what in [("empty", b"", "no byte after the company"), ("one-byte", b"\xbe", "only the byte BE"),
                                ("code-swapped", bytes.fromhex("acbe") + alt_id + b"\xc5\x00", "AC BE, the beacon code's bytes swapped"),
                                ("code-bead", bytes.fromhex("bead") + alt_id + b"\xc5\x00", "BE AD"),
                                ("code-later", b"\x00" + alt_payload(), "BE AC one byte later than the start")]:
        ad = manufacturer_data(0x0118, payload)
        add("frame/altbeacon/not-%s" % name,
            "Manufacturer data with %s: not an AltBeacon and not a fault." % what,
            ["ALTBEACON-4"], ["ManufacturerData"] + (["Truncated"] if name in ("empty", "one-byte") else [])
            + (["ByteOrder"] if name == "code-swapped" else []), ad, beacons=[])
    # Any company (ALTBEACON-2, -3).
    for company in [0x0000, 0x004C, 0x00FF, 0xFF00, 0xFFFF]:
        ad = manufacturer_data(company, alt_payload())
        add("frame/altbeacon/company-0x%04x" % company,
            "An AltBeacon under company 0x%04X (bytes %s): `manufacturer` %d, least significant byte first%s." % (
                company, company.to_bytes(2, "little").hex(" "), company, ", Apple's included" if company == 0x004C else ""),
            ["ALTBEACON-2", "ALTBEACON-3"], ["ManufacturerData", "FieldBounds", "ByteOrder"] if company in (0x00FF, 0xFF00) else ["ManufacturerData", "FieldBounds"],
            ad, beacons=[alt_beacon(company)])
    # Fields at their bounds (ALTBEACON-5…9).
    for name, bid in [("zero", bytes(20)), ("ones", b"\xff" * 20), ("major-minor-bounds", counting(16, 0x40) + bytes.fromhex("8000ffff"))]:
        ad = manufacturer_data(0x0118, alt_payload(bid))
        add("frame/altbeacon/id-%s" % name,
            "AltBeacon beacon id %s: `beaconId` as sent and its split into UUID %s, major %d, minor %d." % (
                bid.hex(), uuid_text(bid[:16]), int.from_bytes(bid[16:18], "big"), int.from_bytes(bid[18:], "big")),
            ["ALTBEACON-5", "ALTBEACON-6"], ["ManufacturerData", "FieldBounds"], ad, beacons=[alt_beacon(0x0118, bid)])
    for r in [0x80, 0x81, 0xFF, 0x00, 0x01, 0x7F]:
        ad = manufacturer_data(0x0118, alt_payload(rssi=r))
        note = " (above 0 dBm, still reported)" if 0 < s8(r) else ""
        add("frame/altbeacon/reference-rssi-0x%02x" % r,
            "AltBeacon reference RSSI byte 0x%02X is %s%s." % (r, dbm(s8(r)), note),
            ["ALTBEACON-7", "ALTBEACON-8"], ["ManufacturerData", "SignedField", "FieldBounds"], ad, beacons=[alt_beacon(rssi=r)])
    for rv in [0x00, 0x01, 0x80, 0xFF]:
        ad = manufacturer_data(0x0118, alt_payload(reserved=rv))
        add("frame/altbeacon/reserved-0x%02x" % rv,
            "AltBeacon manufacturer reserved byte 0x%02X: reported as %d, any value allowed." % (rv, rv),
            ["ALTBEACON-9"], ["ManufacturerData", "FieldBounds"], ad, beacons=[alt_beacon(reserved=rv)])
    ad = FLAGS_AD + manufacturer_data(0x0118, alt_payload()) + NAME_AD
    add("frame/altbeacon/flags-then-altbeacon-then-name",
        "The Flags, an AltBeacon and a Complete Local Name: one AltBeacon.",
        ["ALTBEACON-2"], ["ManufacturerData", "MultipleStructures"], ad, beacons=[alt_beacon()])
    ad = manufacturer_data(0x0118, alt_payload()) + manufacturer_data(0x0118, alt_payload(reserved=0x0A))
    add("frame/altbeacon/two-altbeacons",
        "Two AltBeacon structures in one advertisement: two beacons in order.",
        ["ALTBEACON-2"], ["ManufacturerData", "MultipleStructures"], ad, beacons=[alt_beacon(), alt_beacon(reserved=0x0A)])
    ad = manufacturer_data(0x0118, alt_payload()[:10]) + manufacturer_data(0x004C, ibeacon_payload())
    add("frame/altbeacon/cut-then-ibeacon",
        "An AltBeacon cut in its beacon id, then an iBeacon: altbeacon/truncated at m + 2 = 6 is the first fault.",
        ["ALTBEACON-10", "IBEACON-2"], ["ManufacturerData", "MultipleStructures", "Truncated"], ad, error=("altbeacon/truncated", 6))
    return vf


# ---------------------------------------------------------------------------------------------
# BLE token advertisement v1 (docs/spec/ble-token.md)

FEF3 = 0xFEF3
TOKEN_LIST = bytes.fromhex("0303f3fe")
TOKEN_PREFIX = FLAGS_AD + TOKEN_LIST  # s = 11
ALLOWED = [6] + list(range(8, 17))


def token_ad(body, prefix=b"", after=b""):
    """AD data with `body` (header first) as 0xFEF3 service data; returns (adData, s), s the
    input offset of the header."""
    return prefix + service_data(FEF3, body) + after, len(prefix) + 4


def token_body(token, tx=0xF4, version=0x10):
    return bytes([0xF7, version, len(token)]) + token + bytes([tx])


def token_beacon(token, tx=0xF4, flags=0):
    return {"type": "token-v1", "token": token.hex(), "txPower": s8(tx), "flags": flags}


def token_vectors():
    vf = VectorFile(
        "token-systematic.json",
        "BLE token advertisements v1 enumerated from the TOKEN- clauses of docs/spec/ble-token.md (written by "
        "Scripts/frame-vectors.py): every token length, allowed or not, each cut and overlong, the header, "
        "version, flags and Tx power at their bounds, and the token among other AD structures.")
    add = vf.add

    # Every allowed length: whole, one token byte short, no Tx power, one byte too many.
    for L in ALLOWED:
        tok = counting(L, 0xA1)
        ad, s = token_ad(token_body(tok))
        add("frame/token/length-%d" % L, "A v1 token advertisement with a %d-byte token and −12 dBm: one token-v1 beacon." % L,
            ["TOKEN-5", "TOKEN-6", "TOKEN-7", "TOKEN-9", "TOKEN-18"], ["FieldBounds"] if L in (6, 8, 16) else [], ad,
            beacons=[token_beacon(tok)])
        ad, s = token_ad(bytes([0xF7, 0x10, L]) + tok[:-1])
        add("frame/token/length-%d-token-short" % L,
            "Length %d with only %d token bytes after it: token/length-overrun at the length byte, s + 2 = %d." % (L, L - 1, s + 2),
            ["TOKEN-14", "TOKEN-17"], ["LengthLie", "Truncated"], ad, error=("token/length-overrun", s + 2))
        ad, s = token_ad(bytes([0xF7, 0x10, L]) + tok)
        add("frame/token/length-%d-no-tx-power" % L,
            "A whole %d-byte token with no Tx power after it: token/truncated at s + 3 + %d = %d." % (L, L, s + 3 + L),
            ["TOKEN-15", "TOKEN-17"], ["Truncated"], ad, error=("token/truncated", s + 3 + L))
        ad, s = token_ad(token_body(tok) + b"\x00")
        add("frame/token/length-%d-trailing" % L,
            "A whole %d-byte token advertisement and one byte more: token/trailing-bytes at s + 4 + %d = %d." % (L, L, s + 4 + L),
            ["TOKEN-16", "TOKEN-9", "TOKEN-17"], ["TrailingBytes"], ad, error=("token/trailing-bytes", s + 4 + L))
    for L in (6, 16):
        ad, s = token_ad(bytes([0xF7, 0x10, L]))
        add("frame/token/length-%d-no-token" % L,
            "Length %d and nothing after it: token/length-overrun at the length byte, s + 2 = %d." % (L, s + 2),
            ["TOKEN-14", "TOKEN-17"], ["LengthLie", "Truncated"], ad, error=("token/length-overrun", s + 2))
    ad, s = token_ad(token_body(counting(6, 0xA1)) + counting(10, 0x01))
    add("frame/token/length-6-trailing-ten",
        "A 6-byte token advertisement and ten bytes more: token/trailing-bytes at the first of them, s + 10 = %d." % (s + 10),
        ["TOKEN-16", "TOKEN-17"], ["TrailingBytes"], ad, error=("token/trailing-bytes", s + 10))
    # Lengths the format does not allow (TOKEN-13), whatever follows.
    for L in [0, 1, 2, 3, 4, 5, 7, 17, 18, 32, 0x7F, 0x80, 0xFF]:
        ad, s = token_ad(bytes([0xF7, 0x10, L]))
        add("frame/token/length-byte-%d" % L,
            "Length byte %d, not 6 or 8…16, with nothing after it: token/invalid-value at the length byte, s + 2 = %d." % (L, s + 2),
            ["TOKEN-13", "TOKEN-17"], ["FieldBounds"] + (["Truncated"] if L > 0 else []), ad, error=("token/invalid-value", s + 2))
    for L in [0, 5, 7, 17]:
        body = bytes([0xF7, 0x10, L]) + counting(L, 0xA1) + b"\xf4"
        ad, s = token_ad(body)
        add("frame/token/length-byte-%d-complete" % L,
            "Length byte %d followed by exactly %d token bytes and a Tx power, well formed but for the length: still token/invalid-value at s + 2 = %d." % (L, L, s + 2),
            ["TOKEN-13", "TOKEN-17"], ["FieldBounds"], ad, error=("token/invalid-value", s + 2))
    ad, s = token_ad(bytes([0xF7, 0x10, 0x07]) + counting(3, 0xA1), TOKEN_PREFIX)
    add("frame/token/length-byte-7-in-advertisement",
        "Length byte 7 after the Flags and the 0xFEF3 UUID list (s = 11): token/invalid-value at 13, counted from the first byte of the AD data.",
        ["TOKEN-13", "TOKEN-17"], ["FieldBounds", "MultipleStructures"], ad, error=("token/invalid-value", 13))
    # Header and version cut (TOKEN-11, -12).
    for prefix in (b"", TOKEN_PREFIX):
        where = "-in-advertisement" if prefix else ""
        ad, s = token_ad(b"\xf7", prefix)
        add("frame/token/header-only%s" % where,
            "Service data on 0xFEF3 that ends after the header F7: token/truncated at s + 1 = %d, where the version would be." % (s + 1),
            ["TOKEN-11", "TOKEN-17"], ["Truncated"] + (["MultipleStructures"] if prefix else []), ad, error=("token/truncated", s + 1))
        ad, s = token_ad(b"\xf7\x10", prefix)
        add("frame/token/version-only%s" % where,
            "Header F7 and version 0x10 with nothing after them: token/truncated at s + 2 = %d, where the length would be." % (s + 2),
            ["TOKEN-12", "TOKEN-17"], ["Truncated"] + (["MultipleStructures"] if prefix else []), ad, error=("token/truncated", s + 2))
    ad, s = token_ad(b"\xf7\x1f")
    add("frame/token/version-only-flags-set",
        "Header F7 and version 0x1F (flags set) with nothing after them: token/truncated at s + 2.",
        ["TOKEN-12", "TOKEN-4"], ["Truncated", "ReservedBits"], ad, error=("token/truncated", s + 2))
    # Not a token advertisement (TOKEN-2).
    for h in [None, 0x00, 0x20, 0x41, 0x5F, 0x7F, 0xF6, 0xF8, 0xFF]:
        body = b"" if h is None else bytes([h, 0x10, 0x06]) + counting(6, 0xA1) + b"\xf4"
        ad, s = token_ad(body)
        name = "empty" if h is None else "header-0x%02x" % h
        what = "no byte after the UUID" if h is None else "first byte 0x%02X, not F7, before a token's bytes" % h
        add("frame/token/not-token-%s" % name,
            "0xFEF3 service data with %s: not a token advertisement, no beacon and no fault." % what,
            ["TOKEN-2"], (["Truncated"] if h is None else ["UnknownType"]), ad, beacons=[])
    # Unknown major versions (TOKEN-10).
    for ver, rest in [(0x00, b""), (0x00, bytes.fromhex("06a1a2a3a4a5a6f4")), (0x20, b""), (0x20, bytes.fromhex("06a1a2a3a4a5a6f4")),
                      (0x2F, bytes.fromhex("ff")), (0x30, counting(20)), (0xF0, bytes.fromhex("00")), (0xFF, counting(3))]:
        ad, s = token_ad(bytes([0xF7, ver]) + rest)
        add("frame/token/version-0x%02x-%d-bytes" % (ver, len(rest)),
            "Header F7 with major version %d (byte 0x%02X) and %d byte%s after it: token-unknown with `version` %d and those bytes, no fault." % (
                ver >> 4, ver, len(rest), "" if len(rest) == 1 else "s", ver >> 4),
            ["TOKEN-10", "TOKEN-3"], ["VersionMismatch"] + (["ReservedBits"] if ver & 0x0F else []), ad,
            beacons=[{"type": "token-unknown", "version": ver >> 4, "data": rest.hex()}])
    # Flags (TOKEN-4).
    for fl in [0x1, 0x8, 0xF]:
        tok = counting(6, 0xA1)
        ad, s = token_ad(token_body(tok, version=0x10 | fl))
        add("frame/token/flags-0x%x" % fl,
            "Version byte 0x1%X: major version 1 with reserved flags %d, accepted and reported as `flags` %d." % (fl, fl, fl),
            ["TOKEN-4", "TOKEN-3", "TOKEN-18"], ["ReservedBits"], ad, beacons=[token_beacon(tok, flags=fl)])
    # Tx power (TOKEN-7, -8).
    for tx in [0x80, 0x9B, 0x9C, 0xFF, 0x00, 0x14, 0x15, 0x7F]:
        tok = counting(6, 0xA1)
        ad, s = token_ad(token_body(tok, tx))
        note = {0x9B: ", below the −100 an encoder sends, still reported", 0x15: ", above the +20 an encoder sends, still reported"}.get(tx, "")
        add("frame/token/tx-power-0x%02x" % tx,
            "Token Tx power byte 0x%02X is %s%s." % (tx, dbm(s8(tx)), note),
            ["TOKEN-7", "TOKEN-8"], ["SignedField", "FieldBounds"], ad, beacons=[token_beacon(tok, tx)])
    # Token bytes at their bounds (TOKEN-6).
    for name, tok in [("zero-6", bytes(6)), ("ones-6", b"\xff" * 6), ("ones-16", b"\xff" * 16), ("f7-10-06", bytes.fromhex("f71006f71006"))]:
        ad, s = token_ad(token_body(tok))
        add("frame/token/token-%s" % name,
            "The token %s: opaque, reported as sent%s." % (tok.hex(), ", although it repeats the header bytes" if name == "f7-10-06" else ""),
            ["TOKEN-6", "TOKEN-18"], ["FieldBounds"], ad, beacons=[token_beacon(tok)])
    # Among other AD structures.
    tok = bytes.fromhex("a1b2c3d4e5f6")
    one = service_data(FEF3, token_body(tok))
    for name, ad, beacons, what, clauses, flags in [
        ("without-uuid-list", FLAGS_AD + one, [token_beacon(tok)], "the Flags and the token, without the UUID list: one token",
         ["TOKEN-1", "TOKEN-18"], ["MultipleStructures"]),
        ("then-name", TOKEN_PREFIX + one + NAME_AD, [token_beacon(tok)], "the token followed by a Complete Local Name: one token",
         ["TOKEN-1", "TOKEN-9"], ["MultipleStructures"]),
        ("two-tokens", one + service_data(FEF3, token_body(counting(8, 0x01), 0x00)), [token_beacon(tok), token_beacon(counting(8, 0x01), 0x00)],
         "two token advertisements: two beacons in order", ["TOKEN-1", "TOKEN-18"], ["MultipleStructures"]),
        ("and-eddystone-uid", one + service_data(FEAA, uid_frame()), [token_beacon(tok), uid_beacon()],
         "a token and an Eddystone-UID: both beacons", ["TOKEN-1", "EDDYSTONE-FRAME-2"], ["MultipleStructures"]),
        ("and-ibeacon", manufacturer_data(0x004C, ibeacon_payload()) + one, [ibeacon_beacon(), token_beacon(tok)],
         "an iBeacon then a token: both beacons", ["TOKEN-1", "IBEACON-2"], ["MultipleStructures", "ManufacturerData"]),
        ("connections-then-token", service_data(FEF3, bytes.fromhex("4111111111")) + one, [token_beacon(tok)],
         "Nearby Connections service data (0x41) then a token on the same UUID: only the token is a beacon",
         ["TOKEN-2", "TOKEN-1"], ["MultipleStructures", "UnknownType"]),
        ("uuid-byte-swapped", FLAGS_AD + ad_structure(0x16, bytes.fromhex("fef3") + token_body(tok)), [],
         "a token's bytes after the UUID sent as fe f3 (0xF3FE): not 0xFEF3, no beacon", ["TOKEN-1"], ["MultipleStructures", "ByteOrder"]),
        ("on-feaa", service_data(FEAA, token_body(tok)), [{"type": "eddystone-unknown", "frameType": 0xF7, "data": token_body(tok).hex()}],
         "a token's bytes as 0xFEAA service data: an unknown Eddystone frame 0xF7, not a token",
         ["TOKEN-1", "EDDYSTONE-FRAME-10"], ["UnknownType"]),
    ]:
        add("frame/token/container-%s" % name, "An advertisement with %s." % what, clauses, flags, ad, beacons=beacons)
    ad, s = token_ad(bytes([0xF7, 0x10, 6]) + tok[:3], b"", bytes.fromhex("040944e5f6"))
    add("frame/token/container-cut-then-name",
        "A token cut after 3 of its 6 bytes, followed by a name whose bytes would complete it: token/length-overrun at s + 2 = 6; the next structure is not part of the token.",
        ["TOKEN-14", "TOKEN-1"], ["MultipleStructures", "LengthLie", "Truncated"], ad, error=("token/length-overrun", 6))
    ad, s = token_ad(bytes([0xF7, 0x10, 6]) + tok, b"", bytes.fromhex("0209f4"))
    add("frame/token/container-no-tx-then-name",
        "A whole token without its Tx power, followed by a name holding F4: token/truncated at s + 9 = 13.",
        ["TOKEN-15", "TOKEN-1"], ["MultipleStructures", "Truncated"], ad, error=("token/truncated", 13))
    ad = service_data(FEF3, b"\xf7") + one
    add("frame/token/container-fault-then-token",
        "A header-only advertisement then a whole token: token/truncated at 5 is the first fault.",
        ["TOKEN-11", "TOKEN-17"], ["MultipleStructures", "Truncated"], ad, error=("token/truncated", 5))
    return vf


def main():
    total = 0
    for vf in (eddystone_vectors(), apple_vectors(), token_vectors()):
        path, n = vf.write()
        total += n
        print("%s: %d vectors" % (os.path.relpath(path, ROOT), n))
    print("%d vectors" % total)


if __name__ == "__main__":
    main()
