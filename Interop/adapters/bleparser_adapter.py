#!/usr/bin/env python3
"""bleparser (https://pypi.org/project/bleparser/), the parser of Home Assistant's passive BLE
monitor (ble_monitor), behind the interop protocol: frames level.

`BleParser().parse_raw_data(data)` takes the HCI event bytes a raw Bluetooth socket gives (H4
type byte first), legacy or extended reports. An H4 packet is handed over as it is; AD data is
handed over inside the LE Advertising Report a controller would send for it
(`nearby_interop.legacy_report`: ADV_NONCONN_IND, address 00:00:00:00:00:00, -60 dBm; more than
31 bytes cannot be sent so and is `unsupported`). Link-layer packets are not something it
reads. Every beacon it tracks is reported, whitelists off (`discovery` on, the default).

Field mapping (bleparser 3.7.3): iBeacon `uuid` (dashes put back), `major`, `minor`,
`measured power` as `measuredPower`; AltBeacon, whose 20-byte beacon id bleparser splits as an
iBeacon's: `uuid`, `major`, `minor`, `measured power` (it names the manufacturer rather than
giving its company id: not reported). Quirks found: Eddystone is not decoded at all; an iBeacon
whose UUID is a Tilt hydrometer's goes to the Tilt parser instead; AltBeacon is recognised only
in a manufacturer AD structure of exactly 27 bytes; only the first report of an event is read; a
report whose lengths do not add up is dropped whole. The library's answers are never changed.
"""
from importlib import metadata

from bleparser import BleParser

from nearby_interop import hci_packet, serve

BEACONS = {
    "ibeacon": ["uuid", "major", "minor", "measuredPower"],
    "altbeacon": ["uuid", "major", "minor", "measuredPower"],
}


def beacon(sensor):
    kind = sensor.get("type")
    uuid = sensor.get("uuid", "")
    dashed = "%s-%s-%s-%s-%s" % (uuid[0:8], uuid[8:12], uuid[12:16], uuid[16:20], uuid[20:32])
    fields = {"uuid": dashed.lower(), "major": sensor.get("major"), "minor": sensor.get("minor"),
              "measuredPower": sensor.get("measured power")}
    if kind == "iBeacon":
        return dict(type="ibeacon", **fields)
    if kind == "AltBeacon":
        return dict(type="altbeacon", **fields)
    return None


def frame(request):
    f = request["frame"]
    packet = hci_packet(f, "bleparser")
    sensor, _ = BleParser().parse_raw_data(packet)
    if not sensor:
        return {"beacons": []}
    b = beacon(sensor)
    return {"beacons": [b] if b else []}


if __name__ == "__main__":
    serve("bleparser", metadata.version("bleparser"), {"frames": frame}, beacons=BEACONS, faults=False)
