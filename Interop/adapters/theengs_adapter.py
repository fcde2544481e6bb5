#!/usr/bin/env python3
"""Theengs Decoder (https://pypi.org/project/theengsdecoder/, its C++ core built from source)
behind the interop protocol: frames level, AD data only.

`TheengsDecoder.decodeBLE(json)` takes the JSON document Theengs Gateway and OpenMQTTGateway
build from a scan result: `id` (address), `rssi`, `manufacturerdata` (the company id
little-endian then the data, hex) and `servicedata` with `servicedatauuid`. The adapter builds
that document as the gateway does from its scanner's parsed advertisement, the parsing done by
bluetooth-data-tools (one manufacturer entry per company, as bleak's dictionary keeps them); each
manufacturer entry and each service data entry is decoded in a document of its own. H4 and
link-layer packets are not something it reads (`unsupported`).

Field mapping (theengsdecoder 2.5.0, model `IBEACON`): `uuid` (hex, dashes put back), `major`,
`minor`, `txpower` as `measuredPower`. Quirks found: version 2.5.0 has no Eddystone or AltBeacon
model at all; it reads major and minor as signed 16-bit numbers (0xFFFF is -1); an iBeacon with
a Tilt hydrometer's UUID is taken by its Tilt model. Its iBeacon model (src/devices/iBeacon_json.h)
also needs the manufacturer data to be exactly 25 bytes and reads the measured power only when
its high bit is set, calling a non-negative byte a battery voltage (`volt`, the byte / 10)
instead. The library's answers are never changed.
"""
import json
from importlib import metadata

import TheengsDecoder
from bluetooth_data_tools import parse_advertisement_data_bytes

from nearby_interop import Unsupported, serve

BEACONS = {"ibeacon": ["uuid", "major", "minor", "measuredPower"]}


def beacon(r):
    if r.get("model_id") != "IBEACON":
        return None
    u = r.get("uuid", "")
    return {"type": "ibeacon", "uuid": "%s-%s-%s-%s-%s" % (u[0:8], u[8:12], u[12:16], u[16:20], u[20:32]),
            "major": r.get("major"), "minor": r.get("minor"), "measuredPower": r.get("txpower")}


def frame(request):
    f = request["frame"]
    if "adData" not in f:
        raise Unsupported("Theengs Decoder takes a gateway's parsed scan result, not HCI or link-layer packets")
    _, _, service_data, manufacturer_data, _ = parse_advertisement_data_bytes(bytes.fromhex(f["adData"]))
    documents = [{"manufacturerdata": company.to_bytes(2, "little").hex() + data.hex()}
                 for company, data in manufacturer_data.items()]
    documents += [{"servicedata": data.hex(), "servicedatauuid": "0x" + uuid[4:8]}
                  for uuid, data in service_data.items()]
    out = []
    for d in documents:
        d.update({"id": "00:00:00:00:00:00", "rssi": -60})
        answer = TheengsDecoder.decodeBLE(json.dumps(d))
        b = beacon(json.loads(answer)) if answer else None
        if b:
            out.append(b)
    return {"beacons": out}


if __name__ == "__main__":
    serve("theengsdecoder", metadata.version("theengsdecoder"), {"frames": frame}, beacons=BEACONS, faults=False)
