#!/usr/bin/env python3
"""A misbehaving HCI controller served over TCP as H4, for the tests of `--live`: it listens on
127.0.0.1 (a free port, printed on standard output as the first line), serves one host,
and behaves as MODE says:

  command-error  answers every command with success, but LE Set Scan Parameters (0x200B)
                 with status 0x12 (Invalid HCI Command Parameters)
  disconnect     lets the host start (legacy) scanning, sends three LE Advertising Reports
                 of an iBeacon, then closes the connection
  garbage        lets the host start scanning, sends two LE Advertising Reports, then bytes
                 that start no H4 packet (0x5a...)
  silent         never answers

After the host's connection ends it prints, as a JSON line, what it sent: the number of
packets and of stream bytes before the garbage. It gives up after 30 s whatever happens.
Written from the Core specification (Vol 4 Part A §2, Part E §7.7.14, §7.7.65.2), not from
the code under test.
"""
import json
import socket
import struct
import sys

IBEACON = bytes.fromhex("0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
ADDRESS = bytes.fromhex("030b00007dc4")  # c4:7d:00:00:0b:03, little-endian


def command_complete(opcode, status, extra=b""):
    params = bytes([1]) + struct.pack("<H", opcode) + bytes([status]) + extra
    return bytes([0x04, 0x0E, len(params)]) + params


def advertising_report(rssi):
    # LE Meta, subevent 0x02: 1 report, ADV_NONCONN_IND, random address, data, RSSI.
    params = bytes([0x02, 1, 0x03, 0x01]) + ADDRESS + bytes([len(IBEACON)]) + IBEACON + struct.pack("b", rssi)
    return bytes([0x04, 0x3E, len(params)]) + params


def read_command(conn):
    header = b""
    while len(header) < 4:
        chunk = conn.recv(4 - len(header))
        if not chunk:
            return None
        header += chunk
    length = header[3]
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            return None
        body += chunk
    assert header[0] == 0x01, "the host sends commands only"
    return struct.unpack("<H", header[1:3])[0]


def serve(conn, mode):
    sent_packets = 0
    sent_bytes = 0

    def send(packet):
        nonlocal sent_packets, sent_bytes
        conn.sendall(packet)
        sent_packets += 1
        sent_bytes += len(packet)

    while True:
        opcode = read_command(conn)
        if opcode is None:
            break
        if mode == "silent":
            continue
        if opcode == 0x200B and mode == "command-error":
            send(command_complete(opcode, 0x12))
            continue
        # LE Read Local Supported Features: no extended advertising, so legacy scanning.
        extra = bytes(8) if opcode == 0x2003 else b""
        send(command_complete(opcode, 0x00, extra))
        if opcode == 0x200C and mode in ("disconnect", "garbage"):
            for i in range(3 if mode == "disconnect" else 2):
                send(advertising_report(-40 - i))
            if mode == "garbage":
                conn.sendall(b"\x5a" * 16)
            break
    return {"packets": sent_packets, "bytesBeforeGarbage": sent_bytes}


def main():
    mode = sys.argv[1]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(30)
    print(listener.getsockname()[1], flush=True)
    conn, _ = listener.accept()
    conn.settimeout(30)
    try:
        result = serve(conn, mode)
    except (socket.timeout, ConnectionError):
        result = {"packets": -1, "bytesBeforeGarbage": -1}
    conn.close()
    print(json.dumps(result, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
