#!/usr/bin/env python3
"""beacondecoder (https://pypi.org/project/beacondecoder/) behind the interop protocol: frames
level, AD data only.

`beacondecoder.decode(data)` takes an advertisement's AD data as upper-case hex text and finds
a frame by searching that text for marker substrings (`16AAFE00` for Eddystone-UID, `4C000215`
for iBeacon, …), as the Ruuvi gateways that use it pass it. It reads no HCI or link-layer packet
(`unsupported`).

Field mapping (beacondecoder 0.7.7): `dataFormat` 10 UID (`rssi@0m` as `txPower`, `namespace`,
`instance`, hex lower-cased), 11 URL (`rssi@0m`, `url`), 12 TLM (`batteryVoltage` in volts,
reported ×1000 as `batteryMillivolts`; `temperature`; `advCnt` as `advertisingCount`; `secCnt`
as `uptimeSeconds`, which is what the library calls it), 13 eTLM (`eTLM`, `salt`, `MIC`), 14 EID
(`rssi@0m`, `EID`). Quirks found: the iBeacon branch builds its result and returns nothing, so no
iBeacon is ever decoded; the TLM battery skips the first hex digit and the counts read 2 of
their 4 bytes; the EID keeps the Tx power byte as its first byte. The library's answers are
never changed.
"""
from importlib import metadata

from beacondecoder import decode

from nearby_interop import Unsupported, serve

BEACONS = {
    "eddystone-uid": ["txPower", "namespace", "instance"],
    "eddystone-url": ["txPower", "url"],
    "eddystone-tlm": ["batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds"],
    "eddystone-etlm": ["encryptedTlm", "salt", "mic"],
    "eddystone-eid": ["txPower", "eid"],
    "ibeacon": ["uuid", "major", "minor", "measuredPower"],
}


def beacon(r):
    """The library's dict as a beacon object of docs/decode-output.md, or None."""
    kind = r.get("dataFormat")
    if kind == 10:
        return {"type": "eddystone-uid", "txPower": r["rssi@0m"], "namespace": r["namespace"].lower(),
                "instance": r["instance"].lower()}
    if kind == 11:
        return {"type": "eddystone-url", "txPower": r["rssi@0m"], "url": r["url"]}
    if kind == 12:
        return {"type": "eddystone-tlm", "batteryMillivolts": round(r["batteryVoltage"] * 1000),
                "temperatureCelsius": r["temperature"], "advertisingCount": r["advCnt"], "uptimeSeconds": r["secCnt"]}
    if kind == 13:
        return {"type": "eddystone-etlm", "encryptedTlm": r["eTLM"].lower(), "salt": r["salt"].lower(),
                "mic": r["MIC"].lower()}
    if kind == 14:
        return {"type": "eddystone-eid", "txPower": r["rssi@0m"], "eid": r["EID"].lower()}
    return None


def frame(request):
    f = request["frame"]
    if "adData" not in f:
        raise Unsupported("beacondecoder reads AD data as hex text, not HCI or link-layer packets")
    result = decode(f["adData"].upper())
    b = beacon(result) if result else None
    return {"beacons": [b] if b else []}


if __name__ == "__main__":
    serve("beacondecoder", metadata.version("beacondecoder"), {"frames": frame}, beacons=BEACONS, faults=False)
