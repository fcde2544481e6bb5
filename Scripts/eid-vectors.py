#!/usr/bin/env python3
"""Write Vectors/scenarios/eid.json: scenario vectors for the EID clauses of
docs/spec/eddystone-crypto.md that no other vector reaches: the 32-bit clock's wrap
(EID-CRYPTO-4), the registry values the resolver refuses (EID-CRYPTO-5, EID-CRYPTO-6, KEYS-2,
KEYS-5, EID-CRYPTO-12), beacons sharing an identity key (EID-CRYPTO-10) and a clock set back
(EID-CRYPTO-15), each with the engine rule that an EID stands for the attachments of every
beacon resolving it (ENGINE-R2A).

Every EID and identity key is computed here with Python's `cryptography` package (AES-128 in
ECB mode for one block, X25519, HKDF-SHA256), from the clauses' formulas, and every expected
event from a small model of the resolver's window (EID-CRYPTO-7, EID-CRYPTO-8) and of the
engine's found and lost (ENGINE-F1, ENGINE-F2, ENGINE-O2, ENGINE-O3), never from the tool.
Each vector's source is "hand": the values are the clauses' own arithmetic.

Run from anywhere: python3 Scripts/eid-vectors.py
"""
import base64
import hashlib
import json
import math
import os
from fractions import Fraction

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Vectors", "scenarios", "eid.json")
ORIGIN = 1_700_000_000          # the scenarios' time origin, Unix seconds
WRAP = 1 << 32
NAMESPACE = "proj"


# --- EID-CRYPTO-2, EID-CRYPTO-3 and KEYS-1, KEYS-3 ------------------------------------------

def aes(key, block):
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


def eid(ik, k, t):
    """The EID a beacon with identity key ik and exponent k sends while its clock reads t
    (taken modulo 2^32, EID-CRYPTO-4)."""
    t %= WRAP
    tk = aes(ik, bytes(11) + b"\xff" + bytes(2) + (t >> 16).to_bytes(2, "big"))
    start = t & ~((1 << k) - 1)
    return aes(tk, bytes(11) + bytes([k]) + start.to_bytes(4, "big"))[:8]


def public_key(private):
    return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def identity_key(resolver_private, beacon_public):
    shared = X25519PrivateKey.from_private_bytes(resolver_private).exchange(
        X25519PublicKey.from_public_bytes(beacon_public))
    salt = public_key(resolver_private) + beacon_public
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"").derive(shared)[:16]


def fixed(label, n=16):
    """A fixed key of n bytes, named by its label (same bytes on every run)."""
    return hashlib.sha256(label.encode()).digest()[:n]


def b64(data):
    return base64.b64encode(data).decode()


# --- The resolver's window (EID-CRYPTO-7, EID-CRYPTO-8, EID-CRYPTO-9) -----------------------

class Beacon:
    """A registered EID beacon: identity key, K, its clock c0 read at scenario second t0,
    and the content of its one attachment (proj/desk)."""

    def __init__(self, ik, k, c0, t0, content, reg=None, advertised_id=None):
        self.ik, self.k, self.c0, self.t0, self.content = ik, k, c0, t0, content
        self.reg = reg              # the ephemeralIdRegistration as written, when not the default
        self.advertised_id = advertised_id

    def window(self, t):
        """The period numbers the resolver compares at scenario second t."""
        elapsed = Fraction(t) - Fraction(self.t0)
        clock = self.c0 + math.floor(elapsed)                    # EID-CRYPTO-7: floor, not wrapped
        period = clock >> self.k                                  # floor for negatives too
        w = 1 + math.ceil((Fraction(150, 10**6) * abs(elapsed) + 1) / (1 << self.k))   # EID-CRYPTO-8
        half = 1 << (31 - self.k)                                 # EID-CRYPTO-9: never reached here
        assert 2 * w + 1 <= 2 * half, "window would be narrowed"
        return period, w

    def resolves(self, t, sent):
        period, w = self.window(t)
        assert 2 * w + 1 <= 4096, "these vectors keep the window small enough to compare EID by EID"
        return any(eid(self.ik, self.k, p << self.k) == sent for p in range(period - w, period + w + 1))

    def registration(self):
        if self.reg is not None:
            return self.reg
        return {"beaconIdentityKey": b64(self.ik), "rotationPeriodExponent": self.k,
                "initialClockValue": self.c0, "registeredAt": self.t0}

    def entry(self):
        adv = {"type": "EDDYSTONE_EID"}
        if self.advertised_id is not None:
            adv["id"] = self.advertised_id
        return {"advertisedId": adv, "ephemeralIdRegistration": self.registration(),
                "attachments": [{"namespacedType": NAMESPACE + "/desk", "data": self.content}]}


def message(content):
    return {"namespace": NAMESPACE, "type": "desk", "content": content}


def expected_events(beacons, sightings, timeout=10):
    """ENGINE-R2A with ENGINE-F1, F2, O2, O3 for one subscription ("eids", proj, every type,
    infinite TTL) that hears only these EID sightings (time, 8 EID bytes)."""
    found = {}                                                 # content -> last seen
    events = []

    def lose_until(t, inclusive):
        due = sorted((seen + timeout, c) for c, seen in found.items()
                     if seen + timeout < t or (inclusive and seen + timeout == t))
        for at, c in due:
            del found[c]
            events.append({"event": "lost", "time": at, "subscription": "eids", "message": message(c)})

    for t, sent in sightings:
        lose_until(t, inclusive=True)                          # ENGINE-O2: timers first
        contents = sorted({b.content for b in beacons if b.resolves(t, sent)}, key=lambda c: c.encode())
        for c in contents:
            if c not in found:
                events.append({"event": "found", "time": t, "subscription": "eids", "message": message(c)})
            found[c] = t
    lose_until(float("inf"), inclusive=True)
    order = {"lost": 0, "found": 1}
    events.sort(key=lambda e: (e["time"], order[e["event"]], e["message"]["content"].encode()))
    return events


def scenario(beacons, sightings, timeout=10, registry_beacons=None):
    events = [{"time": 0, "subscribe": {"id": "eids", "deviceTypesToDiscover": ["bleBeacons"],
                                        "messageNamespace": NAMESPACE,
                                        "strategy": {"ttlSeconds": "infinite"}}}]
    for t, sent in sightings:
        events.append({"time": t, "sighting": {"eddystoneEid": sent.hex()}})
    doc = {"scenario": 1, "timeOrigin": {"unixSeconds": ORIGIN},
           "registry": {"registry": 1, "beacons": registry_beacons or [b.entry() for b in beacons]},
           "events": events}
    if timeout != 10:
        doc["lostTimeoutSeconds"] = timeout
    return doc


VECTORS = []


def add(name, description, clauses, flags, doc, expect, verdict="valid"):
    VECTORS.append({"id": "scenario/eid/" + name, "kind": "scenario", "description": description,
                    "clauses": clauses, "flags": sorted(set(["Encrypted"] + flags)), "source": "hand",
                    "verdict": verdict, "scenario": doc, "expect": expect})


def valid(name, description, clauses, flags, beacons, sightings, timeout=10, events=None):
    """A vector whose events are the model's; `events`, when given, is what the clause says in
    so many words, and must agree with the model."""
    doc = scenario(beacons, sightings, timeout)
    got = expected_events(beacons, sightings, timeout)
    if events is not None:
        assert got == events, (name, got, events)
    add(name, description, clauses, flags, doc, {"events": got})


def refused(name, description, clauses, flags, doc, path, reason):
    add(name, description, clauses, flags, doc, {"refused": {"path": path, "reason": reason}}, "invalid")


def found_lost(content, t_found, t_lost):
    return [{"event": "found", "time": t_found, "subscription": "eids", "message": message(content)},
            {"event": "lost", "time": t_lost, "subscription": "eids", "message": message(content)}]


DESK = b64(b"desk")
LOBBY = b64(b"lobby")


def sent(beacon, clock):
    """What the beacon sends while its own clock reads `clock`."""
    return eid(beacon.ik, beacon.k, clock)


# --- EID-CRYPTO-4: the clock wraps ------------------------------------------------------------

def wrap_vectors():
    cl = ["EID-CRYPTO-4", "EID-CRYPTO-3", "EID-CRYPTO-7", "ENGINE-R2A"]
    b = Beacon(fixed("wrap-k15"), 15, 0xFFFF8000, 0, DESK)
    valid("wrap-k15-first-period-after",
          "K = 15, the clock registered at 0xFFFF8000 (the last period before 2^32): 32,868 s later it "
          "reads 2^32 + 100, which is period 0, and the EID of T = 0 resolves (found, then lost 10 s later).",
          cl, ["FieldBounds", "TimeBoundary"], [b], [(32868, sent(b, WRAP + 100))],
          events=found_lost(DESK, 32868, 32878))
    valid("wrap-k15-across",
          "K = 15, the clock passing 2^32 while the beacon is heard: EIDs of the last period "
          "(0xFFFF8000) at 32,760 and 32,765 s and of period 0 at 32,769 s are one beacon: one found, one lost.",
          cl + ["ENGINE-R4"], ["FieldBounds", "TimeBoundary"], [b],
          [(32760, sent(b, 0xFFFF8000 + 32760)), (32765, sent(b, 0xFFFF8000 + 32765)),
           (32769, sent(b, 0xFFFF8000 + 32769))],
          events=found_lost(DESK, 32760, 32779))
    b0 = Beacon(fixed("wrap-k0"), 0, 0xFFFFFFFD, 5, DESK)
    valid("wrap-k0-each-second",
          "K = 0, the clock registered at 0xFFFFFFFD at 5 s and heard every second: 0xFFFFFFFD, "
          "0xFFFFFFFE, 0xFFFFFFFF, then 0 and 1 after the wrap all resolve: one found, one lost.",
          cl + ["ENGINE-R4"], ["FieldBounds", "TimeBoundary"], [b0],
          [(5 + i, sent(b0, 0xFFFFFFFD + i)) for i in range(5)],
          events=found_lost(DESK, 5, 19))
    valid("wrap-k0-only-after",
          "K = 0, registered at 0xFFFFFFFD at 5 s and first heard at 10 s, when the clock reads "
          "2^32 + 2: the EID of T = 2 resolves.",
          cl, ["FieldBounds", "TimeBoundary"], [b0], [(10, sent(b0, WRAP + 2))],
          events=found_lost(DESK, 10, 20))
    # Registered at the Unix epoch, heard in 2023: 1,700,000,100 s later the clock has passed 2^32.
    long_ago = Beacon(fixed("wrap-k10-epoch"), 10, 0xF0000000, -ORIGIN, DESK)
    long_ago.reg = {"beaconIdentityKey": b64(long_ago.ik), "rotationPeriodExponent": 10,
                    "initialClockValue": 0xF0000000, "registeredAt": {"unixSeconds": 0}}
    clock = 0xF0000000 + ORIGIN + 100
    assert clock >= WRAP
    valid("wrap-k10-registered-at-epoch",
          "K = 10, registered at the Unix epoch with the clock at 0xF0000000 and heard 1,700,000,100 s "
          "later, when the clock has wrapped once: the EID of the expected period resolves.",
          cl + ["EID-CRYPTO-8"], ["FieldBounds"], [long_ago], [(100, sent(long_ago, clock))],
          events=found_lost(DESK, 100, 110))
    period, w = long_ago.window(100)
    assert w == 251, w
    for name, d, word in (("edge-ahead", w, "ahead"), ("edge-behind", -w, "behind")):
        valid("wrap-k10-registered-at-epoch-" + name,
              "The same beacon sending the EID of the period %d periods %s the expected one: the window "
              "is 1 + ceil((150 ppm of 1,700,000,100 s + 1 s) / 1024 s) = %d periods, so it resolves, the "
              "periods taken modulo 2^32." % (w, word, w),
              cl + ["EID-CRYPTO-8"], ["FieldBounds", "ClockDrift"], [long_ago],
              [(100, sent(long_ago, (period + d) << 10))], events=found_lost(DESK, 100, 110))
    valid("wrap-k10-registered-at-epoch-beyond-window",
          "The same beacon sending the EID of the period %d periods ahead of the expected one, one past "
          "the window: not resolved, no callback." % (w + 1),
          cl + ["EID-CRYPTO-8"], ["FieldBounds", "ClockDrift"], [long_ago],
          [(100, sent(long_ago, (period + w + 1) << 10))], events=[])


# --- Refused registrations: EID-CRYPTO-5, EID-CRYPTO-6, KEYS-2, KEYS-5, EID-CRYPTO-12 ------------

def base_beacon():
    return Beacon(fixed("refused"), 10, 1000, 0, DESK)


def refusal_doc(mutate):
    b = base_beacon()
    doc = scenario([b], [(2, sent(b, 1002))])
    mutate(doc["registry"]["beacons"][0])
    return doc


REG = "$.registry.beacons[0].ephemeralIdRegistration."
RESOLVER_PRIVATE = fixed("resolver-private", 32)
BEACON_PRIVATE = fixed("beacon-private", 32)


def ecdh_registration(public, private=RESOLVER_PRIVATE):
    return {"beaconEcdhPublicKey": b64(public), "serviceEcdhPrivateKey": b64(private),
            "rotationPeriodExponent": 10, "initialClockValue": 1000, "registeredAt": 0}


def refusal_vectors():
    for k in (16, 17, 255, -1):
        refused("exponent-%s" % ("minus-1" if k < 0 else k),
                "A registration with rotation exponent %d, outside 0 to 15: the scenario is refused at the "
                "exponent, the reason naming the value found." % k,
                ["EID-CRYPTO-5", "ENGINE-R2A"], ["FieldBounds", "InputLimit"],
                refusal_doc(lambda e: e["ephemeralIdRegistration"].__setitem__("rotationPeriodExponent", k)),
                REG + "rotationPeriodExponent", str(k))
    for n in (15, 17, 32):
        refused("identity-key-%d-bytes" % n,
                "A registration whose identity key is %d bytes, not the 16 of an AES-128 key: refused at the "
                "key, the reason naming the length found." % n,
                ["EID-CRYPTO-6", "ENGINE-R2A"], ["FieldBounds", "InputLimit"],
                refusal_doc(lambda e: e["ephemeralIdRegistration"].__setitem__("beaconIdentityKey",
                                                                               b64(fixed("short", n)))),
                REG + "beaconIdentityKey", str(n))
    beacon_public = public_key(BEACON_PRIVATE)
    for n in (31, 33):
        key = (beacon_public + b"\x01")[:n]
        refused("public-key-%d-bytes" % n,
                "A registration through ECDH whose beacon public key is %d bytes, not 32: refused at the "
                "public key, the reason naming the length found." % n,
                ["KEYS-5", "ENGINE-R2A"], ["FieldBounds", "InputLimit"],
                refusal_doc(lambda e: e.__setitem__("ephemeralIdRegistration", ecdh_registration(key))),
                REG + "beaconEcdhPublicKey", str(n))
        priv = (RESOLVER_PRIVATE + b"\x01")[:n]
        refused("private-key-%d-bytes" % n,
                "A registration through ECDH whose resolver private key is %d bytes, not 32: refused at the "
                "private key, the reason naming the length found." % n,
                ["KEYS-5", "ENGINE-R2A"], ["FieldBounds", "InputLimit"],
                refusal_doc(lambda e: e.__setitem__("ephemeralIdRegistration",
                                                    ecdh_registration(beacon_public, priv))),
                REG + "serviceEcdhPrivateKey", str(n))
    # KEYS-2: points of small order give a shared secret of all zeros (RFC 7748 §6.1).
    low_order = [("all-zero", "00" * 32, "u = 0, all zeros"),
                 ("u-1", "01" + "00" * 31, "u = 1, a point of order 4"),
                 ("order-8", "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800", "a point of order 8"),
                 ("p-minus-1", "ec" + "ff" * 30 + "7f", "u = p - 1, a point of order 2")]
    for name, hexkey, what in low_order:
        key = bytes.fromhex(hexkey)
        try:
            X25519PrivateKey.from_private_bytes(RESOLVER_PRIVATE).exchange(X25519PublicKey.from_public_bytes(key))
            raise AssertionError("X25519 accepted a low-order point")
        except ValueError:
            pass
        refused("public-key-low-order-" + name,
                "A registration through ECDH whose beacon public key is %s: the shared secret is all zeros "
                "and gives no identity key, so the scenario is refused at the public key." % what,
                ["KEYS-2", "ENGINE-R2A"], [],
                refusal_doc(lambda e: e.__setitem__("ephemeralIdRegistration", ecdh_registration(key))),
                REG + "beaconEcdhPublicKey", "shared secret")
    # EID-CRYPTO-12: advertisedId.id must be the EID the key, exponent and clock compute.
    b = base_beacon()
    right = sent(b, 1000)                   # K = 10, clock 1000: the period starting at 0
    flipped = bytes([right[0] ^ 0x01]) + right[1:]
    wrong = [("bit-flipped", flipped, "the right EID with its first bit flipped"),
             ("next-period", sent(b, 1024), "the EID of the next period (clock 1024)"),
             ("unmasked-clock", aes(aes(b.ik, bytes(11) + b"\xff" + bytes(4)), bytes(11) + bytes([10]) + (1000).to_bytes(4, "big"))[:8],
              "the EID computed from the clock 1000 without its 10 low bits cleared"),
             ("other-exponent", eid(b.ik, 9, 1000), "the EID of the same key and clock at K = 9")]
    for name, value, what in wrong:
        assert value != right
        refused("initial-eid-" + name,
                "A registration whose advertisedId.id is %s, not the EID its key, exponent and clock give: "
                "refused at that id." % what,
                ["EID-CRYPTO-12", "EID-CRYPTO-3", "ENGINE-R2A"], [],
                refusal_doc(lambda e: e["advertisedId"].__setitem__("id", b64(value))),
                "$.registry.beacons[0].advertisedId.id", "EID")
    good = base_beacon()
    good.advertised_id = b64(right)
    valid("initial-eid-matches",
          "A registration whose advertisedId.id is the EID of K = 10 at clock 1000 (the period starting at "
          "0, the low 10 bits cleared): accepted, and the beacon's EID at 2 s resolves.",
          ["EID-CRYPTO-12", "EID-CRYPTO-3", "ENGINE-R2A"], [], [good], [(2, sent(good, 1002))],
          events=found_lost(DESK, 2, 12))
    derived = Beacon(identity_key(RESOLVER_PRIVATE, beacon_public), 10, 1000, 0, DESK,
                     reg=ecdh_registration(beacon_public))
    # KEYS-1: the beacon's side of the exchange gives the same key.
    beacon_side = X25519PrivateKey.from_private_bytes(BEACON_PRIVATE).exchange(
        X25519PublicKey.from_public_bytes(public_key(RESOLVER_PRIVATE)))
    assert HKDF(algorithm=hashes.SHA256(), length=32, salt=public_key(RESOLVER_PRIVATE) + beacon_public,
                info=b"").derive(beacon_side)[:16] == derived.ik
    valid("ecdh-derived-key",
          "A registration through ECDH (the beacon's public key, the resolver's private key): the identity "
          "key is HKDF-SHA256 of the X25519 secret, salt resolver public then beacon public, and the EID "
          "the beacon computes with it resolves.",
          ["KEYS-1", "KEYS-3", "KEYS-4", "ENGINE-R2A"], [], [derived], [(2, sent(derived, 1002))],
          events=found_lost(DESK, 2, 12))


# --- EID-CRYPTO-10: beacons sharing an identity key -----------------------------------------------

def shared_key_vectors():
    ik = fixed("shared")
    cl = ["EID-CRYPTO-10", "ENGINE-R2A"]
    a, b = Beacon(ik, 10, 5000, 0, DESK), Beacon(ik, 10, 5000, 0, LOBBY)
    valid("shared-key-both-found",
          "Two registered beacons with one identity key, exponent and clock and different attachments: "
          "their EID stands for both, found together (by content) and lost together.",
          cl, ["MultipleStructures"], [a, b], [(3, sent(a, 5003))],
          events=[{"event": "found", "time": 3, "subscription": "eids", "message": message(DESK)},
                  {"event": "found", "time": 3, "subscription": "eids", "message": message(LOBBY)},
                  {"event": "lost", "time": 13, "subscription": "eids", "message": message(DESK)},
                  {"event": "lost", "time": 13, "subscription": "eids", "message": message(LOBBY)}])
    c = Beacon(ik, 10, 5000 + 3000, 3000, LOBBY)          # the same clock, read 3,000 s later
    valid("shared-key-registered-twice",
          "One beacon registered twice (a re-registration), its clock read at 0 s and again at 3,000 s, "
          "with different attachments: both registrations resolve its EID and both are found.",
          cl, ["MultipleStructures"], [a, c], [(3, sent(a, 5003))],
          events=[{"event": "found", "time": 3, "subscription": "eids", "message": message(DESK)},
                  {"event": "found", "time": 3, "subscription": "eids", "message": message(LOBBY)},
                  {"event": "lost", "time": 13, "subscription": "eids", "message": message(DESK)},
                  {"event": "lost", "time": 13, "subscription": "eids", "message": message(LOBBY)}])
    d = Beacon(ik, 10, 5000, 0, DESK)
    valid("shared-key-same-attachment",
          "Two registered beacons with one identity key and the same attachment: both resolve, and the one "
          "message they stand for is found once (ENGINE-R4).",
          cl + ["ENGINE-R4"], ["MultipleStructures"], [a, d], [(3, sent(a, 5003))],
          events=found_lost(DESK, 3, 13))
    e = Beacon(ik, 9, 5000, 0, LOBBY)
    valid("shared-key-other-exponent",
          "Two registered beacons with one identity key but exponents 10 and 9: the EID a K = 10 beacon "
          "sends holds K in its block, so only the K = 10 registration resolves it.",
          cl + ["EID-CRYPTO-3"], ["MultipleStructures"], [a, e], [(3, sent(a, 5003))],
          events=found_lost(DESK, 3, 13))


# --- EID-CRYPTO-15: a clock set back ----------------------------------------------------------------

def setback_vectors():
    cl = ["EID-CRYPTO-15", "EID-CRYPTO-8", "ENGINE-R2A"]
    for k in (4, 10):
        b = Beacon(fixed("setback-k%d" % k), k, 0, 0, DESK)
        period, w = b.window(7200)
        assert (7200 - 3600) >> k < period - w
        valid("clock-set-back-hour-k%d" % k,
              "K = %d: found at 100 s with the expected EID; at 7,200 s the beacon, restarted, sends the EID "
              "of its clock set back an hour (3,600 s), %d periods behind, outside the window of %d: not "
              "resolved, no second found." % (k, period - ((7200 - 3600) >> k), w),
              cl, ["ClockDrift", "TimestampPrecision"], [b], [(100, sent(b, 100)), (7200, sent(b, 3600))],
              events=found_lost(DESK, 100, 110))
    b = Beacon(fixed("setback-k15"), 15, 0, 0, DESK)
    period, w = b.window(200000)
    assert ((200000 - 86400) >> 15) == period - 3 and w == 2
    valid("clock-set-back-day-k15",
          "K = 15: at 200,000 s the beacon sends the EID of its clock set back a day (86,400 s, what a "
          "restart from a clock saved daily may cost): 3 periods behind, outside the window of 2: not resolved.",
          cl, ["ClockDrift", "TimestampPrecision"], [b], [(100, sent(b, 100)), (200000, sent(b, 200000 - 86400))],
          events=found_lost(DESK, 100, 110))
    assert ((200000 - 3600) >> 15) == period - 1
    valid("clock-set-back-hour-k15-inside-window",
          "K = 15: a clock set back an hour at 200,000 s is 1 period behind, inside the drift window of 2, "
          "so the EID still resolves: the window makes no allowance for restarts, but a set-back smaller "
          "than the window is not told apart from drift.",
          cl, ["ClockDrift", "TimestampPrecision"], [b], [(100, sent(b, 100)), (200000, sent(b, 200000 - 3600))],
          events=found_lost(DESK, 100, 110) + found_lost(DESK, 200000, 200010))


def main():
    wrap_vectors()
    refusal_vectors()
    shared_key_vectors()
    setback_vectors()
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == len(set(ids))
    doc = {"vectorFile": 1,
           "description": "Eddystone-EID resolution in the engine: the clock's wrap, refused registrations, "
                          "shared identity keys and clocks set back (docs/spec/eddystone-crypto.md, ENGINE-R2A); "
                          "written by Scripts/eid-vectors.py, every EID computed there from the clauses.",
           "vectors": VECTORS}
    with open(OUT, "w") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print("%d vectors -> %s" % (len(VECTORS), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
