#!/usr/bin/env python3
"""Write Captures/damaged/ and Vectors/captures/damaged.json: copies of the fixture captures
damaged in one known way each (or written again in a form the formats allow, which must read
as the fixture does; and a few small captures built for one clause each), and capture vectors
whose expected accounting is worked out here from the damage made and the clauses of
docs/spec/containers.md, hci.md and ad-structures.md, never from the tool. Each vector names
the clauses it tests; its source is this script's ground truth ("synthesized"), and its
verdict "invalid" when a record is malformed.

For each damage this script parses the clean fixture itself (btsnoop, classic pcap, pcapng,
hex text), knows which records the damage covers, and derives: the beacons (the clean fixture
vector's, less those of lost records, record numbers moved by the malformed records the
damage adds), the record counts (a record is decoded when it is an HCI event of the LE Meta
kind, ignored otherwise: commands, ACL data and other events), and the bytes skipped and
resynchronisations (one stretch per damage: the damaged record whole, or the inserted bytes,
or the second file's header; a file cut inside its last record skips to its end without a
resynchronisation). Run from anywhere:
    python3 Scripts/damaged-captures.py
"""
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Captures", "fixtures")
OUT = os.path.join(ROOT, "Captures", "damaged")
VECTORS = os.path.join(ROOT, "Vectors", "captures", "damaged.json")


def records(data, kind):
    """(start, end, h4 bytes) of every record of a clean file, in file order."""
    out = []
    if kind == "btsnoop":
        at = 16
        while at < len(data):
            _, incl = struct.unpack_from(">II", data, at)
            out.append((at, at + 24 + incl, data[at + 24:at + 24 + incl]))
            at += 24 + incl
    elif kind == "pcap":
        at = 24
        while at < len(data):
            incl = struct.unpack_from("<I", data, at + 8)[0]
            out.append((at, at + 16 + incl, data[at + 16 + 4:at + 16 + incl]))  # LINKTYPE 201: 4-byte phdr
            at += 16 + incl
    elif kind == "pcapng":
        at = 0
        while at < len(data):
            btype, length = struct.unpack_from("<II", data, at)
            if btype == 6:
                incl = struct.unpack_from("<I", data, at + 20)[0]
                out.append((at, at + length, data[at + 28 + 4:at + 28 + incl]))
            at += length
    else:
        at = 0
        for line in data.split(b"\n")[:-1]:
            end = at + len(line) + 1
            if not line.startswith(b"#"):  # LABEL<TAB>HEX
                out.append((at, end, bytes.fromhex(line.split(b"\t")[-1].decode().replace(" ", ""))))
            at = end
    return out


def decoded(h4):
    """An H4 packet the decoder decodes: an LE Meta event (type 4, event code 0x3E)."""
    return len(h4) >= 2 and h4[0] == 4 and h4[1] == 0x3E


def fixture_vector(name):
    with open(os.path.join(ROOT, "Vectors", "captures", "fixtures.json")) as f:
        vectors = json.load(f)["vectors"]
    return next(v for v in vectors if v["capture"].endswith("/" + name))


def expectation(name, recs, lost, added_before=None, skipped=0, resyncs=0, extra_copy=False):
    """The expected beacons and counts: the clean vector's beacons less those of `lost`
    records (1-based), renumbered; `added_before` is the record number before which one
    malformed record is added (inserted or header bytes); `extra_copy` appends the file's
    records again after it (concatenation)."""
    clean = fixture_vector(name)["expect"]
    number = {}
    n = 0
    for i in range(1, len(recs) + 1):
        if added_before == i:
            n += 1
        n += 1
        number[i] = n
    beacons = [dict(b, record=number[b["record"]]) for b in clean["beacons"] if b["record"] not in lost]
    kept = [r for i, r in enumerate(recs, 1) if i not in lost]
    malformed = len(lost) + (1 if added_before else 0)
    read = len(recs) + (1 if added_before else 0)  # a lost record is read, as a malformed one
    dec = sum(1 for r in kept if decoded(r[2]))
    ign = len(kept) - dec
    if extra_copy:
        offset = len(recs) + (1 if added_before else 0)  # after the malformed header record, if any
        beacons += [dict(b, record=b["record"] + offset) for b in clean["beacons"]]
        read += len(recs)
        dec += sum(1 for r in recs if decoded(r[2]))
        ign += sum(1 for r in recs if not decoded(r[2]))
    return {"beacons": beacons,
            "records": {"read": read, "decoded": dec, "ignored": ign, "malformed": malformed,
                        "skippedBytes": skipped, "resynchronizations": resyncs}}


def pcapng_packets(data):
    """(interface, timestamp units, captured bytes, original length) of every Enhanced Packet
    Block of a little-endian pcapng file with one section, and its link type and snap length."""
    at, packets, link = 0, [], None
    while at < len(data):
        btype, length = struct.unpack_from("<II", data, at)
        if btype == 1:
            link = struct.unpack_from("<HHI", data, at + 8)
        elif btype == 6:
            iface, high, low, incl, orig = struct.unpack_from("<IIIII", data, at + 8)
            packets.append((iface, high << 32 | low, data[at + 28:at + 28 + incl], orig))
        at += length
    return packets, link


def pcapng_block(btype, body, big=False):
    """A pcapng block of `btype` around `body` (padded to 4 bytes), in either byte order."""
    body = body + bytes(-len(body) % 4)
    e = ">" if big else "<"
    return struct.pack(e + "II", btype, 12 + len(body)) + body + struct.pack(e + "I", 12 + len(body))


def pcapng_file(packets, link, big=False, interfaces=1, kind="enhanced", extra_after=None, extra=b""):
    """A pcapng file of one section holding `packets` (as `pcapng_packets` gives them) as
    Enhanced (interface `i % interfaces` for packet i), Simple or obsolete Packet Blocks, with
    the bytes `extra` after packet `extra_after` (1-based)."""
    e = ">" if big else "<"
    out = pcapng_block(0x0A0D0D0A, struct.pack(e + "IHHq", 0x1A2B3C4D, 1, 0, -1), big)
    for _ in range(interfaces):
        out += pcapng_block(1, struct.pack(e + "HHI", link[0], 0, link[2]), big)
    for i, (_, t, packet, orig) in enumerate(packets):
        if kind == "simple":
            out += pcapng_block(3, struct.pack(e + "I", orig) + packet, big)
        elif kind == "obsolete":
            out += pcapng_block(2, struct.pack(e + "HHIIII", 0, 0, t >> 32, t & 0xFFFFFFFF, len(packet), orig) + packet,
                                big)
        else:
            out += pcapng_block(6, struct.pack(e + "IIIII", i % interfaces, t >> 32, t & 0xFFFFFFFF, len(packet), orig)
                                + packet, big)
        if extra_after == i + 1:
            out += extra
    return out


def pcap_rewritten(data, big=False, nanoseconds=False, snap=None):
    """A little-endian microsecond classic pcap file written again in another byte order,
    with nanosecond fractions, or with another snap length."""
    magic, major, minor, zone, sigfigs, snaplen, link = struct.unpack_from("<IHHiIII", data, 0)
    e = ">" if big else "<"
    out = struct.pack(e + "IHHiIII", 0xA1B23C4D if nanoseconds else 0xA1B2C3D4, major, minor, zone, sigfigs,
                      snap if snap is not None else snaplen, link)
    at = 24
    while at < len(data):
        sec, frac, incl, orig = struct.unpack_from("<IIII", data, at)
        out += struct.pack(e + "IIII", sec, frac * 1000 if nanoseconds else frac, incl, orig)
        out += data[at + 16:at + 16 + incl]
        at += 16 + incl
    return out


UID_ADVERT = bytes.fromhex("0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000")
UID_BEACON = {"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77",
              "instance": "000000000001", "reserved": "0000"}


def extended_event(address, data, status, sid=1):
    """An H4 LE Extended Advertising Report event of one non-legacy report from the random
    `address` (aa:bb:…), SID `sid`, RSSI -60, Tx power not available, with `data` and
    data status `status`."""
    report = (struct.pack("<HB", status << 5, 1) + bytes.fromhex(address.replace(":", ""))[::-1]
              + bytes([1, 2, sid, 0x7F, 0xC4]) + bytes(9) + bytes([len(data)]) + data)
    params = bytes([0x0D, 1]) + report
    return bytes([0x04, 0x3E, len(params)]) + params


def hex_text(packets):
    """A hex text capture: one H4 packet per line."""
    return b"".join(p.hex().encode() + b"\n" for p in packets)


def air_records(data):
    """(start, end) of every record of a little-endian classic pcap file."""
    out, at = [], 24
    while at < len(data):
        incl = struct.unpack_from("<I", data, at + 8)[0]
        out.append((at, at + 16 + incl))
        at += 16 + incl
    return out


def air_expectation(name, lost):
    """The air fixture's expected beacons and counts with the decoded records `lost` (1-based)
    malformed instead: their beacons go, the other records read as in the fixture."""
    clean = fixture_vector(name)["expect"]
    r = dict(clean["records"])
    r.update(decoded=r["decoded"] - len(lost), malformed=r["malformed"] + len(lost), skippedBytes=0,
             resynchronizations=0)
    return {"beacons": [b for b in clean["beacons"] if b["record"] not in lost], "records": r}


def main():
    os.makedirs(OUT, exist_ok=True)
    vectors = []

    def add(file, data, vid, description, clauses, flags, expect):
        with open(os.path.join(OUT, file), "wb") as f:
            f.write(data)
        verdict = "invalid" if expect["records"]["malformed"] > 0 else "valid"
        # Every damaged btsnoop or pcap copy holds the whole-file promise; every malformed
        # record is counted as one.
        if file.endswith((".btsnoop", ".pcap")):
            clauses = ["DAMAGE-1"] + clauses
        if verdict == "invalid":
            clauses = clauses + [c for c in ["RECORDS-7"] if c not in clauses]
        vectors.append({"id": "capture/damaged/" + vid, "kind": "capture", "description": description,
                        "clauses": clauses, "flags": flags, "source": "synthesized", "verdict": verdict,
                        "capture": "../../Captures/damaged/" + file, "expect": expect})

    snoop = open(os.path.join(FIXTURES, "hci-h4-1002.btsnoop"), "rb").read()
    pcap = open(os.path.join(FIXTURES, "hci-h4-phdr-201.pcap"), "rb").read()
    ng = open(os.path.join(FIXTURES, "hci-h4-phdr-201.pcapng"), "rb").read()
    text = open(os.path.join(FIXTURES, "hci-h4.txt"), "rb").read()
    rs, rp, rn, rt = records(snoop, "btsnoop"), records(pcap, "pcap"), records(ng, "pcapng"), records(text, "text")

    s, e, _ = rs[4]
    add("zeroed-header.btsnoop", snoop[:s] + bytes(24) + snoop[s + 24:], "btsnoop-zeroed-header",
        "Record 5's 24-byte header zeroed (an included length of 0 is not plausible under datalink 1002, "
        "BTSNOOP-7): record 4 is whole, record 5 is one malformed record, its bytes skipped whole, and reading "
        "goes on at record 6 (DAMAGE-8, DAMAGE-16).",
        ["BTSNOOP-7", "DAMAGE-2", "DAMAGE-8", "DAMAGE-11", "DAMAGE-16", "RECORDS-3", "RECORDS-4"], ["Damage"],
        expectation("hci-h4-1002.btsnoop", rs, lost={5}, skipped=e - s, resyncs=1))

    s, e, _ = rs[9]
    cut = s + 24 + 3
    add("cut-in-last-record.btsnoop", snoop[:cut], "btsnoop-cut-in-last-record",
        "The file cut 3 bytes into record 10's data: record 10 is malformed (its length overruns the file, "
        "BTSNOOP-9), and the bytes from its header to the end are skipped with no resynchronisation (DAMAGE-13).",
        ["BTSNOOP-9", "DAMAGE-8", "DAMAGE-10", "DAMAGE-13", "DAMAGE-16", "RECORDS-4"], ["Damage", "Truncated"],
        expectation("hci-h4-1002.btsnoop", rs, lost={10}, skipped=cut - s, resyncs=0))

    add("concatenated.btsnoop", snoop + snoop, "btsnoop-concatenated",
        "The file followed by itself: the second file's 16-byte header is not a plausible record header "
        "(BTSNOOP-8) and is one malformed record (record 11), skipped, and the second copy's records are "
        "records 12 to 21 (DAMAGE-8, DAMAGE-11, RECORDS-3).",
        ["BTSNOOP-8", "DAMAGE-2", "DAMAGE-5", "DAMAGE-8", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-3",
         "RECORDS-4"], ["Damage"],
        expectation("hci-h4-1002.btsnoop", rs, lost=set(), added_before=11, skipped=16, resyncs=1,
                    extra_copy=True))

    s, e, _ = rp[2]
    damaged = bytearray(pcap)
    damaged[s + 9] ^= 0x01  # captured length + 256: above the original length
    add("flipped-length.pcap", bytes(damaged), "pcap-flipped-length",
        "One bit flipped in record 3's captured length (it exceeds the original length, PCAP-10): record 3 is "
        "one malformed record, skipped whole, and reading goes on at record 4 (DAMAGE-8, DAMAGE-11).",
        ["PCAP-10", "DAMAGE-3", "DAMAGE-8", "DAMAGE-11", "DAMAGE-16", "RECORDS-4"], ["Damage", "LengthLie"],
        expectation("hci-h4-phdr-201.pcap", rp, lost={3}, skipped=e - s, resyncs=1))

    at = rp[5][1]
    add("inserted-bytes.pcap", pcap[:at] + b"\x5a" * 5 + pcap[at:], "pcap-inserted-bytes",
        "Five bytes inserted between records 6 and 7 (the header read there has a captured length over "
        "262,144 octets, PCAP-9): they are one malformed record (record 7), skipped, and every record after is "
        "read, one number later (DAMAGE-8, RECORDS-3).",
        ["PCAP-9", "DAMAGE-3", "DAMAGE-8", "DAMAGE-11", "DAMAGE-16", "RECORDS-3", "RECORDS-4"], ["Damage"],
        expectation("hci-h4-phdr-201.pcap", rp, lost=set(), added_before=7, skipped=5, resyncs=1))

    s, e, _ = rn[3]
    damaged = bytearray(ng)
    damaged[s + 3] ^= 0x10  # block type 6 -> 0x10000006, a reserved type
    add("reserved-block-type.pcapng", bytes(damaged), "pcapng-reserved-block-type",
        "Bit 4 of the last byte of packet block 4's type flipped (0x10000006, a reserved type no writer uses, "
        "PCAPNG-11): the block is one malformed record, skipped whole; the blocks around it are read "
        "(DAMAGE-14).",
        ["PCAPNG-11", "DAMAGE-4", "DAMAGE-14", "DAMAGE-16", "RECORDS-4"], ["Damage", "UnknownType"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost={4}, skipped=e - s, resyncs=1))

    s, e, _ = rn[7]
    damaged = bytearray(ng)
    damaged[s + 8 + 3] ^= 0x10  # interface 0 -> 0x10000000: no such interface
    add("unknown-interface.pcapng", bytes(damaged), "pcapng-unknown-interface",
        "Packet block 8 names interface 0x10000000, which no Interface Description Block describes "
        "(PCAPNG-9): the block is one malformed record, skipped whole, and reading goes on at block 9 "
        "(DAMAGE-14).",
        ["PCAPNG-3", "PCAPNG-9", "DAMAGE-14", "DAMAGE-16", "RECORDS-4"], ["Damage"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost={8}, skipped=e - s, resyncs=1))

    add("two-sections.pcapng", ng + ng, "pcapng-two-sections",
        "The file followed by itself is a pcapng file of two sections, which the format allows (PCAPNG-2): "
        "nothing is damaged, and the second section's packets are records 11 to 20.",
        ["PCAPNG-1", "PCAPNG-2", "PCAPNG-3", "RECORDS-4"], ["Damage"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost=set(), extra_copy=True))

    s, e, _ = rt[3]
    add("nul-line.txt", text[:s] + b"packet4\t04 3e\x00\x00 02\n" + text[e:], "hex-text-nul-line",
        "Packet 4's line replaced by one holding NUL bytes: that line is one malformed record (HEXTEXT-5, "
        "DAMAGE-15); the file is still hex text (its first packet line says so, HEXTEXT-1) and every other "
        "line is read.",
        ["HEXTEXT-1", "HEXTEXT-3", "HEXTEXT-5", "DAMAGE-15", "RECORDS-4"], ["Damage"],
        dict(expectation("hci-h4.txt", rt, lost={4}), records={**expectation("hci-h4.txt", rt, lost={4})["records"],
                                                               "skippedBytes": 0, "resynchronizations": 0}))

    s, e, _ = rs[0]
    add("first-header-zeroed.btsnoop", snoop[:s] + bytes(24) + snoop[s + 24:], "btsnoop-first-header-zeroed",
        "Record 1's header zeroed, with no record before it to check it against: the header is not plausible "
        "(BTSNOOP-7), so record 1 is one malformed record at that header, its bytes skipped whole, and reading "
        "goes on at the first run, record 2 (DAMAGE-6, DAMAGE-11).",
        ["BTSNOOP-7", "DAMAGE-6", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-4"], ["Damage"],
        expectation("hci-h4-1002.btsnoop", rs, lost={1}, skipped=e - s, resyncs=1))

    s, e, _ = rs[9]
    add("cut-in-last-header.btsnoop", snoop[:s + 10], "btsnoop-cut-in-last-header",
        "The file cut 10 bytes into record 10's header, inside its flags: record 10 is btsnoop/truncated at "
        "offset 8 (BTSNOOP-11), and its 10 bytes are skipped with no resynchronisation (DAMAGE-13).",
        ["BTSNOOP-11", "DAMAGE-13", "DAMAGE-16", "RECORDS-4"], ["Damage", "Truncated"],
        expectation("hci-h4-1002.btsnoop", rs, lost={10}, skipped=10, resyncs=0))

    s, e, _ = rs[4]
    damaged = bytearray(snoop)
    damaged[s + 3] = damaged[s + 7] - 1  # original length one below the included length
    add("original-below-included.btsnoop", bytes(damaged), "btsnoop-original-below-included",
        "Record 5's original length set one below its included length (BTSNOOP-10): record 4 is whole, record 5 "
        "is one malformed record, its bytes skipped whole, and reading goes on at record 6 (DAMAGE-8).",
        ["BTSNOOP-10", "DAMAGE-2", "DAMAGE-8", "DAMAGE-11", "DAMAGE-16", "RECORDS-4"], ["Damage", "LengthLie"],
        expectation("hci-h4-1002.btsnoop", rs, lost={5}, skipped=e - s, resyncs=1))

    s, e, _ = rs[2]
    damaged = bytearray(snoop)
    assert damaged[s + 3] < 249 and damaged[s + 7] < 249
    damaged[s + 3] += 7  # original and included length 7 bytes too long, still plausible
    damaged[s + 7] += 7
    add("length-grown.btsnoop", bytes(damaged), "btsnoop-length-grown",
        "Record 3's original and included lengths both 7 bytes too long, a header still plausible by itself: the "
        "look-ahead finds a run at record 4, inside the length record 3 claims, so record 3 is one malformed "
        "record (btsnoop/invalid-value at offset 4), skipped up to record 4 (DAMAGE-7).",
        ["DAMAGE-7", "DAMAGE-10", "DAMAGE-11", "DAMAGE-16", "RECORDS-4"], ["Damage", "LengthLie"],
        expectation("hci-h4-1002.btsnoop", rs, lost={3}, skipped=e - s, resyncs=1))

    damaged = bytearray(snoop)
    for s, e, _ in rs[5:]:
        t = struct.unpack_from(">q", damaged, s + 16)[0]
        struct.pack_into(">q", damaged, s + 16, t + 2 * 86_400_000_000)
    add("clock-step.btsnoop", bytes(damaged), "btsnoop-clock-step",
        "Records 6 to 10 stamped two days later than the records before them: record 6 does not follow record 5 "
        "in time, but a run of records starts there, so the clock stepped and nothing is damaged (DAMAGE-9).",
        ["DAMAGE-5", "DAMAGE-9", "DAMAGE-10", "RECORDS-4"], ["TimestampPrecision"],
        expectation("hci-h4-1002.btsnoop", rs, lost=set(), skipped=0, resyncs=0))

    s, e, _ = rp[4]
    damaged = bytearray(pcap)
    damaged[s:s + 16] = bytes(16)
    add("zeroed-header.pcap", bytes(damaged), "pcap-zeroed-header",
        "Record 5's 16-byte header zeroed: a captured length of 0 is no record (PCAP-8); record 4 is whole, record "
        "5 is one malformed record, its bytes skipped whole, and reading goes on at record 6 (DAMAGE-8).",
        ["PCAP-8", "DAMAGE-3", "DAMAGE-8", "DAMAGE-11", "DAMAGE-16", "RECORDS-4"], ["Damage"],
        expectation("hci-h4-phdr-201.pcap", rp, lost={5}, skipped=e - s, resyncs=1))

    s, e, _ = rp[4]
    damaged = bytearray(pcap)
    struct.pack_into("<I", damaged, s + 4, 1_000_000)
    add("fraction-one-second.pcap", bytes(damaged), "pcap-fraction-one-second",
        "Record 5's fraction of a second set to 1,000,000 µs, one past the greatest (PCAP-7): record 5 is one "
        "malformed record, its bytes skipped whole, and reading goes on at record 6 (DAMAGE-8).",
        ["PCAP-7", "DAMAGE-3", "DAMAGE-8", "DAMAGE-11", "DAMAGE-16", "RECORDS-4"], ["Damage", "FieldBounds"],
        expectation("hci-h4-phdr-201.pcap", rp, lost={5}, skipped=e - s, resyncs=1))

    s, e, _ = rp[9]
    add("cut-in-last-header.pcap", pcap[:s + 10], "pcap-cut-in-last-header",
        "The file cut 10 bytes into record 10's header, inside its captured length: record 10 is pcap/truncated "
        "at offset 8 (PCAP-11), its 10 bytes skipped with no resynchronisation (DAMAGE-13).",
        ["PCAP-11", "DAMAGE-8", "DAMAGE-13", "DAMAGE-16", "RECORDS-4"], ["Damage", "Truncated"],
        expectation("hci-h4-phdr-201.pcap", rp, lost={10}, skipped=10, resyncs=0))

    s, e, _ = rn[3]
    damaged = bytearray(ng)
    damaged[e - 4] ^= 0x04  # the trailing total length no longer equals the leading one
    add("trailer-mismatch.pcapng", bytes(damaged), "pcapng-trailer-mismatch",
        "Packet block 4's trailing total length made to differ from its leading one: its framing fails "
        "(PCAPNG-12), and the block's bytes up to the next run of well-framed blocks, block 5, are one malformed "
        "record (DAMAGE-14).",
        ["PCAPNG-12", "DAMAGE-4", "DAMAGE-14", "DAMAGE-16", "RECORDS-4"], ["Damage", "LengthLie"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost={4}, skipped=e - s, resyncs=1))

    packets, link = pcapng_packets(ng)
    assert pcapng_file(packets, link) == ng, "the pcapng fixture is written again byte for byte"

    # Packet block 6 given an 8-byte comment option (PCAPNG-6 leaves options to the reader), so
    # that its total length is 8 more than block 5's; block 5's total length then grown by 8
    # has a trailer that repeats it: the 4 bytes there are block 6's total length.
    s5, e5, _ = rn[4]
    s6, e6, _ = rn[5]
    assert e5 == s6 and e6 - s6 == e5 - s5
    block6 = ng[s6:e6]
    body = block6[8:-4] + struct.pack("<HH", 1, 4) + b"note"
    commented = ng[:s6] + pcapng_block(6, body) + ng[e6:]
    grown = bytearray(commented)
    struct.pack_into("<I", grown, s5 + 4, e5 - s5 + 8)
    assert struct.unpack_from("<I", grown, s5 + e5 - s5 + 8 - 4)[0] == e5 - s5 + 8
    add("length-repeated-by-next-block.pcapng", bytes(grown), "pcapng-length-repeated-by-next-block",
        "Packet block 5's leading total length 8 bytes too long, and its trailer read there happens to repeat "
        "it (it is block 6's total length): the framing after it fails, and a run of well-framed blocks starts "
        "at block 6, inside the length block 5 claims, so block 5 is one malformed record (pcap/invalid-value at "
        "offset 4), skipped up to block 6, and every other packet is read (DAMAGE-14, DAMAGE-7, DAMAGE-12).",
        ["PCAPNG-12", "DAMAGE-4", "DAMAGE-7", "DAMAGE-12", "DAMAGE-14", "DAMAGE-16", "RECORDS-4"],
        ["Damage", "LengthLie"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost={5}, skipped=e5 - s5, resyncs=1))

    # Eight Command Complete events of one length, each carrying a copy of a plausible record
    # header 40 bytes into its data: the copies make a chain of records beside the true one,
    # whose last record runs past the end of the file. Record 5's flags damaged (BTSNOOP-8):
    # the run inside record 4 and the run after its end are weighed (DAMAGE-7, DAMAGE-12), and
    # the true chain, which holds to the end of the file, wins.
    start = 0x00E2E7D7274DC000
    length = 40 + 24 + 100
    payload = bytes([4, 0x0E, length - 3]) + bytes.fromhex("01030c00") + bytes(33)
    fake = struct.pack(">IIIIq", length, length, 1, 0, start + 3_600_000_000)
    event = payload + fake + bytes(100)
    assert len(event) == length and event[2] == len(event) - 3
    copied = b"btsnoop\0" + struct.pack(">II", 1, 1002)
    for i in range(8):
        copied += struct.pack(">IIIIq", length, length, 3, 0, start + i * 1_000_000) + event
    damaged = bytearray(copied)
    s = 16 + 4 * (24 + length)
    damaged[s + 11] = 0x21  # flags 0x21: not direction and command/event bits
    add("headers-copied-into-data.btsnoop", bytes(damaged), "btsnoop-headers-copied-into-data",
        "Eight Command Complete events, each carrying a copy of a plausible record header 40 bytes into its data, "
        "and record 5's flags set to 0x21 (BTSNOOP-8): the copies start a run inside record 4 whose last record "
        "runs past the end of the file, while the true records after the damage hold to the end; record 4 is "
        "whole, record 5 is one malformed record, skipped whole, and records 6 to 8 are read (DAMAGE-7, "
        "DAMAGE-8, DAMAGE-12).",
        ["BTSNOOP-8", "DAMAGE-2", "DAMAGE-7", "DAMAGE-8", "DAMAGE-11", "DAMAGE-12", "DAMAGE-16", "RECORDS-4"],
        ["Damage"],
        {"beacons": [], "records": {"read": 8, "decoded": 0, "ignored": 7, "malformed": 1,
                                    "skippedBytes": 24 + length, "resynchronizations": 1}})
    add("big-endian-three-interfaces.pcapng", pcapng_file(packets, link, big=True, interfaces=3),
        "pcapng-big-endian-three-interfaces",
        "The pcapng fixture written big-endian, with three interfaces of one link type and the packets spread "
        "over them: nothing is damaged, and every packet reads as in the little-endian file (PCAPNG-1, "
        "PCAPNG-3).",
        ["PCAPNG-1", "PCAPNG-3", "RECORDS-4"], ["ByteOrder"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost=set()))

    add("simple-packet-blocks.pcapng", pcapng_file(packets, link, kind="simple"), "pcapng-simple-packet-blocks",
        "The pcapng fixture with every packet in a Simple Packet Block, which belongs to interface 0: every "
        "packet reads as in the Enhanced Packet Blocks (PCAPNG-7).",
        ["PCAPNG-7", "RECORDS-4"], [],
        expectation("hci-h4-phdr-201.pcapng", rn, lost=set()))

    add("obsolete-packet-blocks.pcapng", pcapng_file(packets, link, kind="obsolete"), "pcapng-obsolete-packet-blocks",
        "The pcapng fixture with every packet in an obsolete Packet Block (type 2, a 16-bit interface id): every "
        "packet reads as in the Enhanced Packet Blocks (PCAPNG-8).",
        ["PCAPNG-8", "RECORDS-4"], [],
        expectation("hci-h4-phdr-201.pcapng", rn, lost=set()))

    extra = (pcapng_block(4, struct.pack("<HH", 0, 0))  # Name Resolution Block: its end record
             + pcapng_block(0xBAD, struct.pack("<I", 0xFFFF) + b"note")  # custom block, a private enterprise
             + pcapng_block(0x80000001, b""))  # a block type of local use
    add("blocks-passed-over.pcapng", pcapng_file(packets, link, extra_after=5, extra=extra),
        "pcapng-blocks-passed-over",
        "The pcapng fixture with a Name Resolution Block, a custom block (0xBAD) and a block of local use "
        "(0x80000001) after packet 5: blocks of registered or local types are passed over, no record and no "
        "fault (PCAPNG-10).",
        ["PCAPNG-10", "DAMAGE-4", "RECORDS-4"], [],
        expectation("hci-h4-phdr-201.pcapng", rn, lost=set()))

    add("big-endian-nanoseconds.pcap", pcap_rewritten(pcap, big=True, nanoseconds=True),
        "pcap-big-endian-nanoseconds",
        "The classic pcap fixture written big-endian with nanosecond fractions (magic A1B23C4D in the file's byte "
        "order): nothing is damaged, and every record reads as in the little-endian microsecond file (PCAP-1).",
        ["PCAP-1", "PCAP-3", "PCAP-5", "RECORDS-4"], ["ByteOrder", "TimestampPrecision"],
        expectation("hci-h4-phdr-201.pcap", rp, lost=set()))

    cut = {i for i, (s, e, _) in enumerate(rp, 1) if e - s - 16 > 64}
    add("snap-length-64.pcap", pcap_rewritten(pcap, snap=64), "pcap-snap-length-64",
        "The classic pcap fixture with a snap length of 64 below the captured lengths of records 3, 4 and 10: "
        "each is read as its first 64 bytes and the rest passed over (PCAP-6), so their HCI events end short of "
        "their parameter length, hci-event/length-overrun (HCI-ADV-2); every other record reads as before.",
        ["PCAP-6", "HCI-ADV-2", "RECORDS-4", "RECORDS-7"], ["Truncated", "FieldBounds"],
        expectation("hci-h4-phdr-201.pcap", rp, lost=cut))
    assert cut == {3, 4, 10}

    add("classic-pcap-named.pcapng", pcap, "pcap-named-pcapng",
        "The classic pcap fixture under a name ending in .pcapng: the container is what the first bytes say, "
        "classic pcap, and every record reads as in the fixture (RECORDS-1).",
        ["RECORDS-1", "PCAP-1", "RECORDS-4"], [],
        expectation("hci-h4-phdr-201.pcap", rp, lost=set()))

    s, e, _ = rn[4]
    damaged = bytearray(ng)
    struct.pack_into("<II", damaged, s + 12, 0xFFFFFFFF, 0xFFFFFFFF)
    add("timestamp-overflow.pcapng", bytes(damaged), "pcapng-timestamp-overflow",
        "Packet block 5's timestamp set to 2^64 − 1 microseconds, beyond what microseconds in a signed 64-bit "
        "count hold: the packet is one malformed record, pcap/invalid-value (PCAPNG-6), with no bytes skipped; "
        "the packets around it are read.",
        ["PCAPNG-6", "RECORDS-4", "RECORDS-7"], ["FieldBounds", "TimestampPrecision"],
        expectation("hci-h4-phdr-201.pcapng", rn, lost={5}))

    damaged = bytearray(snoop)
    for i, (s, e, _) in enumerate(rs):
        struct.pack_into(">I", damaged, s + 12, 5 if i < 5 else 0)
    add("drops-fall.btsnoop", bytes(damaged), "btsnoop-drops-fall",
        "Records 1 to 5 with a cumulative drop count of 5 and records 6 to 10 with 0: record 6 does not follow "
        "record 5 (BTSNOOP-13), but a run of records starts there, as after a step in the clock, so nothing is "
        "damaged (DAMAGE-5, DAMAGE-9).",
        ["BTSNOOP-13", "DAMAGE-5", "DAMAGE-9", "RECORDS-4"], ["FieldBounds"],
        expectation("hci-h4-1002.btsnoop", rs, lost=set()))

    lines = text.split(b"\n")
    three = next(i for i, line in enumerate(lines) if line.startswith(b"packet3\t"))
    event = bytearray(bytes.fromhex(lines[three].split(b"\t")[-1].decode().replace(" ", "")))
    second = 5 + 9 + event[5 + 8] + 1  # the second report: after the first's fixed fields, data and RSSI
    event[second + 8] = 0xFF  # its data length runs past the event
    lines[three] = b"packet3\t" + event.hex().encode()
    clean = fixture_vector("hci-h4.txt")["expect"]
    add("second-report-lies.txt", b"\n".join(lines), "hex-text-second-report-lies",
        "Packet 3, an LE Advertising Report event of two reports, with the second report's data length set to 255: "
        "the record is malformed, adv-report/length-overrun (HCI-ADV-14), and the UID of the first report is still "
        "delivered (HCI-ADV-17, RECORDS-8); every other line reads as in the fixture.",
        ["HCI-ADV-14", "HCI-ADV-17", "RECORDS-7", "RECORDS-8", "RECORDS-4"], ["LengthLie", "MultipleStructures"],
        {"beacons": [b for b in clean["beacons"] if not (b["record"] == 3 and b["type"] == "ibeacon")],
         "records": {"read": 10, "decoded": 6, "ignored": 3, "malformed": 1, "skippedBytes": 0,
                     "resynchronizations": 0}})

    add("chain-never-completes.txt", hex_text([extended_event("c0:ff:ee:00:01:01", UID_ADVERT, 1)]),
        "hex-text-chain-never-completes",
        "One extended report of data status 1 and nothing after it: at the end of the capture the chain is "
        "delivered with what it holds, and the record that carried it is malformed, "
        "ext-adv-report/incomplete-chain (HCI-EXT-12).",
        ["HCI-EXT-6", "HCI-EXT-12", "RECORDS-4", "RECORDS-7"], ["ExtendedReport", "ChainedReport", "Truncated"],
        {"beacons": [dict(UID_BEACON, record=1)],
         "records": {"read": 1, "decoded": 0, "ignored": 0, "malformed": 1, "skippedBytes": 0,
                     "resynchronizations": 0}})

    filler = b"".join(bytes([255, 0xE7]) + bytes(254) for _ in range(7)) + bytes([8, 0xE7]) + bytes(7)
    data = UID_ADVERT + filler
    assert len(data) == 8 * 229
    add("chain-over-1650.txt",
        hex_text([extended_event("c0:ff:ee:00:01:01", data[i:i + 229], 1) for i in range(0, len(data), 229)]),
        "hex-text-chain-over-1650",
        "Eight extended reports of data status 1 from one advertiser, 229 bytes each (a UID, then structures of an "
        "unassigned type): after the eighth the chain holds 1,832 bytes, more than 1,650, and is delivered at "
        "once, at record 8, so no chain is open at the end and every record is decoded (HCI-EXT-10).",
        ["HCI-EXT-10", "HCI-EXT-6", "RECORDS-4", "AD-5"], ["ExtendedReport", "ChainedReport", "FieldBounds"],
        {"beacons": [dict(UID_BEACON, record=8)],
         "records": {"read": 8, "decoded": 8, "ignored": 0, "malformed": 0, "skippedBytes": 0,
                     "resynchronizations": 0}})

    add("seventeen-chains.txt",
        hex_text([extended_event("c0:ff:ee:00:02:%02x" % i, UID_ADVERT, 1) for i in range(1, 18)]),
        "hex-text-seventeen-chains",
        "Seventeen advertisers each sending one extended report of data status 1: the seventeenth chain pushes "
        "out the oldest, delivered at once (HCI-EXT-11); the sixteen still open at the end are delivered then, "
        "and the records that carried them are malformed, ext-adv-report/incomplete-chain (HCI-EXT-12).",
        ["HCI-EXT-11", "HCI-EXT-12", "RECORDS-4", "RECORDS-7"], ["ExtendedReport", "ChainedReport", "FieldBounds"],
        {"beacons": [dict(UID_BEACON, record=r) for r in range(1, 18)],
         "records": {"read": 17, "decoded": 1, "ignored": 0, "malformed": 16, "skippedBytes": 0,
                     "resynchronizations": 0}})

    ll256 = open(os.path.join(FIXTURES, "le-ll-phdr-256.pcap"), "rb").read()
    nordic = open(os.path.join(FIXTURES, "nordic-ble-272.pcap"), "rb").read()
    r256, r272 = air_records(ll256), air_records(nordic)

    damaged = bytearray(ll256)
    s = r256[0][0] + 16
    assert struct.unpack_from("<H", damaged, s + 8)[0] & 0x0C00 == 0x0C00
    damaged[s + 9] &= ~0x08 & 0xFF  # flags: CRC checked, no longer valid
    add("crc-failed-256.pcap", bytes(damaged), "ll-phdr-256-crc-failed",
        "The LINKTYPE 256 fixture with record 1's pseudo-header saying the CRC was checked and failed (flag 0x0400 "
        "without 0x0800): record 1 is malformed, ll/crc-failed at its access address (LL-7, LL-13); the other "
        "records read as in the fixture.",
        ["LL-7", "LL-13", "RECORDS-4", "RECORDS-7"], ["LinkLayer"],
        air_expectation("le-ll-phdr-256.pcap", {1}))

    damaged = bytearray(ll256)
    damaged[r256[1][0] + 16] = 40  # RF channel 40: there is none
    add("rf-channel-40-256.pcap", bytes(damaged), "ll-phdr-256-rf-channel-40",
        "The LINKTYPE 256 fixture with record 2's RF channel set to 40, one past the last: record 2 is malformed, "
        "le-phdr/invalid-value at offset 0 (LL-16); the other records read as in the fixture.",
        ["LL-16", "RECORDS-4", "RECORDS-7"], ["LinkLayer", "FieldBounds"],
        air_expectation("le-ll-phdr-256.pcap", {2}))

    damaged = bytearray(nordic)
    s = r272[0][0] + 16
    assert damaged[s + 3] == 2
    damaged[s + 3] = 4  # protocol version 4
    add("version-4-272.pcap", bytes(damaged), "nordic-272-version-4",
        "The LINKTYPE 272 fixture with record 1's nRF Sniffer protocol version set to 4, which no version defines: "
        "record 1 is malformed, nordic/unsupported at the version octet, offset 3 (NRF-2); the other records read "
        "as in the fixture.",
        ["NRF-1", "NRF-2", "RECORDS-4", "RECORDS-7"], ["LinkLayer", "VersionMismatch"],
        air_expectation("nordic-ble-272.pcap", {1}))

    damaged = bytearray(nordic)
    s = r272[1][0] + 16
    assert damaged[s + 3] == 3 and damaged[s + 8] & 1
    damaged[s + 8] &= 0xFE  # flags: CRC not good
    add("crc-failed-272.pcap", bytes(damaged), "nordic-272-crc-failed",
        "The LINKTYPE 272 fixture with record 2's event flags saying the CRC failed (bit 0 clear): record 2 is "
        "malformed, ll/crc-failed at its access address (NRF-5, LL-7); the other records read as in the fixture.",
        ["NRF-5", "LL-7", "RECORDS-4", "RECORDS-7"], ["LinkLayer"],
        air_expectation("nordic-ble-272.pcap", {2}))

    broken = bytes.fromhex("1016aafe00ee8b0ca750095477cb3e7700")  # an Eddystone-UID cut short in its instance
    ibeacon = bytes.fromhex("1aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
    add("broken-frame-then-ibeacon.txt", hex_text([extended_event("c0:ff:ee:00:03:01", broken + ibeacon, 0)]),
        "hex-text-broken-frame-then-ibeacon",
        "One extended report whose data holds an Eddystone-UID cut short, then an iBeacon: the broken frame is "
        "reported (the record is malformed, eddystone/truncated) and the walk goes on to the iBeacon, which is "
        "delivered (AD-6, RECORDS-8).",
        ["AD-6", "AD-4", "RECORDS-7", "RECORDS-8", "RECORDS-4"], ["MultipleStructures", "Truncated",
                                                                 "ManufacturerData"],
        {"beacons": [{"record": 1, "type": "ibeacon", "uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 1,
                      "minor": 2, "measuredPower": -59}],
         "records": {"read": 1, "decoded": 0, "ignored": 0, "malformed": 1, "skippedBytes": 0,
                     "resynchronizations": 0}})

    with open(VECTORS, "w") as f:
        json.dump({"vectorFile": 1,
                   "description": "Copies of the fixture captures damaged in one known way each, or written "
                                  "again in another form the formats allow, and a few small captures built for "
                                  "one clause each (Scripts/damaged-captures.py): only the damage is lost "
                                  "(DAMAGE-1, docs/spec/containers.md).",
                   "vectors": vectors}, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
