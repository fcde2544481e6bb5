#!/usr/bin/env python3
"""aioblescan (https://pypi.org/project/aioblescan/) behind the interop protocol: frames level.

aioblescan reads the HCI events of a raw Bluetooth socket: each packet goes to `HCI_Event.decode`
and then to its Eddystone plugin (`plugins.EddyStone().decode`), as its scanner does. An H4
packet is handed over as it is; AD data is handed over inside the LE Advertising Report a
controller would send for it (`nearby_interop.legacy_report`: ADV_NONCONN_IND, address
00:00:00:00:00:00, -60 dBm; more than 31 bytes cannot be sent so and is `unsupported`), and then
only the beacons are compared. Link-layer packets are not something it reads.

Field mapping (aioblescan 0.2.14, plugin EddyStone): UID `tx_power`, `name space`, `instance`;
URL `tx_power`, `url`; TLM `battery` (mV), `temperature`, `pdu count`, `uptime` (which the
plugin gives in milliseconds: reported divided by 1000 as `uptimeSeconds`). The plugin decodes
no EID or eTLM frame (an EID frame gives no beacon; a TLM of version 1 is read as version 0) and
no iBeacon (its Tilt plugin reads only Tilt hydrometers). The advertisement's `peer` and `rssi`
are reported for H4 packets. The library's answers are never changed.
"""
from importlib import metadata

import aioblescan as aios
from aioblescan.plugins import EddyStone

from nearby_interop import hci_packet, serve

BEACONS = {
    "eddystone-uid": ["txPower", "namespace", "instance"],
    "eddystone-url": ["txPower", "url"],
    "eddystone-tlm": ["batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds"],
}


def beacon(r):
    """The plugin's result dict as a beacon object of docs/decode-output.md, or None."""
    if "name space" in r:
        return {"type": "eddystone-uid", "txPower": r["tx_power"], "namespace": r["name space"].hex(),
                "instance": r["instance"].hex()}
    if "url" in r:
        return {"type": "eddystone-url", "txPower": r["tx_power"], "url": r["url"]}
    if "pdu count" in r:
        return {"type": "eddystone-tlm", "batteryMillivolts": r["battery"], "temperatureCelsius": r["temperature"],
                "advertisingCount": r["pdu count"], "uptimeSeconds": r["uptime"] / 1000}
    return None


def frame(request):
    f = request["frame"]
    packet = hci_packet(f, "aioblescan")
    event = aios.HCI_Event()
    event.decode(packet)
    result = EddyStone().decode(event)
    b = beacon(result) if result else None
    reply = {"beacons": [b] if b else []}
    if "h4" in f:
        peers, rssi = event.retrieve("peer"), event.retrieve("rssi")
        if peers and rssi:
            reply["advertisement"] = {"address": peers[0].val, "rssi": rssi[0].val}
    return reply


if __name__ == "__main__":
    serve("aioblescan", metadata.version("aioblescan"), {"frames": frame}, beacons=BEACONS,
          advertisement=["address", "rssi"], faults=False)
