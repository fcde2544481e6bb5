#!/usr/bin/env python3
"""TShark (Debian's `tshark`, Wireshark's dissectors) behind the interop protocol: frames and
captures levels.

Decoding is TShark's own, as a user gets it on the command line: `tshark -r FILE -T json
--no-duplicate-keys` with two Decode As rules, because Wireshark 4.0 dissects neither beacon
from manufacturer data unless told which company's data to hand to which dissector:

- `btcommon.eir_ad.manufacturer_company_id==0x004c,ibeacon` (Apple's data to its iBeacon
  dissector: fields `bluetooth.apple.ibeacon.uuid128`, `.major`, `.minor`; it has no measured
  power field);
- `btcommon.eir_ad.manufacturer_company_id==0x0118,alt_beacon` (Radius Networks', the company
  of the AltBeacon specification's examples; AltBeacons of other companies stay undissected
  unless a user adds their company: fields `bluetooth.alt_beacon.id`, `.reference_rssi`,
  `.manufacturer_data`).

Only packets a controller received are read (display filter `bthci_evt || btle`): TShark also
dissects the AD data of the host's own LE Set Advertising Data commands, which are not
sightings. Beacons are taken in the order of the JSON tree (reports in order, AD structures in
order). Fields: `uuid128` as `uuid` (dashes added), `major`, `minor`; `alt_beacon.id` as
`beaconId`, `reference_rssi` as `measuredPower`, `manufacturer_data` as `reserved`, the AD
structure's `company_id` as `manufacturer`. `records.read` is the number of frames TShark read.

Frames go to one TShark, started with the first frame, as the packets of a pcapng stream on its
standard input (`tshark -r - -l`, the same options): an H4 packet (and AD data inside the report
a controller would send for it: `legacy_report`, or `extended_report` past 31 bytes) on an
interface of LINKTYPE 201 with a received-direction header, a link-layer packet on one of
LINKTYPE 251. Each frame's reply is the JSON TShark prints for its packet, read as soon as the
packet's object is closed (a line `  }`; TShark writes the comma before the next object only
when the next packet comes). A capture is one TShark run of its own over the file. TShark has no
reader for the project's hex text captures (`unsupported`).

Quirks found with TShark 4.0.17 (Debian 12): the iBeacon dissector reads the UUID from the first
byte after the company identifier, so the iBeacon type and length bytes (0x02 0x15) become the
UUID's first two bytes and every later field is read two bytes early; Eddystone has no
dissector (service data 0xFEAA is shown as bytes).
"""
import atexit
import json
import os
import struct
import subprocess
import tempfile

from nearby_interop import Unsupported, extended_report, legacy_report, serve

DECODE_AS = ["-d", "btcommon.eir_ad.manufacturer_company_id==0x004c,ibeacon",
             "-d", "btcommon.eir_ad.manufacturer_company_id==0x0118,alt_beacon"]
BEACONS = {
    "ibeacon": ["uuid", "major", "minor"],
    "altbeacon": ["beaconId", "manufacturer", "measuredPower", "reserved"],
}


def tshark_version():
    first = subprocess.run(["tshark", "--version"], capture_output=True, text=True, check=True).stdout.split("\n")[0]
    # "TShark (Wireshark) 4.0.17 (Git v4.0.17 packaged as 4.0.17-0+deb12u3)."
    return first.split()[2]


def dissect(path):
    """TShark's JSON tree of every received packet of `path`, and the number of frames read."""
    run = subprocess.run(["tshark", "-r", path, *DECODE_AS, "-T", "json", "--no-duplicate-keys"],
                         capture_output=True, text=True)
    if run.returncode != 0 and not run.stdout.strip():
        # The reason without the path, which differs from machine to machine.
        said = run.stderr.strip().split("\n")[-1].replace('"%s" ' % path, "").replace(path, "it")
        raise Unsupported("TShark cannot read it: %s" % said.removeprefix("tshark: "))
    packets = json.loads(run.stdout or "[]")
    return [p for p in packets if received(p["_source"]["layers"])], len(packets)


def received(layers):
    """Whether a packet's layers are an HCI event or a link-layer packet: what a controller received."""
    return bool({"bthci_evt", "btle"} & set(layers))


def number(text):
    return int(text, 0)


def beacons_in(node, company=None):
    """The beacons of a JSON subtree, in document order."""
    out = []
    if isinstance(node, list):
        for item in node:
            out.extend(beacons_in(item, company))
    elif isinstance(node, dict):
        company = node.get("btcommon.eir_ad.entry.company_id", company)
        for key, value in node.items():
            if key == "ibeacon" and isinstance(value, dict):
                u = value.get("bluetooth.apple.ibeacon.uuid128", "").replace(":", "")
                b = {"type": "ibeacon", "uuid": "-".join([u[:8], u[8:12], u[12:16], u[16:20], u[20:]])}
                if "bluetooth.apple.ibeacon.major" in value:
                    b["major"] = number(value["bluetooth.apple.ibeacon.major"])
                if "bluetooth.apple.ibeacon.minor" in value:
                    b["minor"] = number(value["bluetooth.apple.ibeacon.minor"])
                out.append(b)
            elif key == "alt_beacon" and isinstance(value, dict):
                b = {"type": "altbeacon", "beaconId": value.get("bluetooth.alt_beacon.id", "").replace(":", "")}
                if company is not None:
                    b["manufacturer"] = number(company)
                if "bluetooth.alt_beacon.reference_rssi" in value:
                    b["measuredPower"] = number(value["bluetooth.alt_beacon.reference_rssi"])
                if "bluetooth.alt_beacon.manufacturer_data" in value:
                    b["reserved"] = number(value["bluetooth.alt_beacon.manufacturer_data"])
                out.append(b)
            else:
                out.extend(beacons_in(value, company))
    return out


def first(value):
    return value[0] if isinstance(value, list) else value


def advertisement(layers):
    """The address and RSSI of a packet's first advertisement, as TShark shows them."""
    if "bthci_evt" in layers:
        e = layers["bthci_evt"]
        out = {}
        if "bthci_evt.bd_addr" in e:
            out["address"] = first(e["bthci_evt.bd_addr"])
        if "bthci_evt.rssi" in e:
            out["rssi"] = number(first(e["bthci_evt.rssi"]))
        return out
    a = layers["btle"].get("btle.advertising_address")
    return {"address": first(a)} if a else {}


def block(block_type, body):
    """A pcapng block (PCAPNG-1): type, total length, body padded to 4 bytes, total length again."""
    body += bytes(-len(body) % 4)
    return struct.pack("<II", block_type, 12 + len(body)) + body + struct.pack("<I", 12 + len(body))


class FrameDissector:
    """One TShark reading frames as a pcapng stream: interface 0 is LINKTYPE 201, 1 is 251."""

    def __init__(self):
        self.errors = tempfile.TemporaryFile()
        self.process = subprocess.Popen(["tshark", "-r", "-", "-l", *DECODE_AS, "-T", "json", "--no-duplicate-keys"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors)
        section = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
        interfaces = block(1, struct.pack("<HHI", 201, 0, 65535)) + block(1, struct.pack("<HHI", 251, 0, 65535))
        self.process.stdin.write(section + interfaces)
        atexit.register(self.close)

    def close(self):
        """Ends TShark with the adapter: the end of its input, then its exit."""
        self.process.stdin.close()
        self.process.wait(timeout=10)

    def dissect(self, interface, packet):
        """TShark's JSON object for `packet` (bytes) on `interface` (0 or 1)."""
        self.process.stdin.write(block(6, struct.pack("<IIIII", interface, 0, 0, len(packet), len(packet)) + packet))
        self.process.stdin.flush()
        out = b""
        while not out.endswith(b"\n  }"):
            more = os.read(self.process.stdout.fileno(), 1 << 16)
            if not more:
                self.errors.seek(0)
                said = self.errors.read().decode(errors="replace").strip().split("\n")[-1]
                raise RuntimeError("TShark ended reading the frame: %s" % said)
            out += more
        return json.loads(out.lstrip(b"[,\n"))


dissector = None


def frame(request):
    global dissector
    f = request["frame"]
    if "linkLayer" in f:
        interface, packet = 1, bytes.fromhex(f["linkLayer"])
    else:
        if "h4" in f:
            h4 = bytes.fromhex(f["h4"])
        else:
            ad = bytes.fromhex(f["adData"])
            h4 = legacy_report(ad) if len(ad) <= 31 else extended_report(ad)
        interface, packet = 0, struct.pack(">I", 1) + h4
    dissector = dissector or FrameDissector()
    layers = dissector.dissect(interface, packet)["_source"]["layers"]
    if not received(layers):
        return {"beacons": []}
    reply = {"beacons": beacons_in(layers)}
    if "adData" not in f:
        reply["advertisement"] = advertisement(layers)
    return reply


def capture(request):
    packets, read = dissect(request["capture"])
    out = []
    for p in packets:
        record = number(p["_source"]["layers"]["frame"]["frame.number"])
        out.extend(dict(b, record=record) for b in beacons_in(p["_source"]["layers"]))
    return {"beacons": out, "records": {"read": read}}


if __name__ == "__main__":
    serve("tshark", tshark_version(), {"frames": frame, "captures": capture}, beacons=BEACONS,
          advertisement=["address", "rssi"], faults=False, records=["read"])
