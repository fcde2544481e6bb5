#!/usr/bin/env python3
"""Advertise beacon frames from a controller served over TCP, with Google's Bumble as the
host (PyPI `bumble`): the far end of a live session. Start Bumble's virtual controllers,
scan with one and advertise from the other:

    python3 -m bumble.apps.controllers tcp-server:127.0.0.1:9101 tcp-server:127.0.0.1:9102 &
    nearby-conformance decode --live tcp-client:127.0.0.1:9101 --duration 10 &
    python3 Scripts/bumble-advertise.py tcp-client:127.0.0.1:9102 --frames eddystone-uid,ibeacon,token-v1

Each frame of Scripts/bumble_frames.py named in --frames is advertised in turn for
--seconds-per-frame seconds, --cycles times over, from its own random address. Each
advertising interval is printed on standard output as it ends, one JSON object per line:
{"kind", "address", "start", "stop"} (Unix seconds, the host's clock): the ground truth a
test compares a live session with.
"""
import argparse
import asyncio
import json
import sys
import time

from bumble.device import Device
from bumble.hci import Address
from bumble.transport import open_transport

from bumble_frames import FRAMES


async def advertise(transport, kinds, seconds, cycles):
    frames = [f for f in FRAMES if f[0] in kinds]
    async with await open_transport(transport) as (source, sink):
        device = Device.with_hci("advertiser", Address(frames[0][1]), source, sink)
        await device.power_on()
        for _ in range(cycles):
            for kind, address, data in frames:
                device.random_address = Address(address)
                start = time.time()
                await device.start_advertising(advertising_data=data)
                await asyncio.sleep(seconds)
                await device.stop_advertising()
                line = {"kind": kind, "address": address, "start": start, "stop": time.time()}
                print(json.dumps(line, sort_keys=True), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("transport", help="the advertising controller, as Bumble names it: tcp-client:HOST:PORT")
    parser.add_argument("--frames", default=",".join(f[0] for f in FRAMES),
                        help="comma-separated frame kinds (default: all of " + ", ".join(f[0] for f in FRAMES) + ")")
    parser.add_argument("--seconds-per-frame", type=float, default=1.0)
    parser.add_argument("--cycles", type=int, default=1)
    args = parser.parse_args()
    kinds = args.frames.split(",")
    unknown = [k for k in kinds if k not in {f[0] for f in FRAMES}]
    if unknown:
        parser.error("unknown frame kinds: " + ", ".join(unknown))
    asyncio.run(advertise(args.transport, kinds, args.seconds_per_frame, args.cycles))


if __name__ == "__main__":
    sys.exit(main())
