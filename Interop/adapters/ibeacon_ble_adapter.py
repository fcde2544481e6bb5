#!/usr/bin/env python3
"""Home Assistant's iBeacon parser (https://pypi.org/project/ibeacon-ble/) behind the interop
protocol: frames level, AD data only.

Home Assistant hands the parser a `BluetoothServiceInfo` whose manufacturer data its Bluetooth
stack took from the advertisement with bluetooth-data-tools (`parse_advertisement_data_bytes`);
the adapter does the same, so the pair is what a Home Assistant install decodes. H4 packets and
link-layer packets are not something this parser reads (`unsupported`): Home Assistant's HCI
handling lives in other packages.

Field mapping (ibeacon-ble 1.2.0): `uuid` (a `UUID`, printed lower case with dashes), `major`,
`minor`, `power` as `measuredPower`. Quirks found: it drops a beacon whose UUID is on its ban list
(Tilt hydrometers and one UUID of devices that spew random majors); it needs only 23 bytes of
Apple data and ignores what follows (an iBeacon TLV followed by another TLV still decodes); it
takes the manufacturer data bluetooth-data-tools keeps for company 0x004C, which is the last such
AD structure of the advertisement. The library's answers are never changed.
"""
import asyncio
from importlib import metadata

from bluetooth_data_tools import parse_advertisement_data_bytes
from home_assistant_bluetooth import BluetoothServiceInfo
from ibeacon_ble import iBeaconParser

from nearby_interop import Unsupported, serve

BEACONS = {"ibeacon": ["uuid", "major", "minor", "measuredPower"]}

PARSER = iBeaconParser()
# Loads the OUI table the parser names vendors from (a file in the aiooui package; no network).
asyncio.run(PARSER.async_setup())


def frame(request):
    f = request["frame"]
    if "adData" not in f:
        raise Unsupported("ibeacon-ble takes manufacturer data from parsed advertisements, not HCI or link-layer packets")
    name, uuids, service_data, manufacturer_data, _ = parse_advertisement_data_bytes(bytes.fromhex(f["adData"]))
    info = BluetoothServiceInfo(name or "", "00:00:00:00:00:00", -60, manufacturer_data, service_data, uuids, "local")
    b = PARSER.parse(info)
    if b is None:
        return {"beacons": []}
    return {"beacons": [{"type": "ibeacon", "uuid": str(b.uuid), "major": b.major, "minor": b.minor,
                         "measuredPower": b.power}]}


if __name__ == "__main__":
    serve("ibeacon-ble", metadata.version("ibeacon-ble"), {"frames": frame}, beacons=BEACONS, faults=False)
