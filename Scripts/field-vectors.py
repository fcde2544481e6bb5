#!/usr/bin/env python3
"""Writes Vectors/field/field-captures.json: one scenario vector per field capture in
../shared/captures, with a registry that attaches a message to each beacon identity the
capture's ground truth (*.tshark.csv) lists, and the expected found/lost events worked out
from that CSV alone by docs/spec/engine.md (ENGINE-R2, ENGINE-F1, ENGINE-F2, ENGINE-O2,
ENGINE-O3): found at an identity's first sighting; lost 10 s after a sighting with no other
within 10 s (a sighting exactly 10 s later is lost and found again); timers before sightings
at one instant. Each vector carries the metadata of Vectors/README.md: those clauses, the
flag Field, source "field" (the truth is the capture's own CSV) and verdict "valid".

Eddystone TLM and E2EE-EID (frame 0x40) identify no registrable beacon, so captures with
only those expect no event. Run from the repository root; the output is committed, the
captures are not (they stay in ../shared and the vectors skip without them)."""
import base64, csv, json, os, sys
from decimal import Decimal

SHARED = "../shared/captures"
CAPTURES = [
    "whad-team__whad-client/capture.pcap",
    "Matheus-Garbelini__sweyntooth_bluetooth_low_energy_attacks/noncompliance_stmicoelectronics_wb55_non_zero_ediv_rand_SC.pcapng",
    "Matheus-Garbelini__sweyntooth_bluetooth_low_energy_attacks/noncomplicance_telink_respond_invalid_control_pdu.pcapng",
    "Syed-Bipul-Rahman__bluethooth_light_controll/btsnoop_hci__750fad9b.log",
    "Syed-Bipul-Rahman__bluethooth_light_controll/btsnoop_hci__a88c1218.log",
    "dandwhelan__fossibot-bluetooth/btsnoop_hci__957a3fba.log",
    "cnrd__yeelock/btsnoop_hci.log",
    "youhas97__bluetooth-mouse/btsnoop_hci.log",
    "whoisbe__pongbot-mcp/btsnoop_hci.log.last",
    "jpvargasdev__MachineSpiritTimetable/btsnoop_aaaa.log",
    "mauricelam__btsnoop-extcap/btsnoop_hci.log",
]
TIMEOUT = Decimal(10)

def micros(d):
    return int(d * 1_000_000)

def seconds_text(us):
    return float(Decimal(us) / 1_000_000)

vectors = []
for rel in CAPTURES:
    rows = list(csv.DictReader(open(os.path.join(SHARED, rel + ".tshark.csv"))))
    sightings = []  # (time Decimal, frame, identity hex)
    for r in rows:
        if r["beacon"] == "ibeacon":
            ident = r["ibeacon_uuid"].replace("-", "") + "%04x%04x" % (int(r["ibeacon_major"]), int(r["ibeacon_minor"]))
            sightings.append((Decimal(r["time_epoch"]), int(r["frame"]), ident))
    times = [Decimal(r["time_epoch"]) for r in rows] or [Decimal(0)]
    origin = max(0, int(min(times)) - 1)
    identities = []
    for _, _, ident in sorted(sightings, key=lambda s: (s[0], s[1])):
        if ident not in identities:
            identities.append(ident)
    content = {ident: base64.b64encode(("beacon %d" % (i + 1)).encode()).decode() for i, ident in enumerate(identities)}
    message = lambda ident: {"namespace": "field", "type": "beacon", "content": content[ident]}
    # Per identity: found/lost intervals from the sighting times, in µs after the origin.
    timed = []  # (time µs, phase 0 = timer (lost), 1 = sighting (found), order key, event)
    for ident in identities:
        ts = sorted(micros(t - origin) for t, _, i in sightings if i == ident)
        start = ts[0]
        last = ts[0]
        first_frame = min(f for t, f, i in sightings if i == ident and micros(t - origin) == start)
        timed.append((start, 1, first_frame, {"event": "found", "time": seconds_text(start), "subscription": "field", "message": message(ident)}))
        for t in ts[1:]:
            if t - last >= micros(TIMEOUT):
                timed.append((last + micros(TIMEOUT), 0, content[ident], {"event": "lost", "time": seconds_text(last + micros(TIMEOUT)), "subscription": "field", "message": message(ident)}))
                frame = min(f for tt, f, i in sightings if i == ident and micros(tt - origin) == t)
                timed.append((t, 1, frame, {"event": "found", "time": seconds_text(t), "subscription": "field", "message": message(ident)}))
            last = t
        timed.append((last + micros(TIMEOUT), 0, content[ident], {"event": "lost", "time": seconds_text(last + micros(TIMEOUT)), "subscription": "field", "message": message(ident)}))
    timed.sort(key=lambda e: (e[0], e[1], e[2]))
    registry = {"registry": 1, "beacons": [
        {"advertisedId": {"type": "IBEACON", "id": base64.b64encode(bytes.fromhex(ident)).decode()},
         "attachments": [{"namespacedType": "field/beacon", "data": content[ident]}]} for ident in identities]}
    kinds = sorted(set(r["beacon"] + ("-" + r["eddystone_frame"] if r["eddystone_frame"] else "") for r in rows))
    name = (rel.split("/")[0].split("__")[-1] + "-" + os.path.basename(rel).replace(".", "-").replace("_", "-")).lower()
    desc = ("Field capture %s (real device; ground truth %s.tshark.csv): %s. " % (rel, os.path.basename(rel), ", ".join(kinds) or "no beacon")
            + ("A registry attaches a message to each of its %d iBeacon identities (ENGINE-R2); found at each first sighting, lost 10 s after the last of each run (ENGINE-F1, ENGINE-F2, ENGINE-O2)." % len(identities)
               if identities else "No frame here identifies a registrable beacon (TLM and E2EE-EID frames carry no ID), so no event is expected (ENGINE-R2)."))
    clauses = ["ENGINE-R2", "ENGINE-F1", "ENGINE-F2", "ENGINE-O2"] if identities else ["ENGINE-R2"]
    vectors.append({
        "id": "field/" + name,
        "kind": "scenario",
        "description": desc,
        "clauses": clauses,
        "flags": ["Field"],
        "source": "field",
        "verdict": "valid",
        "skipWhenFilesAbsent": True,
        "toleranceSeconds": 0,
        "scenario": {"scenario": 1, "timeOrigin": {"unixSeconds": origin}, "registry": registry,
                     "events": [{"time": 0, "subscribe": {"id": "field", "deviceTypesToDiscover": ["bleBeacons"], "messageNamespace": "field",
                                                          "type": "beacon", "strategy": {"ttlSeconds": "infinite"}}}]},
        "captures": ["../../../shared/captures/" + rel],
        "expect": {"events": [e[3] for e in timed]},
    })

with open("Vectors/field/field-captures.json", "w") as f:
    doc = {"vectorFile": 1, "description": "Field captures kept beside the repository, never committed here; skipped when they are absent. Written by Scripts/field-vectors.py from each capture's ground-truth CSV.",
           "vectors": vectors}
    f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
print("%d vectors" % len(vectors), file=sys.stderr)
