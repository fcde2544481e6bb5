"""The interop protocol of nearby-conformance (docs/interop.md), for adapters written in Python.

An adapter calls `serve` with what the library reports and one handler per level. Each handler
takes the request (a dict) and returns the reply without its id. Whatever the library raises is
left to end the process: the runner reports it as that vector's `crashed` verdict with the last
line of the traceback, and starts the adapter again for the next vector.
"""
import json
import sys


class Unsupported(Exception):
    """Raised by a handler for an input the library cannot take (the vector is skipped)."""


def serve(name, version, handlers, beacons=None, advertisement=None, faults=True):
    """Answers the handshake and then every request on standard input until it closes.

    name, version: the library's; handlers: level -> function(request) -> reply dict;
    beacons: beacon type -> the fields the adapter reports for it (None: all of them);
    advertisement: the advertisement fields it reports (with an `advertisement` reply); faults: whether the
    library locates faults (an `error` reply) or only rejects malformed input.
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
            reply = {"hello": hello}
        else:
            handler = handlers.get(request.get("level"))
            try:
                reply = handler(request) if handler else {"unsupported": "level %s" % request.get("level")}
            except Unsupported as e:
                reply = {"unsupported": str(e)}
            reply["id"] = request["id"]
        out.write(json.dumps(reply, sort_keys=True) + "\n")
        out.flush()
