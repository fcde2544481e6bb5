#!/usr/bin/env python3
"""beacontools (https://pypi.org/project/beacontools/) behind the interop protocol: frames level.

AD data goes to `beacontools.parse_packet`, the library's parser. An H4 packet goes to the
packet handling of its scanner (`Monitor.process_packet`), which is what beacontools does with
every HCI event its Bluetooth socket receives; the controller version that code branches on is
set as the scanner would find it: 5.0 for an extended advertising report (it then reads every
report as extended), 4.2 for a legacy one. LE link-layer packets are not something beacontools
reads (`unsupported`).

Only the representation is normalised: field names, hex strings, 16-bit numbers as four hex
digits. The library's answers are never changed: its TLM `seconds_since_boot` is reported as
`uptimeSeconds` because that is what the library says it is; a 0 battery stays 0.
"""
import sys
import types
from binascii import hexlify
from importlib import metadata

from beacontools import parse_packet
from beacontools.packet_types import (EddystoneEIDFrame, EddystoneEncryptedTLMFrame, EddystoneTLMFrame,
                                      EddystoneUIDFrame, EddystoneURLFrame, IBeaconAdvertisement)
from beacontools.scanner import HCIVersion, Monitor

# Monitor() imports the Linux backend, which imports PyBluez only to open the HCI socket. The
# adapter hands packets in instead of opening a socket, so PyBluez (which no longer builds from
# PyPI) is replaced by a module that refuses every use: nothing in packet handling touches it.
if "bluetooth" not in sys.modules:
    class _NoSocket(types.ModuleType):
        def __getattr__(self, name):
            raise RuntimeError("the adapter opens no Bluetooth socket (bluetooth.%s)" % name)
    _bluetooth = types.ModuleType("bluetooth")
    _bluetooth._bluetooth = _NoSocket("bluetooth._bluetooth")
    sys.modules["bluetooth"] = _bluetooth

from nearby_interop import Unsupported, serve

# The fields this adapter can report for each beacon type beacontools decodes (INTEROP-12).
BEACONS = {
    "eddystone-uid": ["txPower", "namespace", "instance"],
    "eddystone-url": ["txPower", "url"],
    "eddystone-tlm": ["version", "batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds"],
    "eddystone-etlm": ["version", "encryptedTlm", "salt", "mic"],
    "eddystone-eid": ["txPower", "eid"],
    "ibeacon": ["uuid", "major", "minor", "measuredPower"],
}


def beacon(p):
    """One beacontools packet object as a beacon object of docs/decode-output.md."""
    if isinstance(p, EddystoneUIDFrame):
        return {"type": "eddystone-uid", "txPower": p.tx_power, "namespace": p.namespace, "instance": p.instance}
    if isinstance(p, EddystoneURLFrame):
        return {"type": "eddystone-url", "txPower": p.tx_power, "url": p.url}
    if isinstance(p, EddystoneTLMFrame):
        return {"type": "eddystone-tlm", "version": 0, "batteryMillivolts": p.voltage,
                "temperatureCelsius": p.temperature, "advertisingCount": p.advertising_count,
                "uptimeSeconds": p.seconds_since_boot}
    if isinstance(p, EddystoneEncryptedTLMFrame):
        return {"type": "eddystone-etlm", "version": 1, "encryptedTlm": hexlify(p.encrypted_data).decode(),
                "salt": "%04x" % p.salt, "mic": "%04x" % p.mic}
    if isinstance(p, EddystoneEIDFrame):
        return {"type": "eddystone-eid", "txPower": p.tx_power, "eid": hexlify(p.eid).decode()}
    if isinstance(p, IBeaconAdvertisement):
        return {"type": "ibeacon", "uuid": p.uuid, "major": p.major, "minor": p.minor, "measuredPower": p.tx_power}
    return None  # a type outside BEACONS (Estimote, Control-J, exposure notification)


def beacons(packets):
    return [b for b in map(beacon, packets) if b is not None]


def frame(request):
    f = request["frame"]
    if "adData" in f:
        p = parse_packet(bytes.fromhex(f["adData"]))
        return {"beacons": beacons([p] if p is not None else [])}
    if "h4" in f:
        pkt = bytes.fromhex(f["h4"])
        seen = []
        monitor = Monitor(lambda addr, rssi, packet, properties: seen.append((addr, rssi, packet)), 0, None, None, {})
        extended = len(pkt) > 3 and pkt[1] == 0x3E and pkt[3] == 0x0D
        monitor.hci_version = HCIVersion.BT_CORE_SPEC_5_0 if extended else HCIVersion.BT_CORE_SPEC_4_2
        # Monitor.run passes LE Meta events with subevent 0x02 or 0x0D to process_packet.
        if len(pkt) > 3 and pkt[1] == 0x3E and pkt[3] in (0x02, 0x0D):
            monitor.process_packet(pkt)
        reply = {"beacons": beacons([p for _, _, p in seen])}
        if seen:
            reply["advertisement"] = {"address": seen[0][0], "rssi": seen[0][1]}
        return reply
    raise Unsupported("beacontools reads AD data and HCI events, not link-layer packets")


if __name__ == "__main__":
    serve("beacontools", metadata.version("beacontools"), {"frames": frame}, beacons=BEACONS, advertisement=["address", "rssi"], faults=False)
