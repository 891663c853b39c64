"""What the requests that froze or bloated the server now cost (#41): `companion serve` on a
throwaway database, then
1. a hundred chunked bodies with a chunk size of -6 (the ~100 bytes that stopped the request
   loop for good), and how long a page load waits afterwards;
2. a few connections that declare one chunk of 0x7fffffffffff bytes and stream it as fast as
   loopback takes it: the server's resident memory, sampled while they send, and how much each
   got to send before its 413;
3. a raw client that sends a 5 MB body without asking first: whether it reads its 413 (before,
   it saw a reset in 1 of 2 runs).

    python bench/hostile_requests.py [--streams 4] [--seconds 8] [--tries 20]
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time

from broadcast import proc_status
from slow_guest import serve, source

CHUNKED = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n")
PAGE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def page_load_s(port: int) -> float:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(PAGE)
        while s.recv(65536):
            pass
    return time.monotonic() - started


def negative_chunks(port: int, count: int) -> None:
    held = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source(i), 0))
        s.sendall(CHUNKED + b"-6\r\n")
        held.append(s)
    answered = sum(1 for s in held if s.recv(12) == b"HTTP/1.1 400")
    for s in held:
        s.close()
    print(f"chunk size -6 x{count}: {answered} answered 400 at once; a page load then took "
          f"{page_load_s(port) * 1000:.0f} ms")


def huge_chunk(port: int, pid: int, streams: int, seconds: float) -> None:
    before = proc_status(pid, "VmRSS")
    peak = before
    sent = [0] * streams
    answered = [b""] * streams
    stop = time.monotonic() + seconds

    def stream(i: int) -> None:
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source(200 + i), 0))
        s.sendall(CHUNKED + b"7fffffffffff\r\n")
        block = b"x" * 262144
        try:
            while time.monotonic() < stop:
                sent[i] += s.send(block)
        except OSError:  # the server closed: read what it said
            pass
        try:
            answered[i] = s.recv(12)
        except OSError:
            pass
        s.close()

    threads = [threading.Thread(target=stream, args=(i,)) for i in range(streams)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        peak = max(peak, proc_status(pid, "VmRSS"))
        time.sleep(0.1)
    print(f"chunk of 0x7fffffffffff x{streams} streamed for up to {seconds:.0f} s: resident memory "
          f"{before / 1024:.0f} MB before, {peak / 1024:.0f} MB at most (+{(peak - before) / 1024:.1f} MB); "
          f"sent before the close: {', '.join(f'{n / 1024:.0f} KB' for n in sent)}; answers: "
          f"{sorted({a.decode(errors='replace') for a in answered})}")


def big_body(port: int, tries: int) -> None:
    got_413 = 0
    for i in range(tries):
        s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source(300 + i), 0))
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\n\r\n")
        said: list[bytes] = []

        def read(sock: socket.socket = s, into: list[bytes] = said) -> None:
            try:
                while chunk := sock.recv(65536):
                    into.append(chunk)
            except OSError:
                pass

        reader = threading.Thread(target=read)
        reader.start()
        try:
            s.sendall(b"x" * 5_000_000)
        except OSError:
            pass
        reader.join(15)
        s.close()
        got_413 += b"".join(said).startswith(b"HTTP/1.1 413")
    print(f"5 MB body without Expect: {got_413} of {tries} read their 413")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--tries", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        proc, url = serve(d, 10.0)
        try:
            port = int(url.rsplit(":", 1)[1])
            negative_chunks(port, 100)
            huge_chunk(port, proc.pid, args.streams, args.seconds)
            big_body(port, args.tries)
        finally:
            proc.terminate()
            proc.wait(20)


if __name__ == "__main__":
    main()
