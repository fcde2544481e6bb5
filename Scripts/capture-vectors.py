#!/usr/bin/env python3
"""Write Captures/systematic/ (small capture files) and Vectors/captures/systematic.json.

Two stories of records are written into every container and link type the reader takes
(docs/spec/containers.md, docs/spec/hci.md):

* the HCI story: the host's own commands, LE Advertising Reports of one to three reports,
  LE Extended Advertising Reports (complete, chained over two and three reports with two
  chains interleaved, a chain cut short by data status 2, an extended scan response, a
  legacy PDU in an extended report), a directed report, other events and subevents, ACL,
  SCO, ISO and vendor packets, and (monitor) records that are not HCI packets; written as
  pcap (both byte orders, microsecond and nanosecond magic) and pcapng (both byte orders)
  with LINKTYPE 187, 201 and 254, as btsnoop with datalinks 1001, 1002 and 2001, and as hex
  text;
* the air story: advertising-channel PDUs of every type, a data-channel packet and, for
  the nRF Sniffer, a control packet; written as pcap and pcapng with LINKTYPE 251, 256 and
  272 (nRF Sniffer protocol versions 1, 2 and 3).

Then files that only one container can hold (pcapng with several interfaces of different
link types and timestamp resolutions, sections of both byte orders; hex text with comments,
blank lines, CRLF and separators; link types and datalinks the reader does not take), chains
cut by the end of the capture, and damage of classes Captures/damaged/ lacks, each made
here at a known place with the bytes skipped worked out from the damage model of
docs/damaged-captures.md.

Every expectation is written here from the clauses: each record's outcome (decoded,
ignored, malformed) and beacons are stated with the record that is built, and the beacon
objects are what docs/decode-output.md prints for the bytes encoded. Nothing here runs the
reference decoder. Deterministic: the same bytes on every run.

    python3 Scripts/capture-vectors.py
"""
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Captures", "systematic")
VECTORS = os.path.join(ROOT, "Vectors", "captures", "systematic.json")
REL = "../../Captures/systematic/"

BASE = 1700000000            # 2023-11-14T22:13:20Z
BTSNOOP_EPOCH = 0x00DCDDB30F2F8000   # BTSNOOP-4


# ------------------------------------------------------------------ AD data and beacons
def flags_ad():
    return bytes([2, 0x01, 0x06])


def token_ad(token, tx):
    """BLE token advertisement v1 (TOKEN-1 to TOKEN-9): service data on FEF3."""
    return bytes([len(token) + 7, 0x16, 0xF3, 0xFE, 0xF7, 0x10, len(token)]) + token + bytes([tx & 0xFF]), \
        {"type": "token-v1", "token": token.hex(), "txPower": tx, "flags": 0}


def token_list():
    return bytes([3, 0x03, 0xF3, 0xFE])


def ibeacon_ad(uuid, major, minor, power):
    """Apple iBeacon (IBEACON-2, IBEACON-5 to IBEACON-7)."""
    body = bytes([0x4C, 0x00, 0x02, 0x15]) + uuid + struct.pack(">HHb", major, minor, power)
    h = uuid.hex()
    return bytes([len(body) + 1, 0xFF]) + body, \
        {"type": "ibeacon", "uuid": "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:]),
         "major": major, "minor": minor, "measuredPower": power}


def uid_ad(tx, namespace, instance):
    """Eddystone-UID with its two reserved bytes (EDDYSTONE-UID clauses)."""
    body = bytes([0xAA, 0xFE, 0x00, tx & 0xFF]) + namespace + instance + b"\x00\x00"
    return bytes([3, 0x03, 0xAA, 0xFE, len(body) + 1, 0x16]) + body, \
        {"type": "eddystone-uid", "txPower": tx, "namespace": namespace.hex(), "instance": instance.hex(),
         "reserved": "0000"}


def altbeacon_ad(company, beacon_id, power, reserved):
    """AltBeacon (ALTBEACON-2 to ALTBEACON-9)."""
    body = struct.pack("<H", company) + b"\xBE\xAC" + beacon_id + struct.pack("b", power) + bytes([reserved])
    h = beacon_id.hex()
    return bytes([len(body) + 1, 0xFF]) + body, \
        {"type": "altbeacon", "manufacturer": company, "beaconId": h,
         "uuid": "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:32]),
         "major": int(h[32:36], 16), "minor": int(h[36:40], 16), "measuredPower": power, "reserved": reserved}


def name_ad(text):
    """Complete Local Name: a structure no beacon is read from (AD-5)."""
    return bytes([len(text) + 1, 0x09]) + text


def tok(n, length=6):
    return bytes((n * 16 + i) & 0xFF for i in range(length))


UUID1 = bytes.fromhex("e2c56db5dffb48d2b060d0f5a71096e0")
UUID2 = bytes.fromhex("f7826da64fa24e988024bc5b71e0893e")
NS1 = bytes.fromhex("8b0ca750095477cb3e77")
NS2 = bytes.fromhex("00112233445566778899")


def ad(*parts):
    """Join (bytes, beacon) parts and plain bytes into AD data and its beacons, in AD order (AD-4)."""
    data, beacons = b"", []
    for p in parts:
        if isinstance(p, tuple):
            data += p[0]
            beacons.append(p[1])
        else:
            data += p
    return data, beacons


# ------------------------------------------------------------------ HCI packets (H4, indicator first)
def addr(last):
    return bytes([last, 0x00, 0x00, 0xEE, 0xFF, 0xC0])


def event(code, params):
    return bytes([0x04, code, len(params)]) + params


def le_meta(sub, body):
    return event(0x3E, bytes([sub]) + body)


def legacy_reports(*reports):
    """LE Advertising Report event (HCI-ADV-7): reports one after the other."""
    body = bytes([len(reports)])
    for etype, atype, a, data, rssi in reports:
        body += bytes([etype, atype]) + a + bytes([len(data)]) + data + struct.pack("b", rssi)
    return le_meta(0x02, body)


def ext_report(etype, a, sid, data, atype=1, tx=127, rssi=-60, primary=1, secondary=1):
    """One report of an LE Extended Advertising Report event (the table of hci.md)."""
    return struct.pack("<HB6sBBBbbHB6sB", etype, atype, a, primary, secondary, sid, tx, rssi, 0, 0, bytes(6),
                       len(data)) + data


def ext_reports(*reports):
    return le_meta(0x0D, bytes([len(reports)]) + b"".join(reports))


def directed_report(a, target, rssi=-70):
    """LE Directed Advertising Report (HCI-ADV-19)."""
    return le_meta(0x0B, bytes([1, 0x01, 0x01]) + a + bytes([0x01]) + target + struct.pack("b", rssi))


def command(opcode, params):
    return bytes([0x01]) + struct.pack("<HB", opcode, len(params)) + params


def acl(payload):
    return bytes([0x02]) + struct.pack("<HH", 0x0040, len(payload)) + payload


def sco(payload):
    return bytes([0x03]) + struct.pack("<HB", 0x0041, len(payload)) + payload


def iso(payload):
    return bytes([0x05]) + struct.pack("<HH", 0x0060, len(payload)) + payload


ADV_IND, ADV_DIRECT, ADV_SCAN_IND, ADV_NONCONN, SCAN_RSP = 0, 1, 2, 3, 4
COMPLETE, MORE, CUT = 0x00, 0x20, 0x40           # data status bits 5-6 (HCI-EXT-5)


class Rec:
    """A record of a story: a packet and what a conforming decoder makes of it."""

    def __init__(self, kind, packet, outcome, beacons=(), note=""):
        self.kind = kind            # cmd, evt, acl, sco, iso, vendor, monitor (a non-HCI monitor record)
        self.packet = packet        # H4 packet (HCI kinds), or (opcode, payload) for monitor
        self.outcome = outcome      # decoded, ignored, malformed
        self.beacons = list(beacons)
        self.note = note


def hci_story():
    """The HCI story, record by record, with each record's outcome and beacons."""
    s = []
    d, _ = ad(flags_ad(), ibeacon_ad(UUID1, 7, 7, -59))
    s.append(Rec("cmd", command(0x2008, bytes([len(d)]) + d + bytes(31 - len(d))), "ignored",
                 note="LE Set Advertising Data holding an iBeacon: the host's own data (H4-3)"))
    d, b = ad(flags_ad(), token_list(), token_ad(tok(1), -12))
    s.append(Rec("evt", legacy_reports((ADV_IND, 1, addr(1), d, -60)), "decoded", b))
    d1, b1 = ad(flags_ad(), ibeacon_ad(UUID1, 1, 2, -59))
    d2, b2 = ad(flags_ad(), uid_ad(-18, NS1, bytes.fromhex("000000000001")))
    d3, b3 = ad(token_ad(tok(2, 8), 4))
    s.append(Rec("evt", legacy_reports((ADV_NONCONN, 0, addr(2), d1, -61), (ADV_SCAN_IND, 1, addr(3), d2, -62),
                                       (SCAN_RSP, 1, addr(3), d3, 127)), "decoded", b1 + b2 + b3))
    s.append(Rec("evt", event(0x0E, bytes([0x01, 0x08, 0x20, 0x00])), "ignored", note="Command Complete"))
    d, b = ad(flags_ad(), token_ad(tok(3, 16), -20), uid_ad(-10, NS2, bytes.fromhex("0000000000ff")))
    s.append(Rec("evt", ext_reports(ext_report(COMPLETE, addr(4), 0, d, tx=-7, secondary=2)), "decoded", b))
    # Chain X (SID 1, two reports) and chain W (SID 2, three reports, split inside structures), interleaved.
    x1, bx1 = ad(flags_ad(), token_ad(tok(4, 12), -8))
    x2, bx2 = ad(ibeacon_ad(UUID2, 100, 200, -65))
    w, bw = ad(uid_ad(-18, NS1, bytes.fromhex("0000000000aa")), altbeacon_ad(0x0118, bytes(range(20)), -59, 9),
               token_ad(tok(5), -30), name_ad(b"systematic-w"))
    w1, w2, w3 = w[:20], w[20:50], w[50:]
    s.append(Rec("evt", ext_reports(ext_report(MORE, addr(5), 1, x1)), "decoded", note="fragment 1 of chain X"))
    s.append(Rec("evt", ext_reports(ext_report(MORE, addr(6), 2, w1)), "decoded", note="fragment 1 of chain W"))
    s.append(Rec("evt", ext_reports(ext_report(COMPLETE, addr(5), 1, x2)), "decoded", bx1 + bx2,
                 note="chain X completed (HCI-EXT-8)"))
    s.append(Rec("acl", acl(bytes.fromhex("0b0000000102030405060708")), "ignored"))
    s.append(Rec("evt", ext_reports(ext_report(MORE, addr(6), 2, w2)), "decoded", note="fragment 2 of chain W"))
    s.append(Rec("evt", ext_reports(ext_report(COMPLETE, addr(6), 2, w3)), "decoded", bw,
                 note="chain W completed over three reports"))
    d, b = ad(flags_ad(), ibeacon_ad(UUID1, 3, 4, -56))
    s.append(Rec("evt", legacy_reports((ADV_IND, 0, addr(7), b"", -70), (ADV_IND, 0, addr(8), d, -71)),
                 "decoded", b, note="a report without AD data, then an iBeacon"))
    d, b = ad(flags_ad(), token_ad(tok(6), 0))
    y1, by1 = ad(flags_ad(), token_ad(tok(7, 10), -4))
    s.append(Rec("evt", ext_reports(ext_report(0x13, addr(9), 0xFF, d), ext_report(MORE, addr(10), 3, y1)),
                 "decoded", b, note="a legacy ADV_IND in an extended report, and fragment 1 of chain Y"))
    y2, by2 = ad(name_ad(b"cut-short"))
    s.append(Rec("evt", ext_reports(ext_report(CUT, addr(10), 3, y2)), "decoded", by1 + by2,
                 note="chain Y cut short by the controller (data status 2, HCI-EXT-9)"))
    s.append(Rec("evt", directed_report(addr(11), bytes.fromhex("112233445566")), "decoded",
                 note="directed report: an advertisement without AD data"))
    s.append(Rec("evt", le_meta(0x03, bytes.fromhex("00400018000000c800")), "ignored",
                 note="LE Connection Update Complete"))
    s.append(Rec("sco", sco(bytes(8)), "ignored"))
    s.append(Rec("vendor", bytes.fromhex("ff0102030405"), "ignored"))
    d, b = ad(token_ad(tok(8), -2))
    s.append(Rec("evt", ext_reports(ext_report(0x000A, addr(12), 4, d)), "decoded", b,
                 note="an extended scan response (EXT_SCAN_RSP)"))
    d, b = ad(flags_ad(), ibeacon_ad(UUID2, 65535, 0, -100))
    s.append(Rec("evt", legacy_reports((0x07, 1, addr(13), d, -80)), "decoded", b,
                 note="reserved event type 7 (HCI-ADV-10)"))
    s.append(Rec("iso", iso(bytes(6)), "ignored"))
    return s


HCI_CLAUSES = ["H4-1", "H4-2", "H4-3", "H4-4", "HCI-ADV-1", "HCI-ADV-5", "HCI-ADV-6", "HCI-ADV-7", "HCI-ADV-8",
               "HCI-ADV-10", "HCI-ADV-11", "HCI-ADV-13", "HCI-ADV-18", "HCI-ADV-19", "HCI-EXT-1", "HCI-EXT-2",
               "HCI-EXT-3", "HCI-EXT-4", "HCI-EXT-5", "HCI-EXT-6", "HCI-EXT-7", "HCI-EXT-8", "HCI-EXT-9",
               "AD-1", "AD-4", "AD-5", "AD-13", "RECORDS-3", "RECORDS-4", "RECORDS-5", "RECORDS-6"]
HCI_FLAGS = ["ExtendedReport", "ChainedReport", "MultipleStructures", "ScanResponse", "UnknownType"]


# ------------------------------------------------------------------ the link layer
ADV_AA = 0x8E89BED6


def ble_crc(pdu, init=0x555555):
    """LL-5: the 24-bit CRC over header and payload, bits in air order; returned as the three
    octets as they went on air."""
    crc = init
    for byte in pdu:
        for i in range(8):
            bit = (byte >> i) & 1
            fb = ((crc >> 23) & 1) ^ bit
            crc = (crc << 1) & 0xFFFFFF
            if fb:
                crc ^= 0x00065B
    rev = 0
    for i in range(24):
        rev |= ((crc >> i) & 1) << (23 - i)
    return rev.to_bytes(3, "little")


def ll_packet(pdu_type, payload, txadd=1, rxadd=0, aa=ADV_AA):
    pdu = bytes([pdu_type | (txadd << 6) | (rxadd << 7), len(payload)]) + payload
    crc = ble_crc(pdu) if aa == ADV_AA else bytes.fromhex("a5c33c")
    return struct.pack("<I", aa) + pdu + crc


class Air:
    """An air record: an LL packet, its channel index and RSSI, its outcome and beacons; or an
    nRF Sniffer control packet (kind 'control')."""

    def __init__(self, packet, channel, rssi, outcome, beacons=(), kind="air"):
        self.packet, self.channel, self.rssi, self.outcome = packet, channel, rssi, outcome
        self.beacons, self.kind = list(beacons), kind


def air_story():
    s = []
    d, b = ad(flags_ad(), ibeacon_ad(UUID1, 10, 20, -59))
    s.append(Air(ll_packet(2, addr(21) + d), 37, -50, "decoded", b))
    d, b = ad(flags_ad(), token_list(), token_ad(tok(9), -16))
    s.append(Air(ll_packet(0, addr(22) + d), 38, -51, "decoded", b))
    s.append(Air(ll_packet(3, bytes.fromhex("665544332211") + addr(22)), 38, -52, "ignored"))      # SCAN_REQ
    d, b = ad(uid_ad(-18, NS2, bytes.fromhex("000000000022")))
    s.append(Air(ll_packet(4, addr(22) + d), 38, -53, "decoded", b))                                 # SCAN_RSP
    s.append(Air(ll_packet(1, bytes.fromhex("0e0100a5a5a5"), aa=0x50654C8A), 5, -54, "ignored"))   # data channel
    d, b = ad(altbeacon_ad(0x004C, bytes(range(100, 120)), -60, 0))
    s.append(Air(ll_packet(6, addr(23) + d), 39, -55, "decoded", b))                                 # ADV_SCAN_IND
    s.append(Air(ll_packet(1, addr(24) + bytes.fromhex("112233445566"), rxadd=0), 37, -56, "decoded"))
    s.append(Air(ll_packet(5, bytes.fromhex("665544332211") + addr(25) + bytes(22)), 37, -57, "ignored"))
    s.append(Air(ll_packet(7, bytes.fromhex("0618011025000000"), txadd=0), 37, -58, "ignored"))     # ADV_EXT_IND
    d, b = ad(token_ad(tok(10), -1), token_ad(tok(11), -2))
    s.append(Air(ll_packet(2, addr(26) + d), 39, -59, "decoded", b))
    s.append(Air(bytes.fromhex("0a01250000000000000000"), 0, 0, "ignored", kind="control"))
    s.append(Air(ll_packet(0, addr(27)), 37, -60, "decoded"))                                        # no AD data
    return s


AIR_CLAUSES = ["LL-1", "LL-2", "LL-5", "LL-8", "LL-9", "LL-10", "LL-11", "AD-1", "AD-4", "AD-5", "AD-7",
               "RECORDS-3", "RECORDS-4", "RECORDS-5", "RECORDS-6"]
AIR_FLAGS = ["LinkLayer", "ScanResponse", "MultipleStructures"]


# ------------------------------------------------------------------ record bodies by link type
def h4_kind(kind):
    return kind in ("cmd", "evt", "acl", "sco", "iso", "vendor")


def body_187(r):
    return r.packet


def body_201(r):
    received = r.kind in ("evt", "acl", "sco", "iso", "vendor")
    return struct.pack(">I", 1 if received else 0) + r.packet


MON_OPCODE = {"cmd": 2, "evt": 3, "acl": 5, "sco": 7, "iso": 19}


def monitor_payload(r):
    if r.kind == "monitor":
        return r.packet
    return MON_OPCODE[r.kind], r.packet[1:]


def body_254(r):
    op, payload = monitor_payload(r)
    return struct.pack(">HH", 0, op) + payload


def monitor_records(story):
    """The story as a monitor sees it: a New Index record first, a system note in place of the
    vendor packet (MONITOR-4)."""
    out = [Rec("monitor", (0, bytes([0x00, 0x01]) + bytes.fromhex("0a0000eeffc0") + b"hci0\0\0\0\0"),
               "ignored", note="New Index")]
    for r in story:
        if r.kind == "vendor":
            out.append(Rec("monitor", (12, b"systematic note\0"), "ignored", note="system note"))
        else:
            out.append(r)
    return out


def nrf_body(a, version, counter):
    """LINKTYPE 272 (NRF-1, NRF-4): header, event packet, LL packet."""
    if a.kind == "control":
        payload = a.packet
        pid = 0x0E
    else:
        ev = bytes([10, 0x01, a.channel, (-a.rssi) & 0xFF]) + struct.pack("<HI", counter, 0x10203040 + counter)
        payload = ev + a.packet
        if version == 3:
            pid = 0x06 if struct.unpack_from("<I", a.packet)[0] != ADV_AA else 0x02
        else:
            pid = 0x06
    if version == 1:
        header = bytes([0x01, 6, len(payload), 1]) + struct.pack("<H", counter) + bytes([pid])
    else:
        header = bytes([0x01]) + struct.pack("<H", len(payload)) + bytes([version]) + struct.pack("<H", counter) + \
            bytes([pid])
    return header + payload


def rf_channel(index):
    """LL-15's mapping, backwards: the RF channel of a link-layer channel index."""
    return {37: 0, 38: 12, 39: 39}.get(index, index + 1 if index <= 10 else index + 2)


def le_phdr_body(a):
    phdr = bytes([rf_channel(a.channel), a.rssi & 0xFF, (-95) & 0xFF, 0]) + struct.pack("<IH", ADV_AA, 0x0C07)
    return phdr + a.packet


# ------------------------------------------------------------------ containers
def pcap_file(endian, nano, linktype, bodies, snaplen=262144, times=None):
    e = "<" if endian == "le" else ">"
    out = struct.pack(e + "IHHiIII", 0xA1B23C4D if nano else 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype)
    for i, body in enumerate(bodies):
        sec, frac = times[i] if times else (BASE + i, (987654321 if nano else 987654) - i)
        out += struct.pack(e + "IIII", sec, frac, len(body), len(body)) + body
    return out


def pad4(b):
    return b + bytes(-len(b) % 4)


def block(e, btype, body):
    body = pad4(body)
    return struct.pack(e + "II", btype, len(body) + 12) + body + struct.pack(e + "I", len(body) + 12)


def shb(e):
    return block(e, 0x0A0D0D0A, struct.pack(e + "IHHq", 0x1A2B3C4D, 1, 0, -1))


def idb(e, linktype, tsresol=None, tsoffset=None, snaplen=0):
    opts = b""
    if tsresol is not None:
        opts += struct.pack(e + "HH", 9, 1) + bytes([tsresol, 0, 0, 0])
    if tsoffset is not None:
        opts += struct.pack(e + "HHq", 14, 8, tsoffset)
    if opts:
        opts += struct.pack(e + "HH", 0, 0)
    return block(e, 1, struct.pack(e + "HHI", linktype, 0, snaplen) + opts)


def epb(e, iface, ts, body):
    return block(e, 6, struct.pack(e + "IIIII", iface, ts >> 32, ts & 0xFFFFFFFF, len(body), len(body)) + body)


def spb(e, body):
    return block(e, 3, struct.pack(e + "I", len(body)) + body)


def obsolete_pb(e, iface, ts, body):
    return block(e, 2, struct.pack(e + "HHIIII", iface, 0, ts >> 32, ts & 0xFFFFFFFF, len(body), len(body)) + body)


def pcapng_file(endian, linktype, bodies):
    e = "<" if endian == "le" else ">"
    out = shb(e) + idb(e, linktype)
    for i, body in enumerate(bodies):
        out += epb(e, 0, (BASE + i) * 1000000 + 123456, body)
    return out


def btsnoop_file(datalink, recs, times=None, drops=None):
    """recs: (flags, payload) pairs."""
    out = b"btsnoop\0" + struct.pack(">II", 1, datalink)
    for i, (flags, payload) in enumerate(recs):
        ts = times[i] if times else (BASE + i) * 1000000 + 250000 + BTSNOOP_EPOCH
        out += struct.pack(">IIIIq", len(payload), len(payload), flags, drops[i] if drops else 0, ts) + payload
    return out


def btsnoop_hci_records(story, datalink):
    """Records of the HCI story under datalink 1001, 1002 or 2001 (BTSNOOP-5, BTSNOOP-6, H4-9)."""
    recs, kept = [], []
    for r in (monitor_records(story) if datalink == 2001 else story):
        if datalink == 2001:
            op, payload = monitor_payload(r)
            recs.append((op, payload))
        elif datalink == 1002:
            direction = 0 if r.kind == "cmd" else 1
            kind = 1 if r.kind in ("cmd", "evt") else 0
            recs.append((direction | kind << 1, r.packet))
        else:
            if r.kind == "vendor":
                continue
            direction = 0 if r.kind == "cmd" else 1
            kind = 1 if r.kind in ("cmd", "evt") else 0
            recs.append((direction | kind << 1, r.packet[1:]))
        kept.append(r)
    return recs, kept


def hex_text(story, style="plain"):
    lines = []
    for i, r in enumerate(story, 1):
        h = r.packet.hex()
        if style == "plain":
            lines.append("pkt%d\t%s" % (i, " ".join(h[j:j + 2] for j in range(0, len(h), 2))))
    return ("\n".join(lines) + "\n").encode()


# ------------------------------------------------------------------ vectors
VECTORS_OUT = []


def expectation(records, extra=None):
    beacons, counts = [], {"decoded": 0, "ignored": 0, "malformed": 0}
    for n, r in enumerate(records, 1):
        counts[r.outcome] += 1
        beacons += [dict(b, record=n) for b in r.beacons]
    out = {"beacons": beacons, "records": {"read": len(records), **counts}}
    if extra:
        out["records"].update(extra)
    return out


def add(name, file, data, description, clauses, flags, expect, source="hand"):
    path = os.path.join(OUT, file)
    with open(path, "wb") as f:
        f.write(data)
    verdict = "invalid" if expect["records"]["malformed"] > 0 else "valid"
    v = {"id": "capture/systematic/" + name, "kind": "capture", "description": description,
         "clauses": sorted(set(clauses), key=clause_key), "flags": sorted(set(flags)), "source": source,
         "verdict": verdict, "capture": REL + file, "expect": expect}
    assert not any(x["id"] == v["id"] for x in VECTORS_OUT), v["id"]
    VECTORS_OUT.append(v)


ORDER = ["RECORDS", "PCAP", "PCAPNG", "BTSNOOP", "HEXTEXT", "DAMAGE", "H4", "MONITOR", "LL", "NRF", "HCI-ADV",
         "HCI-EXT", "AD", "TOKEN", "IBEACON", "ALTBEACON", "EDDYSTONE-UID"]


def clause_key(c):
    prefix, num = c.rsplit("-", 1)
    return (ORDER.index(prefix) if prefix in ORDER else len(ORDER), prefix, int(num))


BEACON_CLAUSES = ["TOKEN-1", "TOKEN-18", "IBEACON-2", "ALTBEACON-2", "EDDYSTONE-UID-1"]

LINK = {187: ("H4", ["PCAP-3", "H4-7"]), 201: ("H4 with direction", ["PCAP-3", "H4-8"]),
        254: ("Linux monitor", ["PCAP-3", "MONITOR-1", "MONITOR-3", "MONITOR-4"]),
        251: ("LE link layer", ["PCAP-3", "LL-17"]), 256: ("LE link layer with pseudo-header",
                                                          ["PCAP-3", "LL-13", "LL-14", "LL-15"]),
        272: ("nRF Sniffer", ["PCAP-3", "NRF-1", "NRF-3", "NRF-4", "NRF-5", "NRF-6"])}


def hci_bodies(story, linktype):
    recs = monitor_records(story) if linktype == 254 else story
    body = {187: body_187, 201: body_201, 254: body_254}[linktype]
    return [body(r) for r in recs], recs


def air_bodies(story, linktype, nrf_version=3):
    recs = [a for a in story if a.kind != "control" or (linktype == 272 and nrf_version == 3)]
    if linktype == 251:
        return [a.packet for a in recs], recs
    if linktype == 256:
        return [le_phdr_body(a) for a in recs], recs
    return [nrf_body(a, nrf_version, i) for i, a in enumerate(recs)], recs


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    hci, air = hci_story(), air_story()

    # --- classic pcap: both byte orders, both magics, every link type.
    for endian in ("le", "be"):
        for nano in (False, True):
            unit = "ns" if nano else "us"
            for lt in (187, 201, 254, 251, 256, 272):
                version = {("le", False): 3, ("le", True): 2, ("be", False): 1, ("be", True): 3}[(endian, nano)]
                if lt in (187, 201, 254):
                    bodies, recs = hci_bodies(hci, lt)
                    base_cl, base_fl, story = HCI_CLAUSES, HCI_FLAGS, "HCI story"
                else:
                    bodies, recs = air_bodies(air, lt, version)
                    base_cl, base_fl, story = AIR_CLAUSES, AIR_FLAGS, "air story"
                cl = base_cl + LINK[lt][1] + ["PCAP-1", "PCAP-4", "PCAP-5", "RECORDS-1"] + BEACON_CLAUSES
                fl = base_fl + (["ByteOrder"] if endian == "be" else []) + (["TimestampPrecision"] if nano else [])
                extra = ""
                if lt == 272:
                    cl += ["NRF-7"] if version == 3 else []
                    extra = ", nRF Sniffer protocol version %d" % version
                name = "pcap-%s-%s-%d" % (endian, unit, lt)
                add(name, name + ".pcap", pcap_file(endian, nano, lt, bodies),
                    "The %s in classic pcap, %s-endian with the %s magic, LINKTYPE %d (%s%s): every record "
                    "read, each beacon at its record, the records counted decoded or ignored."
                    % (story, "little" if endian == "le" else "big", "microsecond" if not nano else "nanosecond",
                       lt, LINK[lt][0], extra), cl, fl, expectation(recs))

    # --- pcapng, one interface: both byte orders, every link type.
    for endian in ("le", "be"):
        for lt in (187, 201, 254, 251, 256, 272):
            version = 3 if endian == "le" else 1
            if lt in (187, 201, 254):
                bodies, recs = hci_bodies(hci, lt)
                base_cl, base_fl, story = HCI_CLAUSES, HCI_FLAGS, "HCI story"
            else:
                bodies, recs = air_bodies(air, lt, version)
                base_cl, base_fl, story = AIR_CLAUSES, AIR_FLAGS, "air story"
            cl = base_cl + LINK[lt][1] + ["PCAPNG-1", "PCAPNG-3", "PCAPNG-4", "PCAPNG-5", "RECORDS-1"] + BEACON_CLAUSES
            fl = base_fl + (["ByteOrder"] if endian == "be" else [])
            name = "pcapng-%s-%d" % (endian, lt)
            add(name, name + ".pcapng", pcapng_file(endian, lt, bodies),
                "The %s in pcapng, %s-endian, one interface of LINKTYPE %d (%s%s), microsecond timestamps: "
                "every record read, each beacon at its record." % (
                    story, "little" if endian == "le" else "big", lt, LINK[lt][0],
                    ", nRF Sniffer protocol version %d" % version if lt == 272 else ""), cl, fl, expectation(recs))

    # --- btsnoop: datalinks 1001, 1002, 2001.
    for dl, what, cl in ((1001, "HCI packets without indicator, the kind in the flags", ["H4-9", "BTSNOOP-5"]),
                         (1002, "H4 packets", ["H4-7", "BTSNOOP-5"]),
                         (2001, "Linux monitor records, the opcode in the flags",
                          ["BTSNOOP-6", "MONITOR-2", "MONITOR-3", "MONITOR-4"])):
        recs, kept = btsnoop_hci_records(hci, dl)
        add("btsnoop-%d" % dl, "hci-%d.btsnoop" % dl, btsnoop_file(dl, recs),
            "The HCI story in btsnoop datalink %d (%s): every record read, each beacon at its record, commands, "
            "data and other events ignored." % (dl, what),
            HCI_CLAUSES + cl + ["BTSNOOP-2", "BTSNOOP-3", "BTSNOOP-4", "RECORDS-1"] + BEACON_CLAUSES, HCI_FLAGS,
            expectation(kept))

    # --- hex text.
    add("hex-text", "hci.txt", hex_text(hci),
        "The HCI story as hex text, one labelled H4 packet per line: every line a record, each beacon at its line.",
        HCI_CLAUSES + ["HEXTEXT-1", "HEXTEXT-2", "HEXTEXT-3", "HEXTEXT-4", "H4-7", "RECORDS-1"] + BEACON_CLAUSES,
        HCI_FLAGS, expectation(hci))

    d1, b1 = ad(flags_ad(), token_ad(tok(12), -12))
    d2, b2 = ad(flags_ad(), ibeacon_ad(UUID1, 9, 9, -40))
    e1 = legacy_reports((ADV_IND, 1, addr(31), d1, -60))
    e2 = legacy_reports((ADV_NONCONN, 0, addr(32), d2, -61))
    h1, h2 = e1.hex(), e2.hex()
    lines = [
        "# hcidump --raw, pasted from a bug report\r",
        "\r",
        "   \t\r",
        "a\t" + ":".join(h1[j:j + 2] for j in range(0, len(h1), 2)) + "\tnote: colons\r",
        "# a comment between packets",
        "b\t" + "-".join(h2[j:j + 2] for j in range(0, len(h2), 2)),
        "  " + " ".join(h1[j:j + 2] for j in range(0, len(h1), 2)) + "  ",
        "cafe\t" + h2,
        "label only, no packet",
        "c\t" + h2.upper(),
    ]
    recs = [Rec("evt", e1, "decoded", b1), Rec("evt", e2, "decoded", b2), Rec("evt", e1, "decoded", b1),
            Rec("evt", b"", "malformed"), Rec("evt", b"", "malformed"), Rec("evt", e2, "decoded", b2)]
    add("hex-text-quirks", "hci-quirks.txt", ("\n".join(lines) + "\n").encode(),
        "Hex text with a comment, a blank line and a line of blanks before the first packet, CRLF endings, octets "
        "separated by colons, dashes or spaces, a line without a label, upper-case digits, a label made of hex "
        "pairs (taken for the packet: indicator CA, h4/invalid-value) and a line with no hex field "
        "(hex-text/invalid-value): six records, two malformed.",
        ["HEXTEXT-1", "HEXTEXT-2", "HEXTEXT-3", "HEXTEXT-4", "HEXTEXT-5", "H4-5", "H4-7", "DAMAGE-15",
         "RECORDS-1", "RECORDS-3", "RECORDS-4", "RECORDS-7", "HCI-ADV-7"] + BEACON_CLAUSES[:2],
        ["Damage", "UnknownType"], expectation(recs, {"skippedBytes": 0, "resynchronizations": 0}))

    # --- pcapng: several interfaces of one link type and different timestamp resolutions.
    for endian in ("le", "be"):
        e = "<" if endian == "le" else ">"
        evs = []
        for i, (n, length, kind) in enumerate(((13, 6, "token"), (14, 16, "token"), (0, 0, "uid"), (15, 8, "token"))):
            if kind == "uid":
                d, b = ad(uid_ad(-18, NS1, bytes.fromhex("000000000033")))
            else:
                d, b = ad(flags_ad(), token_ad(tok(n, length), -12 + i))
            evs.append((struct.pack(">I", 1) + legacy_reports((ADV_IND, 1, addr(41 + i), d, -60)), b))
        cmd = struct.pack(">I", 0) + command(0x0C03, b"")
        t = BASE + 10
        blocks = [shb(e),
                  idb(e, 201, tsresol=9),                          # 0: ns
                  idb(e, 201, tsresol=0x80 | 20),                  # 1: 2^-20 s
                  block(e, 4, struct.pack(e + "HH", 0, 0)),        # name resolution, passed over
                  idb(e, 201, tsresol=3, tsoffset=BASE),           # 2: ms after an offset
                  idb(e, 201),                                     # 3: µs
                  epb(e, 0, t * 10 ** 9 + 123456789, evs[0][0]),
                  epb(e, 1, (t + 1) << 20 | 12345, evs[1][0]),
                  epb(e, 2, 2500, evs[2][0]),
                  epb(e, 3, (t + 3) * 10 ** 6, cmd),
                  block(e, 5, struct.pack(e + "III", 3, 0, 0)),    # interface statistics, passed over
                  (spb(e, evs[3][0]) if endian == "le" else obsolete_pb(e, 0, (t + 4) * 10 ** 9, evs[3][0]))]
        recs = [Rec("evt", b"", "decoded", evs[0][1]), Rec("evt", b"", "decoded", evs[1][1]),
                Rec("evt", b"", "decoded", evs[2][1]), Rec("cmd", b"", "ignored"),
                Rec("evt", b"", "decoded", evs[3][1])]
        name = "pcapng-%s-four-interfaces" % endian
        add(name, name + ".pcapng", b"".join(blocks),
            "A %s-endian pcapng section with four LINKTYPE 201 interfaces whose timestamps are in nanoseconds, "
            "2^-20 s, milliseconds after an if_tsoffset, and microseconds, a name resolution and a statistics "
            "block passed over, and %s: each packet read through the interface it names."
            % ("little" if endian == "le" else "big",
               "a Simple Packet Block (interface 0)" if endian == "le" else "an obsolete Packet Block"),
            ["PCAPNG-1", "PCAPNG-3", "PCAPNG-4", "PCAPNG-5", "PCAPNG-10", "PCAP-3", "H4-8", "H4-3", "HCI-ADV-7",
             "RECORDS-4", "RECORDS-5", "RECORDS-6", "RECORDS-1"] + BEACON_CLAUSES
            + (["PCAPNG-7"] if endian == "le" else ["PCAPNG-8"]),
            ["TimestampPrecision"] + (["ByteOrder"] if endian == "be" else []), expectation(recs))

    # --- pcapng: interfaces of different link types in one section (PCAPNG-3).
    e = "<"
    d1, b1 = ad(flags_ad(), token_ad(tok(13), -12))
    ev = legacy_reports((ADV_IND, 1, addr(41), d1, -60))
    d2, b2 = ad(flags_ad(), ibeacon_ad(UUID2, 1, 1, -59))
    ll = ll_packet(2, addr(42) + d2)
    d3, b3 = ad(uid_ad(-18, NS1, bytes.fromhex("000000000033")))
    ev3 = legacy_reports((ADV_IND, 1, addr(43), d3, -62))
    blocks = [shb(e), idb(e, 201), idb(e, 254), idb(e, 256), idb(e, 1),
              epb(e, 0, BASE * 10 ** 6, struct.pack(">I", 1) + ev),
              epb(e, 1, BASE * 10 ** 6 + 1, struct.pack(">HH", 0, 3) + ev3[1:]),
              epb(e, 2, BASE * 10 ** 6 + 2, le_phdr_body(Air(ll, 38, -45, "decoded"))),
              epb(e, 3, BASE * 10 ** 6 + 3, bytes(14)),
              epb(e, 1, BASE * 10 ** 6 + 4, struct.pack(">HH", 0, 2) + command(0x0C03, b"")[1:])]
    recs = [Rec("evt", b"", "decoded", b1), Rec("evt", b"", "decoded", b3), Rec("evt", b"", "decoded", b2),
            Rec("evt", b"", "ignored"), Rec("cmd", b"", "ignored")]
    add("pcapng-le-mixed-link-types", "pcapng-le-mixed-link-types.pcapng", b"".join(blocks),
        "One pcapng section with four interfaces of different link types (201, 254, 256 and Ethernet): each "
        "packet is read by the link type of the interface it names, the Ethernet packet ignored as "
        "unsupported-encapsulation.",
        ["PCAPNG-3", "PCAP-3", "H4-8", "MONITOR-1", "MONITOR-3", "MONITOR-4", "LL-13", "LL-15", "HCI-ADV-7",
         "RECORDS-4", "RECORDS-5", "RECORDS-6"] + BEACON_CLAUSES,
        ["UnknownType", "LinkLayer"], expectation(recs))

    # --- pcapng: two sections of opposite byte orders; two sections of different link types.
    d1, b1 = ad(flags_ad(), token_ad(tok(15), -5))
    d2, b2 = ad(flags_ad(), token_ad(tok(15, 8), -6))
    ev1 = struct.pack(">I", 1) + legacy_reports((ADV_IND, 1, addr(51), d1, -60))
    ev2 = struct.pack(">I", 1) + legacy_reports((ADV_IND, 1, addr(52), d2, -61))
    data = (shb("<") + idb("<", 201) + epb("<", 0, BASE * 10 ** 6, ev1) +
            shb(">") + idb(">", 201, tsresol=6) + idb(">", 201, tsresol=9) +
            epb(">", 1, BASE * 10 ** 9 + 5000, ev1) + epb(">", 0, BASE * 10 ** 6 + 9, ev2))
    recs = [Rec("evt", b"", "decoded", b1), Rec("evt", b"", "decoded", b1), Rec("evt", b"", "decoded", b2)]
    add("pcapng-two-sections-both-orders", "pcapng-two-sections-both-orders.pcapng", data,
        "A little-endian section with one interface, then a big-endian section with two (all LINKTYPE 201): "
        "each section read in its own byte order, its interfaces numbered from 0 afresh, records numbered on "
        "across sections.", ["PCAPNG-1", "PCAPNG-2", "PCAPNG-3", "PCAPNG-4", "H4-8", "RECORDS-3", "RECORDS-4",
                             "RECORDS-5"] + BEACON_CLAUSES[:1], ["ByteOrder"], expectation(recs))
    data = (shb("<") + idb("<", 201) + epb("<", 0, BASE * 10 ** 6, ev1) +
            shb("<") + idb("<", 187) + epb("<", 0, BASE * 10 ** 6 + 9, ev2[4:]))
    recs = [Rec("evt", b"", "decoded", b1), Rec("evt", b"", "decoded", b2)]
    add("pcapng-two-sections-link-types", "pcapng-two-sections-link-types.pcapng", data,
        "Two little-endian sections whose interface 0 is LINKTYPE 201 in the first and 187 in the second: the "
        "second section's packet is read as its own interface 0 says (H4 without direction).",
        ["PCAPNG-2", "PCAPNG-3", "H4-7", "H4-8", "RECORDS-3", "RECORDS-4", "RECORDS-5"] + BEACON_CLAUSES[:1], [],
        expectation(recs))

    # --- an nRF Sniffer control packet as short as the sniffer sends them (NRF-7).
    d, b = ad(flags_ad(), token_ad(tok(19), -9))
    story = [Air(ll_packet(2, addr(71) + d), 37, -50, "decoded", b),
             Air(bytes.fromhex("0403"), 0, 0, "ignored", kind="control"),
             Air(ll_packet(2, addr(71) + d), 38, -51, "decoded", b)]
    add("pcap-le-us-272-short-control-packet", "pcap-le-us-272-short-control-packet.pcap",
        pcap_file("le", False, 272, [nrf_body(a, 3, i) for i, a in enumerate(story)]),
        "nRF Sniffer protocol version 3: a control packet (packet id 0x0E) of two payload octets between two "
        "advertising packets: not from the air, so ignored as nordic-control, its payload never read as an "
        "event packet.", ["NRF-1", "NRF-3", "NRF-7", "PCAP-3", "LL-1", "LL-8", "RECORDS-4", "RECORDS-6"]
        + BEACON_CLAUSES[:1], ["LinkLayer"], expectation(story))

    # --- link types and datalinks the reader does not take (PCAP-3, BTSNOOP-2).
    bodies, recs = hci_bodies(hci, 187)
    add("pcap-le-us-ethernet", "pcap-le-us-ethernet.pcap", pcap_file("le", False, 1, bodies[:4]),
        "The first four records of the HCI story under LINKTYPE 1 (Ethernet), which this project does not read: "
        "each record ignored as unsupported-encapsulation, none malformed, no beacon.",
        ["PCAP-3", "RECORDS-4", "RECORDS-6"], ["UnknownType"],
        expectation([Rec("evt", b"", "ignored")] * 4))
    recs, kept = btsnoop_hci_records(hci[:4], 1002)
    add("btsnoop-1003", "hci-1003.btsnoop", btsnoop_file(1003, recs),
        "The first four records of the HCI story under btsnoop datalink 1003 (BCSP), which this project does "
        "not read: each ignored as unsupported-encapsulation.", ["BTSNOOP-2", "RECORDS-4", "RECORDS-6"],
        ["UnknownType"], expectation([Rec("evt", b"", "ignored")] * 4))

    # --- chains cut by the end of the capture (HCI-EXT-12).
    d0, b0 = ad(flags_ad(), token_ad(tok(16), -12))
    z, bz = ad(flags_ad(), uid_ad(-18, NS2, bytes.fromhex("000000000044")), token_ad(tok(17, 12), -3))
    z1, z2 = z[:25], z[25:]
    story = [Rec("evt", legacy_reports((ADV_IND, 1, addr(61), d0, -60)), "decoded", b0),
             Rec("evt", ext_reports(ext_report(MORE, addr(62), 6, z1)), "decoded"),
             Rec("evt", ext_reports(ext_report(MORE, addr(62), 6, z2)), "malformed", bz)]
    add("pcap-le-us-201-chain-cut-by-end", "pcap-le-us-201-chain-cut-by-end.pcap",
        pcap_file("le", False, 201, [body_201(r) for r in story]),
        "A token, then a chain of two extended reports of data status 1 that the capture ends before completing: "
        "the chain is delivered at the end with what it holds (a UID and a token, at record 3, the last "
        "fragment's), and record 3 is malformed (ext-adv-report/incomplete-chain) while record 2 stays decoded.",
        ["HCI-EXT-6", "HCI-EXT-7", "HCI-EXT-8", "HCI-EXT-12", "H4-8", "PCAP-1", "RECORDS-4", "RECORDS-5",
         "RECORDS-7"] + BEACON_CLAUSES[:1] + ["EDDYSTONE-UID-1"],
        ["ExtendedReport", "ChainedReport", "Truncated"], expectation(story))
    recs, kept = btsnoop_hci_records(story, 2001)
    add("btsnoop-2001-chain-cut-by-end", "hci-2001-chain-cut-by-end.btsnoop", btsnoop_file(2001, recs),
        "The same cut chain under btsnoop datalink 2001, after a New Index record: delivered at the end at the "
        "record of its last fragment, which is malformed.",
        ["HCI-EXT-6", "HCI-EXT-8", "HCI-EXT-12", "MONITOR-2", "MONITOR-3", "MONITOR-4", "BTSNOOP-6", "RECORDS-4",
         "RECORDS-7"] + BEACON_CLAUSES[:1] + ["EDDYSTONE-UID-1"],
        ["ExtendedReport", "ChainedReport", "Truncated"], expectation(kept))

    # A chain cut short by the controller (status 2) inside an AD structure: AD-3 in the joined data.
    a1, ba1 = ad(flags_ad(), token_ad(tok(18), -12))
    a2 = ibeacon_ad(UUID1, 5, 6, -59)[0]
    story = [Rec("evt", ext_reports(ext_report(MORE, addr(63), 7, a1 + a2[:10])), "decoded"),
             Rec("evt", ext_reports(ext_report(CUT, addr(63), 7, a2[10:20])), "malformed", ba1)]
    add("hex-text-chain-cut-inside-structure", "chain-cut-inside-structure.txt", hex_text(story),
        "A chain whose second report has data status 2 (cut short by the controller) and ends inside an iBeacon "
        "structure: the advertisement is delivered with the data that arrived, marked truncated; the token "
        "before the cut structure is decoded, and the structure that runs past the data is ad/length-overrun, "
        "so record 2 is malformed.",
        ["HCI-EXT-6", "HCI-EXT-8", "HCI-EXT-9", "AD-3", "RECORDS-7", "RECORDS-8", "RECORDS-4", "HEXTEXT-4",
         "TOKEN-18"], ["ExtendedReport", "ChainedReport", "Truncated"],
        expectation(story))

    # --- damage the existing set lacks (docs/damaged-captures.md).
    damage(hci)

    doc = {"vectorFile": 1,
           "description": "Capture vectors over Captures/systematic/: two stories of records in every container "
                          "(pcap of both byte orders and magics, pcapng, btsnoop, hex text) and every link type "
                          "the reader takes, several interfaces and sections, cut chains and damage; written by "
                          "Scripts/capture-vectors.py from the records it built.",
           "vectors": VECTORS_OUT}
    with open(VECTORS, "w") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print("%d vectors, %d files" % (len(VECTORS_OUT), len(os.listdir(OUT))))


def damage(hci):
    """Each damage at a known record of a 12-record story (btsnoop 1002, 2001 or pcap 201):
    the damaged record is one malformed record, its octets the skipped stretch (DAMAGE-6,
    DAMAGE-8, DAMAGE-11, DAMAGE-16), unless the file ends in it (DAMAGE-13)."""
    story = hci[:12]
    dmg = {"skippedBytes": 0, "resynchronizations": 1}

    def lost(recs, k):
        out = list(recs)
        out[k - 1] = Rec(recs[k - 1].kind, b"", "malformed")
        return out

    # btsnoop 1002: flags 4 (BTSNOOP-5) in record 4's header.
    recs, kept = btsnoop_hci_records(story, 1002)
    data = bytearray(btsnoop_file(1002, recs))
    at = 16 + sum(24 + len(p) for _, p in recs[:3])
    data[at + 11] = 0x04
    add("damaged-btsnoop-flags-4", "damaged-btsnoop-flags-4.btsnoop", bytes(data),
        "Record 4's flags set to 4 under datalink 1002 (only bits 0 and 1 exist): its header is not plausible, "
        "so record 4 is one malformed record, skipped whole, and reading goes on at record 5.",
        ["BTSNOOP-5", "DAMAGE-1", "DAMAGE-2", "DAMAGE-8", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-3",
         "RECORDS-4", "RECORDS-7"], ["Damage", "ReservedBits"],
        expectation(lost(kept, 4), dict(dmg, skippedBytes=24 + len(recs[3][1]))))

    # btsnoop 2001: opcode 0x40 (BTSNOOP-6) in record 6's flags.
    recs, kept = btsnoop_hci_records(story, 2001)
    data = bytearray(btsnoop_file(2001, recs))
    at = 16 + sum(24 + len(p) for _, p in recs[:5])
    data[at + 11] = 0x40
    add("damaged-btsnoop-2001-opcode-0x40", "damaged-btsnoop-2001-opcode-0x40.btsnoop", bytes(data),
        "Record 6's monitor opcode set to 0x40 under datalink 2001 (above 0x3F): not plausible, so record 6 is "
        "one malformed record, skipped whole, and reading goes on at record 7.",
        ["BTSNOOP-6", "DAMAGE-1", "DAMAGE-2", "DAMAGE-8", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-3",
         "RECORDS-4", "RECORDS-7"], ["Damage", "FieldBounds"],
        expectation(lost(kept, 6), dict(dmg, skippedBytes=24 + len(recs[5][1]))))

    # btsnoop 1002: included and original length 0x00100000 (BTSNOOP-8) in record 3.
    recs, kept = btsnoop_hci_records(story, 1002)
    data = bytearray(btsnoop_file(1002, recs))
    at = 16 + sum(24 + len(p) for _, p in recs[:2])
    struct.pack_into(">II", data, at, 0x00100000, 0x00100000)
    add("damaged-btsnoop-length-over-limit", "damaged-btsnoop-length-over-limit.btsnoop", bytes(data),
        "Record 3's original and included lengths both set to 1 MiB, above the 262,144-octet limit: not "
        "plausible, so record 3 is one malformed record, skipped whole, and reading goes on at record 4.",
        ["BTSNOOP-8", "DAMAGE-1", "DAMAGE-2", "DAMAGE-8", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-3",
         "RECORDS-4", "RECORDS-7"], ["Damage", "LengthLie", "FieldBounds"],
        expectation(lost(kept, 3), dict(dmg, skippedBytes=24 + len(recs[2][1]))))

    # pcap 201: original length 128 MiB + 1 (PCAP-10) in record 5.
    bodies = [body_201(r) for r in story]
    data = bytearray(pcap_file("le", False, 201, bodies))
    at = 24 + sum(16 + len(b) for b in bodies[:4])
    struct.pack_into("<I", data, at + 12, 134217729)
    add("damaged-pcap-original-over-128mib", "damaged-pcap-original-over-128mib.pcap", bytes(data),
        "Record 5's original length set to 134,217,729 octets, above 128 MiB: not plausible, so record 5 is one "
        "malformed record, skipped whole, and reading goes on at record 6.",
        ["PCAP-10", "DAMAGE-1", "DAMAGE-3", "DAMAGE-8", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-3",
         "RECORDS-4", "RECORDS-7"], ["Damage", "FieldBounds"],
        expectation(lost(story, 5), dict(dmg, skippedBytes=16 + len(bodies[4]))))

    # pcap 201 (big-endian, ns): the file cut inside the last record's packet octets (PCAP-11).
    data = pcap_file("be", True, 201, bodies)
    cut = len(data) - len(bodies[-1]) + 5
    add("damaged-pcap-cut-in-last-packet", "damaged-pcap-cut-in-last-packet.pcap", data[:cut],
        "A big-endian nanosecond pcap cut 5 octets into record 12's packet: record 12 is malformed (pcap/truncated "
        "at its captured length), and the octets from its header to the end are skipped with no "
        "resynchronisation.",
        ["PCAP-11", "PCAP-1", "DAMAGE-1", "DAMAGE-10", "DAMAGE-13", "DAMAGE-16", "RECORDS-4", "RECORDS-7"],
        ["Damage", "Truncated", "ByteOrder", "TimestampPrecision"],
        expectation(lost(story, 12), {"skippedBytes": 16 + 5, "resynchronizations": 0}))

    # pcapng 201: the file cut inside the last block (PCAPNG-12, truncated).
    bodies = [body_201(r) for r in story]
    data = pcapng_file("le", 201, bodies)
    last = 12 + 16 + 4 + len(pad4(bodies[-1]))
    cut = len(data) - last + 30
    add("damaged-pcapng-cut-in-last-block", "damaged-pcapng-cut-in-last-block.pcapng", data[:cut],
        "A pcapng file cut 30 octets into its last Enhanced Packet Block: the block is malformed (pcap/truncated) "
        "and its octets to the end skipped, with no resynchronisation; records 1 to 11 are read.",
        ["PCAPNG-12", "DAMAGE-14", "DAMAGE-16", "RECORDS-4", "RECORDS-7"], ["Damage", "Truncated"],
        expectation(lost(story, 12), {"skippedBytes": 30, "resynchronizations": 0}))

    # pcapng 201: block 7's total length (both copies) made not a multiple of 4 (PCAPNG-12).
    e = "<"
    blocks = [shb(e), idb(e, 201)] + [epb(e, 0, (BASE + i) * 10 ** 6, b) for i, b in enumerate(bodies)]
    k = 9
    blk = bytearray(blocks[1 + k])
    n = len(blk)
    struct.pack_into("<I", blk, 4, n + 1)
    struct.pack_into("<I", blk, n - 4, n + 1)
    blocks[1 + k] = bytes(blk)
    add("damaged-pcapng-length-not-multiple-of-4", "damaged-pcapng-length-not-multiple-of-4.pcapng",
        b"".join(blocks),
        "Packet block 9's two total lengths both made one more (not a multiple of 4): its framing fails, so it is "
        "skipped with the octets up to the next run of plausible blocks, which starts at packet block 10.",
        ["PCAPNG-12", "DAMAGE-4", "DAMAGE-14", "DAMAGE-16", "RECORDS-4", "RECORDS-7"], ["Damage", "LengthLie"],
        expectation(lost(story, k), dict(dmg, skippedBytes=n)))


if __name__ == "__main__":
    main()
