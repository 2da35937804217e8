#!/usr/bin/env python3
"""Times a one-page edit under `kansoku serve`: from the file's write to the
reload message on the dev server's WebSocket (what an open page acts on).

    benches/serve_edit.py PORT PAGE [RUNS]

PORT is a running `kansoku serve --port PORT`; PAGE is a content file of
that site. Each run appends a word to the page's last line of prose (a body
edit, which is what a maintainer's save usually is), waits for the reload
message, then waits 1 s so runs do not overlap. The file is restored at the
end. Prints each run and the median in ms. Standard library only.
"""

import base64
import os
import socket
import statistics
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    origin = f"http://127.0.0.1:{port}"
    s.sendall(
        (
            "GET /__kansoku/ws HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port}\r\n"
            f"Origin: {origin}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            sys.exit("connection closed during the handshake")
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        sys.exit(f"no WebSocket: {head.decode(errors='replace')}")
    return s


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            sys.exit("connection closed")
        buf += chunk
    return buf


def next_text(s):
    """The next text frame from the server (unmasked, unfragmented)."""
    while True:
        b0, b1 = recv_exact(s, 2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(recv_exact(s, 2), "big")
        elif n == 127:
            n = int.from_bytes(recv_exact(s, 8), "big")
        payload = recv_exact(s, n)
        if b0 & 0x0F == 1:
            return payload.decode()


def edited(text, word):
    """`text` with `word` appended to its last line of prose (not a `:::`
    fence, not blank), so the page stays valid."""
    lines = text.split("\n")
    for n in range(len(lines) - 1, -1, -1):
        line = lines[n].strip()
        if line and not line.startswith(":::") and line != "+++":
            lines[n] += word
            return "\n".join(lines)
    sys.exit("no line of prose to edit")


def main():
    port, page = int(sys.argv[1]), sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    original = open(page, encoding="utf-8").read()
    s = connect(port)
    times = []
    try:
        for i in range(runs):
            text = edited(original, f" edit{i}")
            start = time.perf_counter()
            with open(page, "w", encoding="utf-8") as f:
                f.write(text)
            msg = next_text(s)
            ms = (time.perf_counter() - start) * 1000
            times.append(ms)
            print(f"run {i + 1}: {ms:.1f} ms ({msg[:40]})", file=sys.stderr)
            time.sleep(1)
    finally:
        with open(page, "w", encoding="utf-8") as f:
            f.write(original)
    print(f"median {statistics.median(times):.1f} ms over {runs} runs "
          f"(min {min(times):.1f}, max {max(times):.1f})")


if __name__ == "__main__":
    main()
