"""Phones that come and go all evening: `companion serve` in its own process, phones that close
cleanly, drop their connection, or vanish without a word; the server's threads and open files
(read from /proc of its process) come back to where they were."""

from __future__ import annotations

import gc
import json
import os
import resource
import socket
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import start_serve
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage


def threads_and_fds(pid: int) -> tuple[int, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    threads = int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))
    return threads, len(os.listdir(f"/proc/{pid}/fd"))


class Served:
    """`companion serve` on an ephemeral port, pinging every half second (unless told)."""

    def __init__(self, tmp_path: Path, open_files: int | None = None, ping_interval_s: float = 0.5,
                 ping_timeout_s: float = 0.5) -> None:
        env = {**os.environ, "COMPANION_WS_PING_INTERVAL_S": str(ping_interval_s),
               "COMPANION_WS_PING_TIMEOUT_S": str(ping_timeout_s), "COMPANION_JOINS_PER_MINUTE": "1000"}
        self.proc, self.url = start_serve(
            env, "--db", str(tmp_path / "churn.db"), cwd=tmp_path,
            preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files)))
            if open_files else None)
        self.port = int(self.url.rsplit(":", 1)[1])

    def post(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(req, timeout=10).read())

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


class Phone:
    """A websocket client on a plain socket, read only when the test asks."""

    def __init__(self, port: int, path: str, first: str = "ready") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.sock.sendall(self.ws.send(Request(host=f"127.0.0.1:{port}", target=path)))
        self.messages: list[str] = []
        self.pings = 0
        self.wait_for(lambda: any(f'"{first}"' in m for m in self.messages))

    def wait_for(self, done) -> None:  # type: ignore[no-untyped-def]
        while not done():
            data = self.sock.recv(65536)
            assert data, "the server closed the connection"
            self.ws.receive_data(data)
            for ev in self.ws.events():
                if isinstance(ev, TextMessage):
                    self.messages.append(ev.data)
                elif isinstance(ev, CloseConnection):
                    raise AssertionError(f"closed: {ev}")
                elif isinstance(ev, Ping):  # pings come every 0.5 s: on a busy machine, before "ready"
                    self.pings += 1
                    self.sock.sendall(self.ws.send(ev.response()))
                else:
                    assert isinstance(ev, AcceptConnection), ev

    def close_cleanly(self) -> None:
        self.sock.sendall(self.ws.send(CloseConnection(code=1000)))
        self.sock.settimeout(5)
        while self.sock.recv(65536):  # the server's close frame, then its end of the connection
            pass
        self.sock.close()


def back_to(pid: int, baseline: tuple[int, int], seconds: float) -> bool:
    """Whether threads and fds are at most the baseline's within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        threads, fds = threads_and_fds(pid)
        if threads <= baseline[0] and fds <= baseline[1]:
            return True
        if time.monotonic() > deadline:
            print("threads, fds:", (threads, fds), "baseline:", baseline)
            return False
        time.sleep(0.1)


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.stop()


def test_closed_dropped_and_vanished_phones_give_back_their_threads_and_sockets(served):
    table = served.post("/api/tables", {"game": "rankfile"})
    path = f"/ws/{table['code']}?token={table['host_token']}"
    Phone(served.port, path).close_cleanly()  # the reactor and the database's pool are warm now
    pid = served.proc.pid
    time.sleep(0.3)
    baseline = threads_and_fds(pid)

    for _ in range(30):  # open, then close with a close frame
        Phone(served.port, path).close_cleanly()
    assert back_to(pid, baseline, 5)

    for _ in range(30):  # the connection ends without a close frame
        Phone(served.port, path).sock.close()
    assert back_to(pid, baseline, 5)

    # Wi-Fi gone: silent, never closed; a seat each (a seat's next connection probes its last)
    hosts = [served.post("/api/tables", {"game": "rankfile"}) for _ in range(30)]
    vanished = [Phone(served.port, f"/ws/{t['code']}?token={t['host_token']}") for t in hosts]
    assert threads_and_fds(pid)[0] >= baseline[0] + 30
    assert back_to(pid, baseline, 6)  # let go after the ping timeout
    for phone in vanished:
        phone.sock.close()
    with urllib.request.urlopen(served.url + "/healthz", timeout=5) as r:
        assert json.loads(r.read()) == {"ok": True}


def test_room_screens_that_go_give_back_their_threads_and_sockets(served):
    """A league room's socket (issue 36) is let go as a phone's is: closed, dropped, or gone
    without a word (a projector's laptop put to sleep)."""
    made = served.post("/api/leagues", {"name": "Thursday club"})
    path = f"/ws/league/{made['id']}?token={made['token']}"
    Phone(served.port, path, "room.changed").close_cleanly()  # warm
    pid = served.proc.pid
    time.sleep(0.3)
    baseline = threads_and_fds(pid)
    for _ in range(20):
        Phone(served.port, path, "room.changed").close_cleanly()
    assert back_to(pid, baseline, 5)
    for _ in range(20):
        Phone(served.port, path, "room.changed").sock.close()
    assert back_to(pid, baseline, 5)
    vanished = [Phone(served.port, path, "room.changed") for _ in range(20)]
    assert threads_and_fds(pid)[0] >= baseline[0] + 20
    assert back_to(pid, baseline, 6)  # let go after the ping timeout
    for phone in vanished:
        phone.sock.close()


@pytest.fixture
def slow_pings(tmp_path):
    """Pings only every 30 s, a pong due within 1 s of its ping."""
    s = Served(tmp_path, ping_interval_s=30, ping_timeout_s=1)
    yield s
    s.stop()


def test_a_phone_that_wakes_lets_go_of_the_socket_it_slept_on(slow_pings):
    table = slow_pings.post("/api/tables", {"game": "rankfile"})
    path = f"/ws/{table['code']}?token={table['host_token']}"
    pid = slow_pings.proc.pid
    asleep = Phone(slow_pings.port, path)  # slept without a close frame; reads nothing from now on
    time.sleep(0.3)
    one_phone = threads_and_fds(pid)
    awake = Phone(slow_pings.port, path)  # the same seat, back: its old socket is probed
    assert back_to(pid, one_phone, 4)  # long before the next ping, 30 s away
    asleep.sock.close()
    awake.close_cleanly()


def test_a_second_tab_that_answers_the_probe_stays(slow_pings):
    table = slow_pings.post("/api/tables", {"game": "rankfile"})
    path = f"/ws/{table['code']}?token={table['host_token']}"
    first = Phone(slow_pings.port, path)
    second = Phone(slow_pings.port, path)
    first.wait_for(lambda: first.pings >= 1)  # answered
    time.sleep(1.5)  # past the pong's deadline
    second.sock.sendall(second.ws.send(TextMessage(data=json.dumps({"type": "timer.start"}))))
    first.wait_for(lambda: any("TimerStarted" in m for m in first.messages))
    first.close_cleanly()
    second.close_cleanly()


def test_a_phone_that_goes_leaves_nothing_for_the_cyclic_collector_but_a_small_class(live, live_tables):
    """What a websocket held (its request, socket, buffers, wsproto state) is freed by
    reference counting when the phone goes, not at the collector's next full pass: on a busy
    evening those come every few thousand connections, and RSS grows by what waits for them."""
    table = live_tables.create()
    port = int(live.url.rsplit(":", 1)[1])
    path = f"/ws/{table['code']}?token={table['host_token']}"
    Phone(port, path).close_cleanly()  # warm
    time.sleep(0.2)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what the collector finds unreachable, to look at it
    try:
        for i in range(10):
            phone = Phone(port, path)
            phone.close_cleanly() if i % 2 else phone.sock.close()
        time.sleep(0.5)  # every request thread done
        gc.collect()
        kinds = {type(o).__name__ for o in gc.garbage}
        held = [o for o in gc.garbage if isinstance(o, (socket.socket, WSConnection))
                or (isinstance(o, dict) and "werkzeug.socket" in o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not held, kinds  # flask-sock's per-request response class is left, and it is small


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_with_128_open_files_the_server_outlasts_the_phones(tmp_path):
    served = Served(tmp_path, open_files=128)
    try:
        table = served.post("/api/tables", {"game": "rankfile"})
        path = f"/ws/{table['code']}?token={table['host_token']}"
        for _ in range(130):  # more cycles than it has files
            Phone(served.port, path).close_cleanly()
        assert served.post("/api/tables", {"game": "rankfile"})["code"]
        # more idle connections than files: those beyond the cap are closed at once, and the
        # server waits rather than spinning on a listener it cannot accept from
        idle = [socket.create_connection(("127.0.0.1", served.port)) for _ in range(140)]
        before = cpu_seconds(served.proc.pid)
        time.sleep(1)
        assert cpu_seconds(served.proc.pid) - before < 0.5
        for s in idle:
            s.close()
        deadline = time.monotonic() + 10
        while True:  # its slots free again as the server notices the closes
            try:
                with urllib.request.urlopen(served.url + "/healthz", timeout=5) as r:
                    assert r.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        served.stop()
