"""A socket loop that stops turning shows (#41): /healthz answers 503 naming it, and systemd's
watchdog is no longer pinged, so the documented unit (WatchdogSec=) restarts the process. Each
loop is stalled here on purpose."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from companion.loops import heartbeat
from companion.loops.reactor import reactor
from companion.serving.server import Server


@pytest.fixture
def quick_stall(monkeypatch):
    monkeypatch.setattr(heartbeat, "STALL_S", 0.5)


def stall(call_soon, seconds: float) -> threading.Event:
    """Block the loop's own thread for ``seconds``; set once it is blocked."""
    blocked = threading.Event()

    def block() -> None:
        blocked.set()
        time.sleep(seconds)

    call_soon(block)
    assert blocked.wait(5)
    return blocked


def wait_until(check, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_a_stalled_request_loop_makes_healthz_unready_until_it_turns_again(live_app, quick_stall):
    server = Server("127.0.0.1", 0, live_app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    client = live_app.test_client()
    try:
        assert wait_until(lambda: client.get("/healthz").status_code == 200)
        stall(server.reader.call, 2.0)
        assert wait_until(lambda: client.get("/healthz").status_code == 503)
        body = client.get("/healthz").get_json()
        assert body["loops"] is False and "requests" in body["stalled"]
        assert body["error"]["code"] == "server/stalled"
        assert wait_until(lambda: client.get("/healthz").status_code == 200)
    finally:
        server.shutdown()
        server.server_close()


def test_a_stalled_websocket_reactor_makes_healthz_unready(live_app, quick_stall):
    reactor._ensure_running()  # started by the first websocket otherwise
    client = live_app.test_client()
    assert wait_until(lambda: client.get("/healthz").status_code == 200)
    stall(reactor.call_soon, 1.5)
    assert wait_until(lambda: client.get("/healthz").status_code == 503)
    assert "websockets" in client.get("/healthz").get_json().get("stalled", [])
    assert wait_until(lambda: client.get("/healthz").status_code == 200)


def test_systemd_is_pinged_from_the_loop_and_not_while_it_is_stuck(live_app, tmp_path, monkeypatch,
                                                                   quick_stall):
    address = str(tmp_path / "notify")
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(address)
    systemd.settimeout(0.1)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "300000")  # a ping every 0.15 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    server = Server("127.0.0.1", 0, live_app)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def pings(for_s: float) -> list[float]:
        got, end = [], time.monotonic() + for_s
        while time.monotonic() < end:
            try:
                assert systemd.recv(64) == b"WATCHDOG=1"
                got.append(time.monotonic())
            except TimeoutError:
                pass
        return got

    try:
        assert len(pings(1.0)) >= 3
        stall(server.reader.call, 2.0)
        pings(0.2)  # what was sent before the loop stopped
        assert pings(1.2) == []  # stuck: systemd hears nothing, and restarts it after WatchdogSec
        assert wait_until(lambda: bool(pings(0.3)))
    finally:
        server.shutdown()
        server.server_close()
        systemd.close()
