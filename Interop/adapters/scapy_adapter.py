#!/usr/bin/env python3
"""Scapy (https://pypi.org/project/scapy/) behind the interop protocol: frames and captures levels.

Decoding is Scapy's own: its Bluetooth layers (HCI_Hdr for H4 packets and LINKTYPE 187,
HCI_PHDR_Hdr for 201, HCI_Mon_Pcap_Hdr for 254, BTLE for 251, BTLE_RF for 256), its EIR_Hdr
AD structures (AD data is dissected as the `data` list of an advertising report is), and its
contrib layers for Eddystone, iBeacon and AltBeacon. Captures are read with `PcapReader`, which
takes pcap and pcapng; a file it refuses (btsnoop, hex text) or a link type it has no
dissector for (272) is `unsupported`.

Like a scanner built on Scapy, the adapter reads advertisements only where a controller
received them: LE advertising reports (legacy and extended, each report on its own: Scapy
does not reassemble chained data) and advertising-channel PDUs. Only the representation is
normalised (field names, hex strings, the URL's bytes as text); Scapy's values are never
changed. Its TLM field is SEC_CNT, the spec's count of 0.1 s, reported in seconds.
"""
from binascii import hexlify
from importlib import metadata

from scapy.all import conf, load_contrib
from scapy.error import Scapy_Exception
from scapy.utils import PcapReader
from scapy.fields import PacketListField
from scapy.layers.bluetooth import (EIR_Hdr, EIR_Manufacturer_Specific_Data, HCI_Hdr,
                                    HCI_LE_Meta_Advertising_Reports, HCI_LE_Meta_Extended_Advertising_Reports)
from scapy.layers.bluetooth4LE import (BTLE, BTLE_ADV_IND, BTLE_ADV_NONCONN_IND, BTLE_ADV_SCAN_IND,
                                       BTLE_SCAN_RSP)
from scapy.packet import Packet, Raw

from nearby_interop import Unsupported, serve

load_contrib("eddystone")
load_contrib("ibeacon")
load_contrib("altbeacon")
from scapy.contrib.altbeacon import AltBeacon  # noqa: E402
from scapy.contrib.eddystone import (Eddystone_EID, Eddystone_Frame, Eddystone_TLM_Encrypted,  # noqa: E402
                                     Eddystone_TLM_Unencrypted, Eddystone_UID, Eddystone_URL)
from scapy.contrib.ibeacon import IBeacon_Data  # noqa: E402

BEACONS = {
    "eddystone-uid": ["txPower", "namespace", "instance", "reserved"],
    "eddystone-url": ["txPower", "scheme", "url"],
    "eddystone-tlm": ["version", "batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds"],
    "eddystone-etlm": ["version", "encryptedTlm", "salt", "mic"],
    "eddystone-eid": ["txPower", "eid"],
    "ibeacon": ["uuid", "major", "minor", "measuredPower"],
    "altbeacon": ["manufacturer", "uuid", "major", "minor", "measuredPower", "reserved"],
}


class ADData(Packet):
    """AD data on its own, dissected as Scapy dissects the data of an advertising report."""
    fields_desc = [PacketListField("data", [], EIR_Hdr)]


def hexs(b):
    return hexlify(bytes(b)).decode()


def beacons_in(eirs):
    """The beacons Scapy's layers find in a list of EIR_Hdr structures, in AD order."""
    out = []
    for e in eirs:
        if e.haslayer(Eddystone_Frame):
            if e.haslayer(Eddystone_UID):
                u = e[Eddystone_UID]
                b = {"type": "eddystone-uid", "txPower": u.tx_power, "namespace": hexs(u.namespace or b""),
                     "instance": hexs(u.instance or b"")}
                if u.reserved:  # the 18-byte form has none (an empty field in Scapy)
                    b["reserved"] = hexs(u.reserved)
                out.append(b)
            elif e.haslayer(Eddystone_URL):
                u = e[Eddystone_URL]
                out.append({"type": "eddystone-url", "txPower": u.tx_power, "scheme": u.url_scheme,
                            "url": u.to_url().decode("latin-1")})
            elif e.haslayer(Eddystone_TLM_Unencrypted):
                t = e[Eddystone_TLM_Unencrypted]
                out.append({"type": "eddystone-tlm", "version": 0, "batteryMillivolts": t.batt_mv,
                            "temperatureCelsius": float(t.temperature), "advertisingCount": t.adv_cnt,
                            "uptimeSeconds": t.sec_cnt / 10 if t.sec_cnt is not None else None})
            elif e.haslayer(Eddystone_TLM_Encrypted):
                t = e[Eddystone_TLM_Encrypted]
                out.append({"type": "eddystone-etlm", "version": 1, "encryptedTlm": hexs(t.etlm or b""),
                            "salt": hexs(t.salt or b""), "mic": hexs(t.mic or b"")})
            elif e.haslayer(Eddystone_EID):
                i = e[Eddystone_EID]
                out.append({"type": "eddystone-eid", "txPower": i.tx_power, "eid": hexs(i.eid or b"")})
        elif e.haslayer(IBeacon_Data):
            layer = e[IBeacon_Data]
            while layer is not None and not isinstance(layer, Raw):
                if isinstance(layer, IBeacon_Data):
                    out.append({"type": "ibeacon", "uuid": str(layer.uuid), "major": layer.major,
                                "minor": layer.minor, "measuredPower": layer.tx_power})
                layer = layer.payload if layer.payload else None
        elif e.haslayer(AltBeacon):
            a = e[AltBeacon]
            out.append({"type": "altbeacon", "manufacturer": e[EIR_Manufacturer_Specific_Data].company_id,
                        "uuid": str(a.id1), "major": a.id2, "minor": a.id3, "measuredPower": a.tx_power,
                        "reserved": a.mfg_reserved})
    return out


def advertisements(pkt):
    """(address, AD structures) for every advertisement a controller received in a packet.

    A report Scapy could not dissect to the end lacks its later fields (it has no `addr` or
    `data` attribute then): it is taken as what Scapy made of it, not as an adapter error.
    """
    out = []
    if pkt.haslayer(HCI_LE_Meta_Advertising_Reports):
        for r in pkt[HCI_LE_Meta_Advertising_Reports].reports or []:
            out.append((getattr(r, "addr", None), getattr(r, "data", None) or []))
    elif pkt.haslayer(HCI_LE_Meta_Extended_Advertising_Reports):
        for r in pkt[HCI_LE_Meta_Extended_Advertising_Reports].reports or []:
            out.append((getattr(r, "addr", None), getattr(r, "data", None) or []))
    else:
        for layer in (BTLE_ADV_IND, BTLE_ADV_NONCONN_IND, BTLE_ADV_SCAN_IND, BTLE_SCAN_RSP):
            if pkt.haslayer(layer):
                a = pkt[layer]
                out.append((a.AdvA, a.data))
                break
    return out


def frame(request):
    f = request["frame"]
    if "adData" in f:
        return {"beacons": beacons_in(ADData(bytes.fromhex(f["adData"])).data)}
    pkt = HCI_Hdr(bytes.fromhex(f["h4"])) if "h4" in f else BTLE(bytes.fromhex(f["linkLayer"]))
    found = advertisements(pkt)
    reply = {"beacons": [b for _, eirs in found for b in beacons_in(eirs)]}
    if found:
        reply["advertisement"] = {"address": found[0][0]}
    return reply


def capture(request):
    try:
        with PcapReader(request["capture"]) as reader:
            linktype = getattr(reader, "linktype", "?")  # pcapng: per interface
            packets = list(reader)
    except Scapy_Exception as e:
        raise Unsupported("Scapy cannot read it: %s" % e)
    if packets and all(isinstance(p, Raw) for p in packets):
        raise Unsupported("Scapy has no dissector for LINKTYPE %s" % linktype)
    out = []
    for n, pkt in enumerate(packets, start=1):
        for _, eirs in advertisements(pkt):
            out.extend(dict(b, record=n) for b in beacons_in(eirs))
    return {"beacons": out}


if __name__ == "__main__":
    conf.verb = 0
    serve("scapy", metadata.version("scapy"), {"frames": frame, "captures": capture},
          beacons=BEACONS, advertisement=["address"], faults=False)
