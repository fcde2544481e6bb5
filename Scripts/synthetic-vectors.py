#!/usr/bin/env python3
"""Write Vectors/synthetic/*.json: scenario vectors over the synthesized captures in
Captures/synthetic/, with expected events derived from each capture's ground truth
(NAME.truth.json: when every frame was sighted) and the clauses of docs/spec/engine.md;
and Vectors/audio/synthetic.json, the NUT v1 frames of the synthesized recordings.

This is a second, deliberately small implementation of those clauses, applied scenario by
scenario below: which sightings count for which subscription, and when (ENGINE-A1 to
ENGINE-A6, ENGINE-R1 to ENGINE-R4); found at the first counted sighting, lost a full timeout
after the last or at once when a state change forgets the evidence (ENGINE-F1 to ENGINE-F4),
releases and expiries (ENGINE-F5 to ENGINE-F7), handler events (ENGINE-H1 to ENGINE-H4), and
the total order of events (ENGINE-O1 to ENGINE-O3). It never runs the Swift engine.

Every vector gets the metadata of Vectors/README.md: the clauses it tests (CLAUSES below,
per scenario), its flags, its source (`second-implementation` for the scenario vectors, whose
events this model computes; `synthesized` for the audio vectors, the synthesizer's ground
truth) and its verdict. The files are written as json.dumps(doc, indent=2,
ensure_ascii=False) writes them, each vector's keys in the order id, kind, description, the
metadata, then the rest.

Run after `nearby-conformance synthesize` has (re)written Captures/synthetic/NAME/:
    python3 Scripts/synthetic-vectors.py
"""
import base64
import json
import os
import sys
from decimal import Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYN = os.path.join(ROOT, "Captures", "synthetic")
OUT = os.path.join(ROOT, "Vectors", "synthetic")
RANK = {"permissionChanged": 0, "bluetoothPowerError": 1, "bluetoothPermissionError": 2,
        "microphonePermissionError": 3, "lost": 4, "subscriptionExpired": 5, "publicationExpired": 6, "found": 7}
INF = 1 << 62


def us(seconds):
    """Exact microseconds of a JSON number of seconds."""
    return int(Decimal(str(seconds)) * 1000000)


def seconds(micros):
    return float(Decimal(micros) / 1000000)


class Scenario:
    def __init__(self, name):
        self.name = name
        with open(os.path.join(SYN, name + ".scenario.json")) as f:
            self.doc = json.load(f)
        with open(os.path.join(SYN, name, name + ".truth.json")) as f:
            self.truth = json.load(f)
        self.timeout = us(self.doc.get("lostTimeoutSeconds", 10))
        self.registry = self.doc["registry"]

    def sightings(self, device, view, kind=None):
        """(time µs, identity) of the records carrying a device's frames (of one kind) in a
        view ('hci': the observer's HCI captures, 'air': the channel-37 sniffer)."""
        dev = next(d for d in self.truth["devices"] if d["name"] == device)
        out = []
        for f in dev["frames"]:
            if kind is None or f["kind"] == kind:
                out += [(us(s[0]), frame_id(f)) for s in f[view]["sightings"]]
        return sorted(out, key=lambda p: p[0])

    def heard(self):
        """Audio sightings in the synthesized sound file (NUT-53): each frame's end, for the
        frames loud enough to decode (in-band SNR >= 0 dB, 8 dB above the reference decoder's
        95 % point in docs/spec/nut-audio.md, "Results"). Frames at or below -18 dB are never heard (no
        frame decodes 6 dB below the sweep's last decoded point); a frame in between has
        no certain outcome, so the scenario must not have one."""
        out = []
        for b in self.truth.get("audio", {}).get("broadcasters", []):
            for f in b["frames"]:
                snr = float(f["snrDb"])
                if snr >= 0:
                    out.append((us(f["end"]), ("TOKEN", b["token"])))
                elif snr > -18:
                    sys.exit("%s: %s's frame at %s s has an in-band SNR of %s dB, where decoding is uncertain"
                             % (self.name, b["name"], f["start"], f["snrDb"]))
        return sorted(out)

    def audio(self):
        """The scenario's own audio token sightings."""
        return [(us(e["time"]), ("TOKEN", e["sighting"]["token"])) for e in self.doc["events"]
                if "sighting" in e and e["sighting"].get("medium") == "audio"]

    # Registry lookups (ENGINE-R1, ENGINE-R2), written from docs/scenario-format.md.
    def token_messages(self, token, t, medium):
        msgs = []
        for p in self.registry.get("publications", []):
            if not (us(p.get("from", 0)) <= t < us(p.get("until", 10**10))):
                continue
            for a in p["tokens"]:
                if a["token"] == token and us(a.get("from", 0)) <= t < us(a.get("until", 10**10)) \
                        and medium in a.get("mediums", ["ble", "audio"]):
                    msgs.append(message(p["message"]))
        return msgs

    def beacon_messages(self, kind, hexid, t):
        raw = base64.b64encode(bytes.fromhex(hexid)).decode()
        msgs = []
        for b in self.registry.get("beacons", []):
            if kind == "EDDYSTONE_EID" and b["advertisedId"]["type"] == kind and self.eid_resolves(b["ephemeralIdRegistration"], hexid, t):
                for a in b["attachments"]:
                    ns, ty = a["namespacedType"].split("/", 1)
                    msgs.append({"namespace": ns, "type": ty, "content": a["data"]})
            elif b["advertisedId"]["type"] == kind and b["advertisedId"].get("id") == raw:
                for a in b["attachments"]:
                    ns, ty = a["namespacedType"].split("/", 1)
                    msgs.append({"namespace": ns, "type": ty, "content": a["data"]})
        if kind == "EDDYSTONE":
            msgs.append({"namespace": "__reserved_namespace", "type": "__eddystone_uid", "content": raw})
        if kind == "IBEACON":
            msgs.append({"namespace": "__reserved_namespace", "type": "__i_beacon_id", "content": raw})
        return msgs


    def eid_resolves(self, reg, hexid, t):
        """ENGINE-R2 for Eddystone-EID, from EID-CRYPTO-7 and EID-CRYPTO-8: the EID of some
        rotation period within 1 + ceil((150e-6 * |elapsed| + 1 s) / 2^K) periods of the one
        the beacon's clock should be in at t. EIDs by eid_computation(), written from
        EID-CRYPTO-2 and EID-CRYPTO-3 with the Python 'cryptography' package, not the Swift
        code."""
        if "beaconIdentityKey" in reg:
            ik = base64.b64decode(reg["beaconIdentityKey"])
        else:
            ik = identity_key(base64.b64decode(reg["serviceEcdhPrivateKey"]), base64.b64decode(reg["beaconEcdhPublicKey"]))
        k = reg["rotationPeriodExponent"]
        at = reg["registeredAt"]
        registered = us(at["unixSeconds"]) - us(self.doc["timeOrigin"]["unixSeconds"]) if isinstance(at, dict) else us(at)
        elapsed = t - registered
        expected = (reg["initialClockValue"] + (elapsed // 1_000_000)) >> k      # floor, as the clock ticks whole seconds
        window = 1 + -(-(150e-6 * abs(elapsed) / 1e6 + 1) // (1 << k))
        window = int(window)
        return any(eid_computation(ik, k, ((expected + d) << k) & 0xFFFFFFFF) == hexid for d in range(-window, window + 1))


def aes_block(key, block):
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return e.update(block) + e.finalize()


def eid_computation(ik, k, t):
    """EID-CRYPTO-2, EID-CRYPTO-3: TK = AES(IK, 0^11 FF 00 00 (t>>16)); EID = AES(TK, 0^11 K (t & ~(2^K-1)))[:8]."""
    tk = aes_block(ik, bytes(11) + b"\xff" + bytes(2) + ((t >> 16) & 0xFFFF).to_bytes(2, "big"))
    return aes_block(tk, bytes(11) + bytes([k]) + (t & ~((1 << k) - 1) & 0xFFFFFFFF).to_bytes(4, "big"))[:8].hex()


def identity_key(resolver_private, beacon_public):
    """KEYS-1, KEYS-3: HKDF-SHA256(X25519(resolver, beacon), salt = resolver pub || beacon pub)[:16]."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    r = X25519PrivateKey.from_private_bytes(resolver_private)
    rpub = r.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    shared = r.exchange(X25519PublicKey.from_public_bytes(beacon_public))
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=rpub + beacon_public, info=b"").derive(shared)[:16]


def message(m):
    return {"namespace": m.get("namespace", ""), "type": m.get("type", ""), "content": m["content"]}


def frame_id(frame):
    """(registry kind, hex id) of a beacon frame from its AD data, or ('TOKEN', hex)."""
    ad = bytes.fromhex(frame["adData"])
    if frame["kind"] == "eddystone-uid":
        i = ad.index(bytes([0x16, 0xAA, 0xFE])) + 3
        return "EDDYSTONE", ad[i + 2:i + 18].hex()
    if frame["kind"] == "eddystone-eid":
        i = ad.index(bytes([0x16, 0xAA, 0xFE, 0x30])) + 3
        return "EDDYSTONE_EID", ad[i + 2:i + 10].hex()
    if frame["kind"] == "ibeacon":
        i = ad.index(bytes([0x4C, 0x00, 0x02, 0x15])) + 4
        return "IBEACON", ad[i:i + 20].hex()
    if frame["kind"] == "altbeacon":
        i = ad.index(bytes([0xBE, 0xAC])) + 2
        return "ALTBEACON", ad[i:i + 20].hex()
    if frame["kind"] == "token-v1":
        i = ad.index(bytes([0xF3, 0xFE, 0xF7])) + 3
        n = ad[i + 1]
        return "TOKEN", ad[i + 2:i + 2 + n].hex()
    return None, None


def matches(msg, ns, ty):
    return msg["namespace"] == ns and msg["type"] == ty


def evidence(sc, sources, ns, ty):
    """{message key: {source: [times]}} for the messages of namespace/type that the
    (source name, [(time, frame)], medium) lists resolve to."""
    out = {}
    for source, items, medium in sources:
        for t, (kind, ident) in items:
            if kind is None:
                continue          # TLM and other frames name no beacon
            msgs = sc.token_messages(ident, t, medium) if kind == "TOKEN" else sc.beacon_messages(kind, ident, t)
            for m in msgs:
                if matches(m, ns, ty):
                    key = json.dumps(m, sort_keys=True)
                    out.setdefault(key, {}).setdefault(source, []).append(t)
    return out


def found_lost(sub, msg_key, by_source, timeout, counts=None, cuts=(), stop=None):
    """ENGINE-F1 to ENGINE-F4 for one subscription and one message. by_source: {source: [times]};
    counts(source, t): whether a sighting counts (ENGINE-A1 to ENGINE-A6); cuts: [(t, sources)]
    state changes that forget those sources' evidence (ENGINE-F3); stop: (t, kind) release or
    expiry (ENGINE-F5, ENGINE-F6)."""
    msg = json.loads(msg_key)
    items = [(t, 1, s) for s, ts in by_source.items() for t in ts if counts is None or counts(s, t)]
    items += [(t, 0, set(srcs)) for t, srcs in cuts]   # scenario events first at one instant (ENGINE-O1)
    items.sort(key=lambda x: (x[0], x[1]))
    events, ev = [], {}

    def deadline():
        return max(ev.values()) + timeout if ev else INF

    for t, is_sighting, what in items:
        if stop and t >= stop[0]:
            break
        if ev and deadline() <= t:                        # timers before inputs (ENGINE-O2)
            events.append(("lost", deadline(), sub, msg))
            ev.clear()
        if not is_sighting:
            if ev and not (set(ev) - what):
                events.append(("lost", t, sub, msg))
                ev.clear()
            else:
                for s in what:
                    ev.pop(s, None)
            continue
        if not ev:
            events.append(("found", t, sub, msg))
        ev[what] = t
    if ev:
        if stop and deadline() >= stop[0]:
            if stop[1] == "expire":
                events.append(("lost", stop[0], sub, msg))
        else:
            events.append(("lost", deadline(), sub, msg))
    return events


def ordered(events):
    def key(e):
        kind, t, who, msg = e
        m = (msg["namespace"].encode(), msg["type"].encode(), base64.b64decode(msg["content"])) if msg else ()
        return (t, RANK[kind], who.encode(), m)
    out = []
    for kind, t, who, msg in sorted(events, key=key):
        o = {"event": kind, "time": seconds(t)}
        if kind in ("found", "lost", "subscriptionExpired"):
            o["subscription"] = who
        if kind == "publicationExpired":
            o["publication"] = who
        if msg:
            o["message"] = msg
        out.append(o)
    return out


def handler(kind, t, value):
    key = "granted" if kind == "permissionChanged" else "hasError"
    return {"event": kind, "time": seconds(t), key: value}


def merge(events, handlers=()):
    """Engine events plus handler events, in the total order (ENGINE-O3)."""
    rows = [(e["time"], RANK[e["event"]], e.get("subscription", "").encode(), i, e) for i, e in enumerate(ordered(events))]
    rows += [(h["time"], RANK[h["event"]], b"", -1, h) for h in handlers]
    return [r[-1] for r in sorted(rows, key=lambda r: r[:4])]


def all_found_lost(sc, sub, ns, ty, sources, **kw):
    ev = evidence(sc, sources, ns, ty)
    out = []
    for key, by_source in ev.items():
        out += found_lost(sub, key, by_source, sc.timeout, **kw)
    return out


# ---- the scenarios: which sightings count for whom, written from the rules ----

def office_walk(sc, view):
    beacons = [("beacon", sc.sightings(d, view, k), "ble") for d, k in
               [("door", "eddystone-uid"), ("desk", "eddystone-uid"), ("door", "eddystone-tlm")]]
    ibeacons = [("iBeacon", sc.sightings("lobby", view, "ibeacon"), "ble")]
    ev = all_found_lost(sc, "doors", "proj", "door", beacons + ibeacons)                     # ENGINE-R2, ENGINE-A4
    ev += all_found_lost(sc, "raw-uid", "__reserved_namespace", "__eddystone_uid", beacons)   # ENGINE-R2 reserved
    ev += all_found_lost(sc, "raw-ibeacon", "__reserved_namespace", "__i_beacon_id", ibeacons)
    return merge(ev)


def phones_rotate(sc, view):
    ble = [("bleToken", sc.sightings(d, view, "token-v1"), "ble") for d in ("phone-a", "phone-b", "phone-c")]
    return merge(all_found_lost(sc, "chat", "", "chat", ble + [("audioToken", sc.audio(), "audio")]))   # ENGINE-R1, ENGINE-R4


def bluetooth_off(sc, view):
    srcs = [("beacon", sc.sightings("door", view, "eddystone-uid"), "ble"),
            ("bleToken", sc.sightings("alice", view, "token-v1"), "ble")]
    off, on = us(30), us(45)
    ble_counts = lambda s, t: s == "audioToken" or not (off <= t < on)                     # ENGINE-A2
    ev = all_found_lost(sc, "doors", "proj", "door", srcs + [("audioToken", sc.audio(), "audio")],
                        counts=ble_counts, cuts=[(off, {"beacon", "bleToken"})])            # ENGINE-F3, ENGINE-F4, ENGINE-R4
    return merge(ev, [handler("bluetoothPowerError", off, True), handler("bluetoothPowerError", on, False)])  # ENGINE-H2


def background(sc, view):
    bg, fg = us(40), us(70)
    ev = all_found_lost(sc, "desks", "proj", "desk", [("beacon", sc.sightings("desk", view, "eddystone-uid"), "ble")],
                        counts=lambda s, t: not (bg <= t < fg), cuts=[(bg, {"beacon"})])    # ENGINE-A3, ENGINE-F3, ENGINE-F4
    ev += all_found_lost(sc, "chat", "", "chat", [("bleToken", sc.sightings("bob", view, "token-v1"), "ble")])
    return merge(ev)


def crowded(sc, view):
    srcs = [("beacon", sc.sightings(d, view), "ble") for d in ("r21", "r22", "r23", "lobby", "ffff", "alt")]
    return merge(all_found_lost(sc, "rooms", "proj", "room", srcs))                              # ENGINE-R2, ENGINE-R3


def permission_revoked(sc, view):
    off, on = us(30), us(50)
    srcs = [("beacon", sc.sightings("door", view), "ble"), ("bleToken", sc.sightings("bob", view, "token-v1"), "ble")]
    ev = all_found_lost(sc, "doors", "proj", "door", srcs, counts=lambda s, t: not (off <= t < on),
                        cuts=[(off, {"beacon", "bleToken"})])                                 # ENGINE-A1, ENGINE-F3, ENGINE-F4
    return merge(ev, [handler("permissionChanged", off, False), handler("permissionChanged", on, True)])  # ENGINE-H1


def ttl_and_release(sc, view):
    start = us(2)
    srcs = [("beacon", sc.sightings("desk", view, "eddystone-uid"), "ble")]
    after = lambda s, t: t >= start                                                          # ENGINE-A1
    ev = all_found_lost(sc, "short", "proj", "desk", srcs, counts=after, stop=(us(32), "expire"))     # ENGINE-F6
    ev += [("subscriptionExpired", us(32), "short", None)]
    ev += all_found_lost(sc, "released", "proj", "desk", srcs, counts=after, stop=(us(45), "release"))  # ENGINE-F5
    ev += all_found_lost(sc, "long", "proj", "desk", srcs, counts=after)                    # ENGINE-F8
    return merge(ev)


def location_ibeacon(sc, view):
    granted = us(20)
    uid = [("beacon", sc.sightings("door", view, "eddystone-uid"), "ble")]
    ib = [("iBeacon", sc.sightings("lobby", view, "ibeacon"), "ble")]
    # ENGINE-A6: both subscriptions start at 0 with lowPowerPreferred on; an Eddystone sighting counts
    # outside the low-power scan windows (512 ms every 5.12 s from the subscription) only while
    # iBeacon ranging runs, which needs includeIBeacons and the location permission (ENGINE-A4).
    window = lambda t: t % us(5.12) < us(0.512)
    ev = all_found_lost(sc, "doors", "proj", "door", uid + ib,
                        counts=lambda s, t: t >= granted or (s == "beacon" and window(t)))  # ENGINE-A4, ENGINE-A6
    ev += all_found_lost(sc, "no-ibeacons", "proj", "door", uid, counts=lambda s, t: window(t))  # ENGINE-A6
    return merge(ev)


def audio_meeting(sc, view):
    mic_off, mic_on, bg, fg = us(12), us(16), us(28), us(32)
    audio = [("audioToken", sc.heard(), "audio")]
    ble = [("bleToken", sc.sightings("dana-phone", view, "token-v1"), "ble")]

    def counts(s, t):
        if bg <= t < fg:
            return False                          # ENGINE-A3: audio never, BLE tokens need allowInBackground
        return not (s == "audioToken" and mic_off <= t < mic_on)                             # ENGINE-A2
    ev = all_found_lost(sc, "chat", "", "chat", ble + audio, counts=counts,
                        cuts=[(mic_off, {"audioToken"}), (bg, {"audioToken", "bleToken"})])  # ENGINE-R1, ENGINE-R4, ENGINE-F3, ENGINE-F4
    ev += all_found_lost(sc, "by-ear", "", "chat", audio, counts=counts,
                         cuts=[(mic_off, {"audioToken"}), (bg, {"audioToken"})])
    return merge(ev, [handler("microphonePermissionError", mic_off, True),
                      handler("microphonePermissionError", mic_on, False)])                  # ENGINE-H4


def audio_notes(sc, view):
    return merge(all_found_lost(sc, "notes", "", "note", [("audioToken", sc.heard(), "audio")]))  # ENGINE-R1, ENGINE-F1, ENGINE-F2


def stop_nearby(sc, view):
    deny, grant, ttl, stop = us(8), us(12), us(20), us(30)
    ble = [("bleToken", sc.sightings("ivy-phone", view, "token-v1"), "ble")]
    ev = all_found_lost(sc, "scan", "", "chat", ble, counts=lambda s, t: not (deny <= t < grant),      # ENGINE-A2
                        cuts=[(deny, {"bleToken"})], stop=(stop, "expire"))                         # ENGINE-F3, ENGINE-F4, ENGINE-F7
    # "quiet" is broadcast only: it counts nothing (ENGINE-A5); the observer's own message "mine" is
    # in no registry, so nothing finds it (ENGINE-P2).
    ev += [("subscriptionExpired", stop, "scan", None), ("subscriptionExpired", stop, "quiet", None)]  # ENGINE-F7
    ev += [("publicationExpired", ttl, "mine", None)]                                                # ENGINE-P1
    return merge(ev, [handler("bluetoothPermissionError", deny, True),
                      handler("bluetoothPermissionError", grant, False)])                           # ENGINE-H3


def eid_rotation(sc, view):
    # ENGINE-R2: each EID frame resolves to its registered beacon (or, for the stranger, to nothing);
    # ENGINE-R4: a beacon's rotated EIDs stand for one message, so one found and one lost each.
    eids = [("beacon", sc.sightings(d, view, "eddystone-eid"), "ble") for d in ("desk-eid", "lobby-eid", "stranger-eid")]
    return merge(all_found_lost(sc, "desks", "proj", "desk", eids))


# The clauses each scenario's vectors test: the engine clauses the model above applies to it, and
# the format clauses of the frames it hears (the BLE token's, the audio frames').
TOKEN_SEEN = ["TOKEN-1", "TOKEN-6", "TOKEN-18"]
AUDIO_HEARD = ["NUT-1", "NUT-32", "NUT-46", "NUT-50", "NUT-53"]
CLAUSES = {
    "office-walk": ["ENGINE-A4", "ENGINE-R2", "ENGINE-R3", "ENGINE-F1", "ENGINE-F2"],
    "phones-rotate": ["ENGINE-R1", "ENGINE-R4", "ENGINE-F1", "ENGINE-F2"] + TOKEN_SEEN,
    "bluetooth-off": ["ENGINE-A2", "ENGINE-R4", "ENGINE-F3", "ENGINE-F4", "ENGINE-H2"] + TOKEN_SEEN,
    "background": ["ENGINE-A3", "ENGINE-F3", "ENGINE-F4"] + TOKEN_SEEN,
    "crowded": ["ENGINE-R2", "ENGINE-R3", "ENGINE-F1", "ENGINE-F2", "ENGINE-O3"],
    "permission-revoked": ["ENGINE-A1", "ENGINE-F3", "ENGINE-F4", "ENGINE-H1"] + TOKEN_SEEN,
    "ttl-and-release": ["ENGINE-A1", "ENGINE-F5", "ENGINE-F6", "ENGINE-F8", "ENGINE-O3"],
    "location-ibeacon": ["ENGINE-A4", "ENGINE-A6", "ENGINE-R2", "ENGINE-F1"],
    "audio-meeting": ["ENGINE-A2", "ENGINE-A3", "ENGINE-R1", "ENGINE-R4", "ENGINE-F3", "ENGINE-F4", "ENGINE-H4"]
    + TOKEN_SEEN + AUDIO_HEARD,
    "audio-notes": ["ENGINE-R1", "ENGINE-F1", "ENGINE-F2"] + AUDIO_HEARD,
    "stop-nearby": ["ENGINE-A2", "ENGINE-A5", "ENGINE-F3", "ENGINE-F4", "ENGINE-F7", "ENGINE-F9", "ENGINE-H3",
                    "ENGINE-P1", "ENGINE-P2"] + TOKEN_SEEN,
    "eid-rotation": ["ENGINE-R2A", "ENGINE-R4", "ENGINE-F1", "ENGINE-F2", "EID-CRYPTO-1", "EID-CRYPTO-2",
                     "EID-CRYPTO-3", "EID-CRYPTO-7", "EID-CRYPTO-8", "KEYS-1", "KEYS-3", "KEYS-4"],
}
# The input classes (Vectors/schema/flags.json) of each scenario, and of each container.
FLAGS = {
    "office-walk": ["Filter", "ManufacturerData", "MultipleStructures"],
    "phones-rotate": ["ChainedReport", "ExtendedReport", "MultipleStructures"],
    "bluetooth-off": ["Medium"],
    "background": ["Lifecycle"],
    "crowded": ["ManufacturerData", "MultipleStructures"],
    "permission-revoked": ["Permission"],
    "ttl-and-release": ["TimeBoundary"],
    "location-ibeacon": ["ManufacturerData", "Permission"],
    "audio-meeting": ["Lifecycle", "Medium", "Permission", "SampleRate"],
    "audio-notes": [],
    "stop-nearby": ["Permission"],
    "eid-rotation": ["Encrypted"],
}
CONTAINER_FLAGS = {"256": ["LinkLayer"]}
# The NUT clauses an audio vector tests: the waveforms and byte layer its decoder must read, the
# input rules, and the frames it must report with their starts.
AUDIO_CLAUSES = (["NUT-1"] + ["NUT-%d" % n for n in range(3, 9)] + ["NUT-%d" % n for n in range(10, 18)]
                 + ["NUT-19"] + ["NUT-%d" % n for n in range(20, 26)] + ["NUT-%d" % n for n in range(27, 33)]
                 + ["NUT-34", "NUT-37", "NUT-46", "NUT-47", "NUT-48", "NUT-49", "NUT-52"])
ENGINE_RULE = __import__("re").compile(r"(?<![A-Za-z0-9-])([AROFHPDLV][0-9])\b")


def engine_clauses(text):
    """A scenario's own description with its rule ids written as clause ids (A2 -> ENGINE-A2)."""
    return ENGINE_RULE.sub(r"ENGINE-\1", text)


def sorted_keys(value):
    """The value with every object's keys sorted, as the files were first written."""
    if isinstance(value, dict):
        return {k: sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(v) for v in value]
    return value


def with_metadata(vector, clauses, flags, source, verdict="valid"):
    """The vector's keys in the order id, kind, description, clauses, flags, source, verdict,
    then the rest sorted; values with sorted keys."""
    out = {k: vector[k] for k in ("id", "kind", "description")}
    out.update(clauses=clauses, flags=sorted(set(flags)), source=source, verdict=verdict)
    out.update((k, sorted_keys(vector[k])) for k in sorted(vector) if k not in out)
    return out


def write(path, description, vectors):
    doc = {"vectorFile": 1, "description": description, "vectors": vectors}
    with open(path, "w") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


CAPTURES = {"btsnoop": ("{n}.btsnoop", "hci", "btsnoop H4 (1002)"), "201": ("{n}-201.pcap", "hci", "pcap LINKTYPE 201"),
            "187": ("{n}-187.pcap", "hci", "pcap LINKTYPE 187"), "256": ("{n}-256.pcap", "air", "pcap LINKTYPE 256, channel-37 sniffer")}
PLAN = [("office-walk", office_walk, ["btsnoop", "201", "187", "256"]),
        ("phones-rotate", phones_rotate, ["btsnoop", "201"]),
        ("bluetooth-off", bluetooth_off, ["btsnoop", "187"]),
        ("background", background, ["btsnoop", "201"]),
        ("crowded", crowded, ["btsnoop", "201", "256"]),
        ("permission-revoked", permission_revoked, ["btsnoop", "187"]),
        ("ttl-and-release", ttl_and_release, ["btsnoop", "201"]),
        ("location-ibeacon", location_ibeacon, ["btsnoop", "256"]),
        ("audio-meeting", audio_meeting, ["btsnoop+flac", "201+flac"]),
        ("audio-notes", audio_notes, ["flac"]),
        ("stop-nearby", stop_nearby, ["btsnoop", "201"]),
        ("eid-rotation", eid_rotation, ["btsnoop", "201", "256"])]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, rule, captures in PLAN:
        sc = Scenario(name)
        vectors = []
        for c in captures:
            container = c.split("+")[0]
            sound = "flac" in c.split("+")
            path, view, label = CAPTURES[container] if container in CAPTURES else (None, "hci", None)
            labels = ([label] if label else []) + (["the microphone's recording (%s)" % sc.truth["files"][-1]] if sound else [])
            v = {
                "id": "scenario/synthetic/%s/%s" % (name, c.replace("+", "-")),
                "kind": "scenario",
                "description": "%s Capture: %s, synthesized (Captures/synthetic/%s); expected events from its ground truth (%s.truth.json, %s view) by Scripts/synthetic-vectors.py%s." % (
                    engine_clauses(sc.doc["description"]), " and ".join(labels), name, name, view,
                    "; audio sightings at the ends of the frames the truth lists, within 1 ms (NUT-53)" if sound else ""),
                "toleranceSeconds": 0.001 if sound else 0,
                "scenario": "../../Captures/synthetic/%s.scenario.json" % name,
                "captures": ["../../Captures/synthetic/%s/%s" % (name, path.format(n=name))] if path else [],
                "expect": {"events": rule(sc, view)},
            }
            if sound:
                v["audio"] = ["../../Captures/synthetic/%s/%s" % (name, sc.truth["files"][-1])]
            vectors.append(with_metadata(v, CLAUSES[name], FLAGS[name] + CONTAINER_FLAGS.get(container, []),
                                         "second-implementation"))
        write(os.path.join(OUT, name + ".json"),
              "Synthesized captures of '%s' (docs/synthesis.md); generated by Scripts/synthetic-vectors.py from the ground truth." % name,
              vectors)
        print(name, [len(v["expect"]["events"]) for v in vectors], file=sys.stderr)
    write_audio_vectors()


def write_audio_vectors():
    """Vectors/audio/synthetic.json: each synthesized sound file -> the frames the decoder must
    report (those the truth says are heard), in the decoder's order (start, mode, token)."""
    vectors = []
    for name, _, captures in PLAN:
        if not any("flac" in c.split("+") for c in captures):
            continue
        sc = Scenario(name)
        a = sc.truth["audio"]
        frames = []
        for b in a["broadcasters"]:
            for f in b["frames"]:
                if float(f["snrDb"]) >= 0:
                    frames.append({"token": b["token"], "mode": b["mode"], "start": float(f["start"]), "channel": 0})
        frames.sort(key=lambda f: (f["start"], f["mode"], f["token"]))
        quiet = sorted({b["name"] for b in a["broadcasters"] if any(float(f["snrDb"]) < 0 for f in b["frames"])})
        flags = ["MultipleStructures"] + ([] if a["sampleRate"] == 44100 else ["SampleRate"])
        vectors.append(with_metadata({
            "id": "audio/synthetic/%s" % name,
            "kind": "audio",
            "description": "NUT v1 frames in a synthesized recording (Captures/synthetic/%s, %d Hz, white noise at %s dBFS%s): every frame the ground truth lists at >= 0 dB in-band SNR is decoded (NUT-46), with its start within 1 ms (NUT-47 to NUT-49), and nothing else (NUT-37)%s." % (
                name, a["sampleRate"], a["noiseDbfs"], ", modes " + "+".join(sorted({b["mode"] for b in a["broadcasters"]})),
                "; %s too quiet to decode (<= -18 dB)" % ", ".join(quiet) if quiet else ""),
            "toleranceSeconds": 0.001,
            "audio": "../../Captures/synthetic/%s/%s" % (name, sc.truth["files"][-1]),
            "expect": {"frames": frames},
        }, AUDIO_CLAUSES, flags, "synthesized"))
    os.makedirs(os.path.join(ROOT, "Vectors", "audio"), exist_ok=True)
    write(os.path.join(ROOT, "Vectors", "audio", "synthetic.json"),
          "Audio vectors over the synthesized recordings (docs/synthesis.md); generated by Scripts/synthetic-vectors.py from the ground truth.",
          vectors)


if __name__ == "__main__":
    main()
