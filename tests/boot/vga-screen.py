#!/usr/bin/env python3
"""Reads QEMU's VGA text screen through QMP until the kernel's verdict line
is on it, writes the screen as 25 lines of text, and quits QEMU.

    vga-screen.py QMP_SOCKET OUT_FILE [TIMEOUT_SECONDS]

Used by tests/boot/vga.t: the kernel mirrors its log to the 80x25 text
screen at 0xB8000; QMP's `xp` reads that memory (the character is the low
byte of each 16-bit cell, the attribute the high byte). Exit status 0 when
the verdict was seen, 1 otherwise.
"""
import json
import socket
import sys
import time


def main():
    sock_path, out_path = sys.argv[1], sys.argv[2]
    deadline = time.time() + (float(sys.argv[3]) if len(sys.argv) > 3 else 120)
    s = None
    while s is None and time.time() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock_path)
        except OSError:
            s = None
            time.sleep(0.2)
    if s is None:
        print("vga-screen: no QMP socket at " + sock_path, file=sys.stderr)
        return 1
    f = s.makefile('rw')

    def cmd(obj):
        f.write(json.dumps(obj) + '\n')
        f.flush()
        while True:
            r = json.loads(f.readline())
            if 'return' in r or 'error' in r:
                return r

    json.loads(f.readline())   # the greeting
    cmd({'execute': 'qmp_capabilities'})
    rows = []
    while time.time() < deadline:
        r = cmd({'execute': 'human-monitor-command',
                 'arguments': {'command-line': 'xp /2000hx 0xb8000'}})
        cells = []
        for line in r.get('return', '').splitlines():
            if ':' in line:
                cells += [int(w, 16) for w in line.split(':', 1)[1].split()]
        rows = [''.join(chr(c & 0xff) if 32 <= (c & 0xff) < 127 else ' '
                        for c in cells[i * 80:(i + 1) * 80]).rstrip() for i in range(25)]
        if any(row.startswith('# cryptoqual: ') for row in rows):
            break
        time.sleep(0.5)
    with open(out_path, 'w') as out:
        out.write('\n'.join(rows) + '\n')
    cmd({'execute': 'quit'})
    return 0 if any(row.startswith('# cryptoqual: ') for row in rows) else 1


sys.exit(main())
