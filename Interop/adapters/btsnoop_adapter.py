#!/usr/bin/env python3
"""btsnoop (https://pypi.org/project/btsnoop/) behind the interop protocol: captures level,
record counts only.

btsnoop 1.1.0 reads a whole btsnoop file (`btsnoop.btsnoop.btsnoop(path)`): it checks the
16-byte file header, splits the rest into records by each record header's included length
(`.records`, header and data), and types each record with its own small HCI tree (commands,
command completions, a few BR/EDR events, ACL and L2CAP). It has no LE event and no AD data,
so it decodes no beacon: the adapter reports `records.read`, the number of records it split
the file into, and an empty beacon list. Files other than btsnoop (pcap, pcapng, hex text) are
`unsupported`.

Quirks found with 1.1.0: it accepts only datalink 1002 (HCI UART, H4) — the header check
compares the datalink with 1002, and a file of datalink 1001 (H1) or 2001 (Linux monitor) is
"not a btsnoop file" (the object is left without records: `unsupported`, with its message);
it prints its complaints on standard output, which is this protocol's channel, so the adapter
takes standard output away from it while it runs; at a record header it cannot read it prints
"Invalid btsnoop packet" and raises (it refers to an undefined name), which ends the adapter.
Importing it needs numpy, bitstring and openpyxl.
"""
import contextlib
import io
from importlib import metadata

from btsnoop.btsnoop import btsnoop

from nearby_interop import Unsupported, serve


def capture(request):
    path = request["capture"]
    with open(path, "rb") as f:
        if f.read(8) != b"btsnoop\0":
            raise Unsupported("btsnoop reads btsnoop files only")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        snoop = btsnoop(path)
    if not hasattr(snoop, "records"):
        # The library's words, without the path, which differs from machine to machine.
        why = said.getvalue().strip().replace(path, "the file")
        raise Unsupported("btsnoop %s refuses it: %s" % (metadata.version("btsnoop"), why))
    return {"beacons": [], "records": {"read": len(snoop.records)}}


if __name__ == "__main__":
    serve("btsnoop", metadata.version("btsnoop"), {"captures": capture}, beacons={}, records=["read"])
