#!/usr/bin/env python3
"""Record HCI traffic from a real Bluetooth host stack: Google's Bumble (PyPI `bumble`)
running two virtual controllers on one in-process link. One device advertises, in turn,
Eddystone-UID, -URL, -TLM, iBeacon, AltBeacon and token v1 frames; the other scans. The
scanner's host writes its HCI traffic to btsnoop (H4) and pcap (LINKTYPE 201) through
Bumble's own snoopers, so every byte of the captures comes from Bumble.

    pip install bumble
    python3 Scripts/bumble-record.py Captures/bumble

Two recordings: `bumble-extended.*` with the scanner controller as Bumble builds it (it has
the LE Extended Advertising feature, so the host scans with extended commands and gets LE
Extended Advertising Reports) and `bumble-legacy.*` with that feature switched off in the
scanner's controller (legacy LE Advertising Reports). Quirks seen (docs/bumble-captures.md):
RSSI is always -50 dBm; every advertisement is reported twice, once as advertising and once
as a scan response with the same data, even to a passive scanner; extended reports mark
legacy advertising as non-legacy connectable; timestamps are the wall clock.
"""
import asyncio
import os
import sys

from bumble.controller import Controller
from bumble.device import Device
from bumble.hci import Address, LeFeatureMask
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper, PcapSnooper, Snooper
from bumble.transport.common import AsyncPipeSink

from bumble_frames import FRAMES


class Tee(Snooper):
    def __init__(self, *snoopers):
        self.snoopers = snoopers

    def snoop(self, hci_packet, direction):
        for s in self.snoopers:
            s.snoop(hci_packet, direction)


async def record(folder, name, extended_scanner, seconds_per_frame):
    link = LocalLink()
    adv_controller = Controller("advertiser", link=link)
    scan_controller = Controller("scanner", link=link)
    if not extended_scanner:
        scan_controller.le_features &= ~LeFeatureMask.LE_EXTENDED_ADVERTISING
    advertiser = Device(address=Address(FRAMES[0][1]), host=Host(adv_controller, AsyncPipeSink(adv_controller)))
    scanner = Device(address=Address("f0:f1:f2:f3:f4:f5"), host=Host(scan_controller, AsyncPipeSink(scan_controller)))
    with open(os.path.join(folder, name + ".btsnoop"), "wb") as snoop, open(os.path.join(folder, name + "-201.pcap"), "wb") as pcap:
        scanner.host.snooper = Tee(BtSnooper(snoop), PcapSnooper(pcap))
        await advertiser.power_on()
        await scanner.power_on()
        reports = []
        scanner.on("advertisement", lambda a: reports.append(a))
        await scanner.start_scanning(active=False, filter_duplicates=False)
        for kind, address, data in FRAMES:
            advertiser.random_address = Address(address)
            await advertiser.start_advertising(advertising_data=data)
            await asyncio.sleep(seconds_per_frame)
            await advertiser.stop_advertising()
        await scanner.stop_scanning()
        scanner.host.snooper = None
    print(f"{name}: {len(reports)} advertisements reported to the scanner's host", file=sys.stderr)


async def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "Captures/bumble"
    os.makedirs(folder, exist_ok=True)
    await record(folder, "bumble-extended", True, 2.5)
    await record(folder, "bumble-legacy", False, 2.5)


if __name__ == "__main__":
    asyncio.run(main())
