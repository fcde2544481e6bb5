#!/usr/bin/env python3
"""Write the vectors of clauses no other vector reaches, from inputs built here:

- Vectors/frames/gaps.json: AD structures whose length runs past the AD data (AD-3), alone,
  after a beacon, and inside legacy and extended advertising reports;
- Captures/gaps/ and Vectors/captures/gaps.json: a btsnoop capture whose AD data overruns after
  a beacon (AD-3 with RECORDS-7, RECORDS-8: the beacon before the fault is delivered), and a
  btsnoop capture with one record damaged so that a copied record header starts a false run of
  records inside it, whose first record swallows the two true records after the damage: the
  true chain has more records where the two meet, so reading goes on at the true record
  boundary (DAMAGE-12). The clean file it was damaged from is a vector too.

Every expectation is this script's ground truth: the frames it encoded, the records it wrote,
the damage it made, read with the clauses of docs/spec/ad-structures.md and containers.md,
never the tool's output. The damaged capture is checked here against the clauses' run rules
(DAMAGE-2, DAMAGE-5, DAMAGE-10, DAMAGE-11) so that the false run is the first candidate and
the true run the first that starts inside its first record. Same bytes on every run.

Run from anywhere: python3 Scripts/gap-captures.py
"""
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAPTURES = os.path.join(ROOT, "Captures", "gaps")
FRAMES_OUT = os.path.join(ROOT, "Vectors", "frames", "gaps.json")
CAPTURES_OUT = os.path.join(ROOT, "Vectors", "captures", "gaps.json")

BTSNOOP_EPOCH = 0x00DCDDB30F2F8000      # BTSNOOP-4
BASE_US = 1_700_000_000 * 1_000_000     # the captures' first second, Unix µs
NAMESPACE = "8b0ca750095477cb3e77"


# --- Frames this script encodes ------------------------------------------------------------------

def uid_service_data(instance):
    """An Eddystone-UID AD structure (16-bit service data FEAA, frame 00, Tx power -18 dBm,
    namespace, instance, two reserved zero bytes): 24 octets."""
    body = bytes.fromhex("16aafe00ee" + NAMESPACE) + instance.to_bytes(6, "big") + bytes(2)
    return bytes([len(body)]) + body


def uid_beacon(instance, record=None):
    """The beacon `decode` prints for uid_service_data(instance) (docs/decode-output.md)."""
    b = {"type": "eddystone-uid", "txPower": -18, "namespace": NAMESPACE,
         "instance": "%012x" % instance, "reserved": "0000"}
    if record is not None:
        b["record"] = record
    return b


def address(n):
    return bytes([n, 0x22, 0x33, 0x44, 0x55, 0xC6])      # little-endian, a static random address


def legacy_event(data, n, rssi=-60):
    """An H4 LE Advertising Report event (HCI-ADV-7) of one ADV_NONCONN_IND report."""
    params = bytes([0x02, 1, 0x03, 0x01]) + address(n) + bytes([len(data)]) + data + struct.pack("b", rssi)
    return bytes([0x04, 0x3E, len(params)]) + params


def extended_event(data, n, rssi=-60):
    """An H4 LE Extended Advertising Report event (HCI-EXT-1) of one complete, non-legacy,
    undirected report: event type 0, random address, LE 1M / none, SID 1, no Tx power."""
    report = (struct.pack("<H", 0) + bytes([0x01]) + address(n) + bytes([1, 0, 1, 0x7F])
              + struct.pack("b", rssi) + bytes(2) + bytes(7) + bytes([len(data)]) + data)
    params = bytes([0x0D, 1]) + report
    assert len(params) <= 255
    return bytes([0x04, 0x3E, len(params)]) + params


EXT_DATA_OFFSET = 3 + 2 + 24            # where an extended report's AD data starts in the record
LEGACY_DATA_OFFSET = 3 + 4 + 6 + 1      # the same in a legacy report
SCAN_ENABLE = bytes.fromhex("010c20020100")          # HCI command LE Set Scan Enable (ignored)
COMMAND_COMPLETE = bytes.fromhex("040e04010c2000")   # its Command Complete event (ignored)


# --- btsnoop -------------------------------------------------------------------------------------

def btsnoop(records):
    """A btsnoop file, datalink 1002 (H4): records are (packet, Unix µs, flags)."""
    out = b"btsnoop\0" + struct.pack(">II", 1, 1002)
    for packet, t, flags in records:
        out += struct.pack(">IIIIq", len(packet), len(packet), flags, 0, t + BTSNOOP_EPOCH) + packet
    return out


def header(data, at):
    orig, incl, flags, drops, ts = struct.unpack_from(">IIIIq", data, at)
    return orig, incl, flags, drops, ts


def plausible(data, at):
    """DAMAGE-2 for datalink 1002: BTSNOOP-5, -7, -8, -10 hold, and the record lies in the file."""
    if at + 24 > len(data):
        return False
    orig, incl, flags, _, _ = header(data, at)
    return 1 <= incl <= 262144 and incl <= orig <= 262144 and flags <= 3 and at + 24 + incl <= len(data)


def follows(data, at, prev):
    """DAMAGE-5: within a day of the record before, its drop count no lower."""
    _, _, _, d1, t1 = header(data, prev)
    _, _, _, d2, t2 = header(data, at)
    return abs(t2 - t1) <= 86_400_000_000 and d2 >= d1


def chain(data, at, limit=256):
    """The record offsets read from `at` by following lengths while records are plausible and
    each follows the one before (DAMAGE-12's chain, up to 256 records)."""
    out = []
    while len(out) < limit and plausible(data, at) and (not out or follows(data, at, out[-1])):
        out.append(at)
        at += 24 + header(data, at)[1]
    return out


def starts_run(data, at, last):
    """DAMAGE-10: 4 consecutive plausible records, each following the one before, the first
    following the last record delivered."""
    c = chain(data, at, 4)
    return len(c) == 4 and follows(data, at, last)


# --- Vectors -------------------------------------------------------------------------------------

def write(path, description, vectors):
    ids = [v["id"] for v in vectors]
    assert len(ids) == len(set(ids))
    with open(path, "w") as f:
        f.write(json.dumps({"vectorFile": 1, "description": description, "vectors": vectors},
                           indent=2, ensure_ascii=False) + "\n")


def vector(vid, kind, description, clauses, flags, verdict, **rest):
    v = {"id": vid, "kind": kind, "description": description, "clauses": clauses,
         "flags": sorted(set(flags)), "source": "synthesized", "verdict": verdict}
    v.update(rest)
    return v


def frame_vectors():
    out = []

    def overrun(name, description, clauses, flags, **inp):
        at = inp.pop("at")
        out.append(vector("frame/ad/" + name, "frame", description, clauses, ["LengthLie"] + flags, "invalid",
                          input=inp, expect={"error": {"code": "ad/length-overrun", "offset": at}}))

    overrun("length-overrun-only-structure",
            "One AD structure whose length octet says 5 with 4 octets after it: ad/length-overrun at its "
            "length octet, offset 0.",
            ["AD-3", "AD-1"], ["Truncated"], adData="0516aafe00", at=0)
    overrun("length-overrun-by-one",
            "A structure one octet short of its length (3, with type 03 and one UUID octet after it): "
            "ad/length-overrun at offset 0.",
            ["AD-3", "AD-1"], ["Truncated", "FieldBounds"], adData="0303aa", at=0)
    overrun("length-overrun-ff-last-octet",
            "Flags, then a length octet of 255 as the data's last octet, with nothing after it: "
            "ad/length-overrun at offset 3.",
            ["AD-3", "AD-1"], ["Truncated", "FieldBounds", "MultipleStructures"], adData="020106ff", at=3)
    uid = uid_service_data(0x0A)
    overrun("length-overrun-after-uid",
            "A whole Eddystone-UID structure (24 octets), then manufacturer data whose length says 5 with 4 "
            "octets after it: the first fault is ad/length-overrun at offset 24; the UID before it still "
            "decodes (shown by capture/gaps/ad-length-overrun-after-uid).",
            ["AD-3", "AD-1", "AD-4"], ["Truncated", "MultipleStructures"],
            adData=(uid + bytes.fromhex("05ff590001")).hex(), at=24)
    long_uid = bytes([uid[0] + 4]) + uid[1:]
    overrun("length-overrun-uid-claims-more",
            "Flags, then an Eddystone-UID structure whose length octet says 27 with 23 octets after it: "
            "the structure runs past the data, so it is ad/length-overrun at its length octet (offset 3), "
            "not a UID.",
            ["AD-3", "AD-1"], ["MultipleStructures"], adData=("020106" + long_uid.hex()), at=3)
    data = bytes.fromhex("0201060416aafe")
    overrun("length-overrun-in-legacy-report",
            "A legacy advertising report whose AD data (7 octets) ends with a structure of length 4 with 3 "
            "octets after it, the report's RSSI octet next: the walk stops at the data's end, so "
            "ad/length-overrun at the length octet, offset %d of the H4 record, not a structure completed "
            "by the RSSI." % (LEGACY_DATA_OFFSET + 3),
            ["AD-3", "AD-1", "RECORDS-10", "HCI-ADV-7"], ["Truncated"],
            h4=legacy_event(data, 1).hex(), at=LEGACY_DATA_OFFSET + 3)
    data = uid + bytes.fromhex("05ff5900")
    overrun("length-overrun-in-extended-report",
            "An extended advertising report whose AD data is a whole Eddystone-UID structure then a "
            "manufacturer structure of length 5 with 3 octets after it: ad/length-overrun at offset %d of "
            "the H4 record." % (EXT_DATA_OFFSET + 24),
            ["AD-3", "AD-1", "RECORDS-10", "HCI-EXT-8"], ["Truncated", "ExtendedReport", "MultipleStructures"],
            h4=extended_event(data, 2).hex(), at=EXT_DATA_OFFSET + 24)
    # HCI-EXT-17: one extended report with a direct address of 11:22:33:44:55:66 (random) and an
    # Eddystone-UID, its Event_Type directed (bit 2) or not; the direct address is reported only
    # for the first.
    for name, event_type, expected in [
            ("directed", "0400", {"directAddress": "11:22:33:44:55:66", "directAddressType": "random"}),
            ("undirected", "0000", {"directAddress": None, "directAddressType": None})]:
        h4 = ("043e320d01" + event_type + "010122334455c60100017fc4000001665544332211"
              + "181716aafe00ee8b0ca750095477cb3e770000000000010000")
        out.append(vector(
            "frame/hci/extended-report-direct-address-" + name, "frame",
            "An extended report whose Direct_Address holds 11:22:33:44:55:66 (random), its Event_Type "
            + ("directed (bit 2 set): the direct address is reported." if name == "directed"
               else "undirected: the bytes are there but no direct address is reported."),
            ["HCI-EXT-17", "HCI-EXT-1"], ["ExtendedReport"], "valid",
            input={"h4": h4},
            expect={"beacons": [{"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77",
                                 "instance": "000000000001", "reserved": "0000"}],
                    "advertisement": expected}))
    return out


def overrun_capture():
    """Captures/gaps/ad-length-overrun-after-uid.btsnoop: a command, a report whose AD data is a
    UID then an overrunning structure, a clean UID report."""
    recs = [(SCAN_ENABLE, BASE_US, 2),
            (legacy_event(uid_service_data(0x11) + bytes.fromhex("05ff590001"), 3), BASE_US + 1_000_000, 3),
            (legacy_event(uid_service_data(0x12), 4), BASE_US + 2_000_000, 3)]
    name = "ad-length-overrun-after-uid.btsnoop"
    with open(os.path.join(CAPTURES, name), "wb") as f:
        f.write(btsnoop(recs))
    return vector(
        "capture/gaps/ad-length-overrun-after-uid", "capture",
        "A btsnoop log whose second record is a report with an Eddystone-UID structure then a structure "
        "running past the AD data: the record is malformed (ad/length-overrun), the UID before the fault "
        "is still delivered, and the next record's UID decodes.",
        ["AD-3", "RECORDS-7", "RECORDS-8", "RECORDS-4"], ["LengthLie", "Truncated", "MultipleStructures"],
        "invalid", capture="../../Captures/gaps/" + name,
        expect={"beacons": [uid_beacon(0x11, 2), uid_beacon(0x12, 3)],
                "records": {"read": 3, "decoded": 1, "ignored": 1, "malformed": 1,
                            "skippedBytes": 0, "resynchronizations": 0}})


def long_ext_data(instance):
    """200 octets of AD data: a UID structure and manufacturer data (Nordic, 0x0059) of zeros."""
    filler = 200 - 24 - 4
    return uid_service_data(instance) + bytes([filler + 3, 0xFF, 0x59, 0x00]) + bytes(filler)


def damage12_captures():
    """The clean file and its copy damaged for DAMAGE-12, and their vectors."""
    plan = [(SCAN_ENABLE, 2, None), (COMMAND_COMPLETE, 3, None),
            (extended_event(long_ext_data(0x21), 5), 3, 0x21)]
    plan += [(legacy_event(uid_service_data(i), 6), 3, i) for i in (0x22, 0x23)]
    plan += [(extended_event(long_ext_data(0x24), 7), 3, 0x24)]
    plan += [(legacy_event(uid_service_data(i), 8), 3, i) for i in range(0x25, 0x2B)]
    recs = [(p, BASE_US + i * 1_000_000, flags) for i, (p, flags, _) in enumerate(plan)]
    clean = btsnoop(recs)
    starts, at = [], 16
    for p, _, _ in recs:
        starts.append(at)
        at += 24 + len(p)
    assert at == len(clean)
    # Record 6 (index 5) is damaged: its header zeroed (an included length of 0, BTSNOOP-7), and the
    # header of record 3 (the other long report) copied into its data where, read as a record, it
    # runs to the start of record 9: a false first record that swallows records 7 and 8.
    d, s1, s3 = starts[5], starts[6], starts[8]
    copied = clean[starts[2]:starts[2] + 24]
    lc = header(clean, starts[2])[1]
    p = s3 - 24 - lc
    assert d + 24 <= p and p + 24 <= s1, "the copied header must lie inside record 6's data"
    damaged = bytearray(clean)
    damaged[d:d + 24] = bytes(24)
    damaged[p:p + 24] = copied
    damaged = bytes(damaged)
    # The rules' view of it: record 5 is the last delivered; DAMAGE-11's first candidate after it
    # is the false run at p; the first run inside the false first record is record 7's, whose
    # chain has 2 records (7, 8) where the chains meet at record 9, the false one 1: DAMAGE-12.
    last = starts[4]
    assert not plausible(damaged, d)
    candidates = [o for o in range(d + 1, len(damaged)) if starts_run(damaged, o, last)]
    assert candidates[0] == p, (candidates[:3], p)
    inside = [o for o in candidates if p < o < p + 24 + lc]
    assert inside[0] == s1, (inside[:3], s1)
    false_chain, true_chain = chain(damaged, p), chain(damaged, s1)
    meet = min(set(false_chain) & set(true_chain))
    assert meet == s3 and false_chain.index(meet) == 1 and true_chain.index(meet) == 2
    for name, data in (("damage12-meet-clean.btsnoop", clean), ("damage12-meet-false-run.btsnoop", damaged)):
        with open(os.path.join(CAPTURES, name), "wb") as f:
            f.write(data)
    n = len(recs)
    beacons = [uid_beacon(inst, i + 1) for i, (_, _, inst) in enumerate(plan) if inst is not None]
    out = [vector(
        "capture/gaps/damage12-meet-clean", "capture",
        "The undamaged btsnoop log the DAMAGE-12 copy is made from: two ignored HCI packets, two long "
        "extended reports and eight legacy reports, each with one Eddystone-UID.",
        ["RECORDS-4", "RECORDS-5", "RECORDS-6", "BTSNOOP-3"], ["ExtendedReport"], "valid",
        capture="../../Captures/gaps/damage12-meet-clean.btsnoop",
        expect={"beacons": beacons,
                "records": {"read": n, "decoded": n - 2, "ignored": 2, "malformed": 0,
                            "skippedBytes": 0, "resynchronizations": 0}})]
    out.append(vector(
        "capture/gaps/damage12-meet-false-run", "capture",
        "Record 6's header zeroed and record 3's header copied into its data at byte %d of the record, "
        "where read as a record (%d octets) it runs to record 9 and starts a run of 4: that false run is "
        "the first candidate, but the true run at record 7, which starts inside its first record, has 2 "
        "records where the chains meet at record 9 against 1, so it wins: record 6 is one skipped "
        "stretch of %d octets and records 7 and 8 are kept." % (p - d, 24 + lc, s1 - d),
        ["DAMAGE-12", "DAMAGE-11", "DAMAGE-10", "DAMAGE-8", "DAMAGE-16", "BTSNOOP-7", "RECORDS-3", "RECORDS-4"],
        ["Damage", "ExtendedReport"], "invalid",
        capture="../../Captures/gaps/damage12-meet-false-run.btsnoop",
        expect={"beacons": [b for b in beacons if b["record"] != 6],
                "records": {"read": n, "decoded": n - 3, "ignored": 2, "malformed": 1,
                            "skippedBytes": s1 - d, "resynchronizations": 1}}))
    return out


R_FAKE = 120        # where, in a long record, the bytes that read as a record header lie (in its filler)


def fake_header(length, seconds):
    """24 octets that read as a btsnoop record header: the length, flags 3, no drops, the time."""
    return struct.pack(">IIIIq", length, length, 3, 0, BASE_US + seconds * 1_000_000 + BTSNOOP_EPOCH)


def long_records(count, fakes):
    """`count` long extended reports (253-octet records, UID instance 0x40 + i) after the two
    ignored HCI packets, one a second; `fakes` maps a record's index (0-based, over the whole
    file) to the 24 octets its filler holds at R_FAKE."""
    recs = [(SCAN_ENABLE, BASE_US, 2), (COMMAND_COMPLETE, BASE_US + 1_000_000, 3)]
    for i in range(2, 2 + count):
        event = bytearray(extended_event(long_ext_data(0x40 + i), 9))
        if i in fakes:
            at = R_FAKE - 24
            assert event[at:at + 24] == bytes(24)
            event[at:at + 24] = fakes[i]
        recs.append((bytes(event), BASE_US + i * 1_000_000, 3))
    return recs


def chain_clock(data, offsets):
    """How far a chain's clock moves per record, on average (µs)."""
    times = [header(data, o)[4] for o in offsets]
    return sum(abs(b - a) for a, b in zip(times, times[1:])) / (len(times) - 1)


def damage12_other_criteria():
    """Two more copies for DAMAGE-12's later criteria, where the chains never meet: the false
    chain breaks after 4 records while the true one holds (B); both hold to the end of the file
    and the false chain's clock jumps 50,000 s a record (C). Record 6 (index 5) is damaged as
    before: its header zeroed, and at R_FAKE in its data 24 octets that read as a header of the
    long records' length, so the false first record runs from there to R_FAKE in record 7, and
    so on while records carry such octets in their filler."""
    out = []
    k, count = 5, 12
    lc = 229
    designs = {
        # B: records 7 to 9 carry header-like octets at R_FAKE; record 10's filler is zeros there.
        "breaks": ({i: fake_header(lc, 2) for i in (k + 1, k + 2, k + 3)}, fake_header(lc, 2)),
        # C: every record after 6 carries them, alternating times 50,000 s apart; the last
        # runs to the end of the file.
        "clock": ({i: fake_header(lc if i < 2 + count - 1 else 253 - R_FAKE - 24, 50_000 * (i % 2))
                   for i in range(k + 1, 2 + count)},
                  fake_header(lc, 50_000 * (k % 2))),
    }
    for name, (fakes, damage) in designs.items():
        recs = long_records(count, fakes)
        clean = btsnoop(recs)
        starts, at = [], 16
        for pkt, _, _ in recs:
            starts.append(at)
            at += 24 + len(pkt)
        d, s1, last = starts[k], starts[k + 1], starts[k - 1]
        p = d + R_FAKE
        damaged = bytearray(clean)
        damaged[d:d + 24] = bytes(24)
        damaged[p:p + 24] = damage
        damaged = bytes(damaged)
        candidates = [o for o in range(d + 1, len(damaged)) if starts_run(damaged, o, last)]
        assert candidates[0] == p, (name, candidates[:3], p)
        inside = [o for o in candidates if p < o < p + 24 + header(damaged, p)[1]]
        assert inside[0] == s1, (name, inside[:3], s1)
        false_chain, true_chain = chain(damaged, p), chain(damaged, s1)
        assert not set(false_chain) & set(true_chain)
        true_end = true_chain[-1] + 24 + header(damaged, true_chain[-1])[1]
        false_end = false_chain[-1] + 24 + header(damaged, false_chain[-1])[1]
        assert true_end == len(damaged)
        if name == "breaks":
            assert len(false_chain) == 4 and false_end < len(damaged) and not plausible(damaged, false_end)
        else:
            assert false_end == len(damaged)
            assert chain_clock(damaged, false_chain) > 1000 * chain_clock(damaged, true_chain)
        files = ("damage12-%s-clean.btsnoop" % name, "damage12-%s-false-run.btsnoop" % name)
        for f, data in zip(files, (clean, damaged)):
            with open(os.path.join(CAPTURES, f), "wb") as fh:
                fh.write(data)
        n = len(recs)
        beacons = [uid_beacon(0x40 + i, i + 1) for i in range(2, n)]
        why = {"breaks": "the two chains never meet, and the false one breaks after 4 records (record 10's "
                         "filler reads as an included length of 0) while the true one holds to the end of the "
                         "file, so the true one wins",
               "clock": "the two chains never meet and both hold to the end of the file, but the false one's "
                        "clock moves 50,000 s a record and the true one's 1 s, so the true one wins"}[name]
        out.append(vector(
            "capture/gaps/damage12-%s-clean" % name, "capture",
            "The undamaged log the DAMAGE-12 '%s' copy is made from: two ignored HCI packets and %d long "
            "extended reports, some of whose manufacturer data holds octets that read as record headers; "
            "every record decodes." % (name, count),
            ["RECORDS-4", "RECORDS-5", "RECORDS-6", "BTSNOOP-3"], ["ExtendedReport"], "valid",
            capture="../../Captures/gaps/" + files[0],
            expect={"beacons": beacons,
                    "records": {"read": n, "decoded": n - 2, "ignored": 2, "malformed": 0,
                                "skippedBytes": 0, "resynchronizations": 0}}))
        out.append(vector(
            "capture/gaps/damage12-%s-false-run" % name, "capture",
            "Record 6's header zeroed and octets that read as a record header written at byte %d of its "
            "data: they start a false run, the first candidate, whose first record holds the start of "
            "record 7; %s: record 6 is one skipped stretch of 253 octets and reading goes on at record 7."
            % (R_FAKE - 24, why),
            ["DAMAGE-12", "DAMAGE-11", "DAMAGE-10", "DAMAGE-8", "DAMAGE-16", "BTSNOOP-7", "RECORDS-3", "RECORDS-4"],
            ["Damage", "ExtendedReport"], "invalid",
            capture="../../Captures/gaps/" + files[1],
            expect={"beacons": [b for b in beacons if b["record"] != k + 1],
                    "records": {"read": n, "decoded": n - 3, "ignored": 2, "malformed": 1,
                                "skippedBytes": s1 - d, "resynchronizations": 1}}))
    return out


def main():
    os.makedirs(CAPTURES, exist_ok=True)
    frames = frame_vectors()
    write(FRAMES_OUT, "AD structures whose length runs past the AD data (AD-3); written by "
          "Scripts/gap-captures.py from the frames it encodes.", frames)
    captures = [overrun_capture()] + damage12_captures() + damage12_other_criteria()
    write(CAPTURES_OUT, "Small captures for clauses the fixtures do not reach: an AD overrun after a beacon "
          "(AD-3, RECORDS-8) and a copied header that starts a false run inside a damaged record "
          "(DAMAGE-12); written by Scripts/gap-captures.py with the files in Captures/gaps/.", captures)
    print("%d frame vectors, %d capture vectors" % (len(frames), len(captures)))


if __name__ == "__main__":
    main()
