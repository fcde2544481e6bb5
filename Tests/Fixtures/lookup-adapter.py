"""An implementation that decodes nothing: it answers each request by looking the request up
in a folder of vectors (argv[1]), by the vector's id or by its input (frame bytes, the capture
or sound file's bytes, the scenario's events), and answers an empty result when it finds
none. The test that runs it (GeneratedVectorTests) shows that `validate` keeps such an adapter
from passing: requests carry opaque ids and copied files, and generated vectors exist nowhere.
"""
import glob
import hashlib
import json
import os
import sys

root = sys.argv[1]
by_id, by_input = {}, {}


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


for file in glob.glob(os.path.join(root, "**", "*.json"), recursive=True):
    if "/schema/" in file:
        continue
    try:
        vectors = json.load(open(file)).get("vectors", [])
    except (ValueError, AttributeError):
        continue
    if not isinstance(vectors, list):  # known-failures.json: an object of id: reason
        continue
    for v in vectors:
        by_id[v["id"]] = v["expect"]
        here = os.path.dirname(file)
        if "input" in v:
            by_input[json.dumps(v["input"], sort_keys=True)] = v["expect"]
        for key in ("capture", "audio"):
            if isinstance(v.get(key), str) and os.path.exists(os.path.join(here, v[key])):
                by_input[digest(os.path.join(here, v[key]))] = v["expect"]
        if isinstance(v.get("scenario"), dict):
            by_input[json.dumps(v["scenario"].get("events"), sort_keys=True)] = v["expect"]

empty = {"frames": {"beacons": []}, "captures": {"beacons": []}, "audio": {"frames": []}, "events": {"events": []}}
for line in sys.stdin:
    request = json.loads(line)
    if "hello" in request:
        reply = {"hello": {"protocol": 1, "name": "lookup", "version": "1",
                           "levels": ["audio", "captures", "events", "frames"]}}
    else:
        keys = [request["id"]]
        if "frame" in request:
            keys.append(json.dumps(request["frame"], sort_keys=True))
        for key in ("capture", "audio"):
            if key in request:
                keys.append(digest(request[key]))
        if "scenario" in request:
            keys.append(json.dumps(request["scenario"].get("events"), sort_keys=True))
        found = next((by_id.get(k) or by_input.get(k) for k in keys if k in by_id or k in by_input), None)
        reply = dict(found or empty[request["level"]])
        reply.pop("advertisement", None)
        reply["id"] = request["id"]
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
