"""The interop protocol of nearby-conformance (docs/spec/interop.md), for adapters written in Python.

An adapter calls `serve` with what the library reports and one handler per level. Each handler
takes the request (a dict) and returns the reply without its id. Whatever the library raises is
left to end the process: the runner reports it as that vector's `crashed` verdict with the last
line of the traceback, and starts the adapter again for the next vector.
"""
import json
import sys


class Unsupported(Exception):
    """Raised by a handler for an input the library cannot take (the vector is skipped)."""


def legacy_report(ad_data, address=bytes(6), rssi=-60):
    """AD data (at most 31 bytes) as the H4 packet a controller sends for it: an LE Advertising
    Report event (Core Vol 4 Part E §7.7.65.2) with one ADV_NONCONN_IND report from a public
    `address` (6 bytes, most significant first) at `rssi` dBm. For libraries that read only HCI
    events: this is what they would receive for that advertisement."""
    if len(ad_data) > 31:
        raise Unsupported("%d bytes of AD data do not fit a legacy advertising report" % len(ad_data))
    report = bytes([0x01, 0x03, 0x00]) + address[::-1] + bytes([len(ad_data)]) + ad_data + bytes([rssi & 0xFF])
    return bytes([0x04, 0x3E, len(report) + 1, 0x02]) + report


def extended_report(ad_data, address=bytes(6), rssi=-60):
    """AD data (at most 229 bytes) as the H4 packet of an LE Extended Advertising Report event
    (Core Vol 4 Part E §7.7.65.13) with one complete, non-connectable, non-legacy report from a
    public `address` on LE 1M, no SID, Tx power not available: what a controller sends for
    advertising data longer than a legacy report holds."""
    if len(ad_data) > 229:
        raise Unsupported("%d bytes of AD data do not fit one extended advertising report" % len(ad_data))
    report = (bytes([0x01, 0x00, 0x00, 0x00]) + address[::-1] + bytes([0x01, 0x01, 0xFF, 0x7F, rssi & 0xFF])
              + bytes([0x00, 0x00, 0x00]) + bytes(6) + bytes([len(ad_data)]) + ad_data)
    return bytes([0x04, 0x3E, len(report) + 1, 0x0D]) + report


def hci_packet(frame, library):
    """A frames-level request's input as the H4 packet a library that reads only HCI events
    takes: an H4 packet as it is, AD data inside `legacy_report`; link-layer packets are
    `Unsupported` (`library` names it in the reason)."""
    if "h4" in frame:
        return bytes.fromhex(frame["h4"])
    if "adData" in frame:
        return legacy_report(bytes.fromhex(frame["adData"]))
    raise Unsupported("%s reads HCI events, not link-layer packets" % library)


def serve(name, version, handlers, beacons=None, advertisement=None, faults=True, records=None):
    """Answers the handshake and then every request on standard input until it closes.

    name, version: the library's; handlers: level -> function(request) -> reply dict;
    beacons: beacon type -> the fields the adapter reports for it (None: all of them);
    advertisement: the advertisement fields it reports (with an `advertisement` reply); faults: whether the
    library locates faults (an `error` reply) or only rejects malformed input; records: the record
    counts a captures reply gives (None: all four, when it gives `records`).
    """
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        if "hello" in request:
            hello = {"protocol": 1, "name": name, "version": version, "levels": sorted(handlers)}
            if beacons is not None:
                hello["beacons"] = beacons
            if advertisement is not None:
                hello["advertisement"] = sorted(advertisement)
            if not faults:
                hello["faults"] = False
            if records is not None:
                hello["records"] = sorted(records)
            reply = {"hello": hello}                        # INTEROP-7, INTEROP-8, INTEROP-12 to INTEROP-17
        else:
            handler = handlers.get(request.get("level"))
            try:
                reply = handler(request) if handler else {"unsupported": "level %s" % request.get("level")}
            except Unsupported as e:
                reply = {"unsupported": str(e)}             # INTEROP-19
            reply["id"] = request["id"]                     # INTEROP-18
        out.write(json.dumps(reply, sort_keys=True) + "\n")    # one line each (INTEROP-1)
        out.flush()
