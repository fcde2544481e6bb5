#!/usr/bin/env python3
"""Write Vectors/scenarios/limits.json: the vectors for clause ENGINE-V1 of docs/spec/engine.md
(input limits), each a scenario on one side of a limit.

Accepted side: a scenario exactly at the limit, with the events the rules give for it, worked
out here by hand (a found at the sighting, an expiry at publish/subscribe time + TTL).
Refused side: the same scenario one step past the limit, expected to be refused at the JSON
path (rooted at the scenario) where the offending value sits, with a phrase of the reason.

The limits are those of Android's Message (MAX_TYPE_LENGTH 32, counted in UTF-16 units as
Java's String.length(); MAX_CONTENT_SIZE_BYTES 102,400) and Strategy (at most
TTL_SECONDS_MAX = 86,400; TTL_SECONDS_INFINITE only for subscriptions): ENGINE-V1. Every
vector carries the metadata of Vectors/README.md: the clauses it tests (ENGINE-V1 first, then
any other clause the accepted side's events follow), its flags, its source ("hand": the
expected events and refusals are worked out here from the clauses) and its verdict (a refused
scenario is invalid). The vectors are generated because a 100 KiB content is unwieldy by hand:
    python3 Scripts/limit-vectors.py
"""
import base64
import copy
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Vectors", "scenarios", "limits.json")

TOKEN = "a1a1a1a1a1a1"


def chat(type_, content=b"hi"):
    """A scenario: a phone in range publishes (type_, content) under TOKEN; the observer
    subscribes to type_ at 0 and sights TOKEN over BLE at 1 s; the replay ends at 2 s."""
    return {
        "scenario": 1,
        "registry": {"registry": 1, "publications": [
            {"id": "phone", "message": {"type": type_, "content": b64(content)}, "tokens": [{"token": TOKEN}]}]},
        "events": [
            {"time": 0, "subscribe": {"id": "s1", "type": type_}},
            {"time": 1, "sighting": {"token": TOKEN, "medium": "ble"}},
        ],
        "end": 2,
    }


def found(type_, content=b"hi"):
    # ENGINE-F1: found at the first counted sighting; ENGINE-F9: with `end` at 2 s the lost
    # (1 s + 10 s) never comes.
    return [{"time": 1, "event": "found", "subscription": "s1",
             "message": {"namespace": "", "type": type_, "content": b64(content)}}]


def b64(b):
    return base64.b64encode(b).decode()


# The accepted side finds its message (ENGINE-F1) and ends before the lost (ENGINE-F9) unless
# it says other clauses.
FOUND = ["ENGINE-F1", "ENGINE-F9"]


def meta(description, clauses, flags, verdict):
    return {"description": "ENGINE-V1: " + description, "clauses": ["ENGINE-V1"] + clauses,
            "flags": flags, "source": "hand", "verdict": verdict}


def accepted(id_, description, scenario, events, clauses=FOUND, flags=("InputLimit",)):
    return {"id": "scenario/v1-" + id_, "kind": "scenario", **meta(description, clauses, list(flags), "valid"),
            "toleranceSeconds": 0, "scenario": scenario, "expect": {"events": events}}


def refused(id_, description, scenario, path, reason, clauses=(), flags=("InputLimit",)):
    return {"id": "scenario/v1-" + id_, "kind": "scenario",
            **meta(description, list(clauses), list(flags), "invalid"),
            "scenario": scenario, "expect": {"refused": {"path": path, "reason": reason}}}


def main():
    vectors = []
    t32, t33 = "t" * 32, "t" * 33
    vectors.append(accepted("type-32-accepted", "a message type of 32 characters (MAX_TYPE_LENGTH) is accepted, "
                            "in the registry and in a subscription's filter, and the message is found.",
                            chat(t32), found(t32)))
    s = chat(t32)
    s["events"][0]["subscribe"]["type"] = t33
    vectors.append(refused("type-33-refused", "a subscription filtering on a type of 33 characters is refused "
                           "where the type is given.", s, "$.events[0].subscribe.type", "33 characters; at most 32"))
    s = chat(t32)
    s["registry"]["publications"][0]["message"]["type"] = t33
    vectors.append(refused("registry-type-33-refused", "a registry message of type with 33 characters is refused.",
                           s, "$.registry.publications[0].message.type", "33 characters; at most 32"))
    # U+1F600 is two UTF-16 units: 16 of them are 32 units (accepted), 17 are 34 (refused)
    # although 17 is well under 32 Unicode scalars.
    e16, e17 = "\U0001F600" * 16, "\U0001F600" * 17
    vectors.append(accepted("type-utf16-32-accepted", "the type length counts UTF-16 units as Java's String.length(): "
                            "16 emoji outside the BMP are 32 units and accepted.", chat(e16), found(e16)))
    s = chat(e16)
    s["events"][0]["subscribe"]["type"] = e17
    vectors.append(refused("type-utf16-34-refused", "17 emoji outside the BMP are 17 characters but 34 UTF-16 units "
                           "(Java's String.length()), so the type is refused.",
                           s, "$.events[0].subscribe.type", "34 characters; at most 32"))

    # Content: exactly 102,400 bytes published by the observer with a 1 s TTL expires at 1 s
    # (ENGINE-P1); one byte more is refused.
    def publish(content, ttl):
        return {"scenario": 1, "events": [
            {"time": 0, "publish": {"id": "p1", "message": {"type": "big", "content": b64(content)},
                                    "strategy": {"ttlSeconds": ttl}}}], "end": 2}
    big = bytes(i * 7 % 256 for i in range(102_400))
    vectors.append(accepted("content-102400-accepted", "a message of 102,400 bytes (MAX_CONTENT_SIZE_BYTES) can be "
                            "published; with a 1 s TTL it expires at 1 s (ENGINE-P1).", publish(big, 1),
                            [{"time": 1, "event": "publicationExpired", "publication": "p1"}], ["ENGINE-P1"]))
    vectors.append(refused("content-102401-refused", "a message of 102,401 bytes is refused where it is given.",
                           publish(big + b"\x00", 1), "$.events[0].publish.message.content",
                           "102401 bytes; at most 102400"))

    # TTL: 86,400 s accepted (expiry then, ENGINE-F6), a microsecond more refused, 0 refused,
    # infinite refused for a publication (accepted for a subscription elsewhere).
    def subscribe(ttl, end):
        return {"scenario": 1, "events": [{"time": 0, "subscribe": {"id": "s1", "strategy": {"ttlSeconds": ttl}}}], "end": end}
    vectors.append(accepted("ttl-86400-accepted", "a TTL of 86,400 s (TTL_SECONDS_MAX) is accepted; the subscription "
                            "expires then (ENGINE-F6).", subscribe(86400, 86401),
                            [{"time": 86400, "event": "subscriptionExpired", "subscription": "s1"}], ["ENGINE-F6"]))
    vectors.append(refused("ttl-over-max-refused", "a TTL one microsecond over 86,400 s is refused.",
                           subscribe(86400.000001, 86401), "$.events[0].subscribe.strategy.ttlSeconds", "out of range"))
    vectors.append(refused("ttl-zero-refused", "a TTL of 0 s is refused (a TTL is positive).",
                           subscribe(0, 1), "$.events[0].subscribe.strategy.ttlSeconds", "out of range"))
    p = publish(b"hi", "infinite")
    vectors.append(refused("publication-ttl-infinite-refused", "TTL_SECONDS_INFINITE is for subscriptions only; a "
                           "publication with it is refused (ENGINE-P1).", p, "$.events[0].publish.strategy.ttlSeconds",
                           "TTL_SECONDS_INFINITE", ["ENGINE-P1"]))

    # Times, ids, unsubscribe/unpublish, unknown fields, wrong types.
    s = chat("chat")
    s["events"][1]["time"] = -1
    vectors.append(refused("negative-time-refused", "a time before the scenario's origin is refused.",
                           s, "$.events[1].time", "out of range"))
    s = chat("chat")
    s["events"].append({"time": 0.5, "sighting": {"token": TOKEN, "medium": "ble"}})
    vectors.append(refused("time-out-of-order-refused", "an event earlier than the one before it is refused "
                           "(inputs are time-ordered, ENGINE-O1).", s, "$.events[2].time", "out of order",
                           ["ENGINE-O1"], []))
    s = chat("chat")
    s["events"].insert(1, {"time": 0.5, "subscribe": {"id": "s1", "type": "other"}})
    vectors.append(refused("subscription-id-twice-refused", "a subscription id still in use (its subscription has not "
                           "ended) is refused, even with another filter (ENGINE-L3).", s, "$.events[1].subscribe.id",
                           "is in use", ["ENGINE-L3"], []))
    s = chat("chat")
    s["events"].append({"time": 1.5, "unsubscribe": "s2"})
    vectors.append(refused("unsubscribe-unknown-refused", "unsubscribing what was never subscribed is refused.",
                           s, "$.events[2].unsubscribe", "no subscription \"s2\"", ["ENGINE-L3"], []))
    s = publish(b"hi", 1)
    s["events"].append({"time": 0.5, "unpublish": "p2"})
    vectors.append(refused("unpublish-unknown-refused", "unpublishing what was never published is refused.",
                           s, "$.events[1].unpublish", "no publication \"p2\"", ["ENGINE-L3"], []))
    s = chat("chat")
    s["events"][0]["subscribe"]["typ"] = "chat"
    vectors.append(refused("unknown-field-refused", "an unknown field (a misspelt \"type\") is an error, never ignored.",
                           s, "$.events[0].subscribe.typ", "unknown field \"typ\"", [], []))
    s = chat("chat")
    s["events"][1]["sighting"]["rssi"] = "-60"
    vectors.append(refused("wrong-type-refused", "a value of the wrong JSON type (RSSI as a string) is refused.",
                           s, "$.events[1].sighting.rssi", "found a string", [], []))

    doc = {"vectorFile": 1,
           "description": "ENGINE-V1 (input limits): scenarios at each limit, accepted with the events the rules give, "
                          "and one step past it, refused at the offending JSON path. Written by Scripts/limit-vectors.py.",
           "vectors": vectors}
    with open(OUT, "w") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(f"{OUT}: {len(vectors)} vectors")


if __name__ == "__main__":
    main()
