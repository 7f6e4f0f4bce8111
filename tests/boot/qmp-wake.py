#!/usr/bin/env python3
"""Wake a QEMU guest from suspend-to-RAM each time QEMU says it suspended.

usage: qmp-wake.py SOCKET COUNT_FILE [EVENT_LOG]

Connects to QEMU's QMP socket (QEMU started with -qmp unix:SOCKET,server=on,wait=on waits
for this connection before it runs the guest, so no event is missed), then for every
SUSPEND event sends system_wakeup, and writes the number of wake-ups to COUNT_FILE after
each one. Ends when QEMU closes the connection (the guest ended the run). With EVENT_LOG,
each SUSPEND and WAKEUP event is also written there with QEMU's timestamp ("EVENT SECONDS"),
for docs/results.md.
"""
import json
import os
import socket
import sys
import time

CONNECT_SECONDS = 30


def connect(path):
    deadline = time.monotonic() + CONNECT_SECONDS
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                sys.exit(f"qmp-wake: no QMP socket at {path}")
            time.sleep(0.05)


def write_count(path, n):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{n}\n")
    os.replace(tmp, path)


def wake_on_suspend(qmp, send, count_path, events):
    wakes = 0
    for line in qmp:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if events and msg.get("event") in ("SUSPEND", "WAKEUP"):
            t = msg.get("timestamp", {})
            events.write(f"{msg['event']} {t.get('seconds', 0)}.{t.get('microseconds', 0):06d}\n")
            events.flush()
        if msg.get("event") == "SUSPEND":
            send("system_wakeup")
        elif msg.get("event") == "WAKEUP":
            wakes += 1
            write_count(count_path, wakes)
        elif "error" in msg:
            print(f"qmp-wake: QEMU refused: {msg['error'].get('desc', msg)}", file=sys.stderr)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: qmp-wake.py SOCKET COUNT_FILE [EVENT_LOG]")
    sock_path, count_path = sys.argv[1:3]
    events = open(sys.argv[3], "w", encoding="utf-8") if len(sys.argv) == 4 else None
    write_count(count_path, 0)
    qmp = connect(sock_path).makefile("rw", encoding="utf-8", newline="\n")

    def send(command):
        qmp.write(json.dumps({"execute": command}) + "\n")
        qmp.flush()

    send("qmp_capabilities")
    try:
        wake_on_suspend(qmp, send, count_path, events)
    except (ConnectionResetError, BrokenPipeError):
        pass  # QEMU ended the run (isa-debug-exit) without closing politely


if __name__ == "__main__":
    main()
