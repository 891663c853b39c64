"""No secret of a venue in a log line (issue 44 item 6): `companion serve --log-level debug`, the
whole of a café's evening through it (a venue made, a tent scanned, a game started and joined by
it, the staff's screen and socket, a tent reprinted, a wrong and an old tent), and then its
output read. A tent's secret travels in a fragment, a header or a body; the staff's token in a
header or the socket's subprotocol; neither in a URL's path or query."""

from __future__ import annotations

import json
import os
import signal
import urllib.error
import urllib.request
from typing import Any

from conftest import DaemonThread, PhoneClient, Socket, start_serve


def test_no_log_line_holds_a_tents_secret_or_the_staffs_token(tmp_path):
    out = tmp_path / "serve.log"
    env = {**os.environ, "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path}/c.db"}
    proc, base = start_serve(env, "--log-level", "debug", output=out, cwd=tmp_path)

    def call(method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        req = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                status, kind, data = r.status, r.headers.get_content_type(), r.read()
        except urllib.error.HTTPError as e:
            status, kind, data = e.code, e.headers.get_content_type(), e.read()
        return status, json.loads(data) if kind == "application/json" else data

    try:
        status, cafe = call("POST", "/api/venues", {"name": "Kockás Café", "tables": ["1", "Window"],
                                                    "wifi": {"ssid": "Guests", "password": "wifi-pass-1234"}})
        assert status == 201, cafe
        staff = {"Authorization": f"Bearer {cafe['token']}"}
        url = cafe["tables"][1]["url"]
        secret = url.split("#k=")[1]
        tent = {"X-Companion-Tent": secret}
        path = f"/api/venues/{cafe['id']}/tables/Window"
        assert call("GET", url.split("#")[0].removeprefix(base))[0] in (200, 404)  # the page (venue-pages')
        assert call("GET", path, **tent)[0] == 200
        status, made = call("POST", path + "/games", {"game": "rankfile"}, **tent)
        assert status == 201, made
        assert call("GET", f"/api/tables/{made['code']}", **tent)[0] == 200
        assert call("POST", f"/api/tables/{made['code']}/players", {"name": "Anna", "tent": secret})[0] == 201
        assert call("POST", f"/api/tables/{made['code']}/players", {"name": "Anna", "tent": secret})[0] == 409
        assert call("GET", f"/api/venues/{cafe['id']}", **staff)[0] == 200
        assert call("GET", path + "/qr.svg", **staff)[0] == 200
        assert call("GET", f"/api/venues/{cafe['id']}/wifi.svg", **staff)[0] == 200
        counter = Socket(PhoneClient(base.replace("http", "ws") + f"/ws/venue/{cafe['id']}",
                                     subprotocols=["companion", f"companion.token.{cafe['token']}"],
                                     headers={"Origin": base}, thread_class=DaemonThread))
        assert counter.recv() == {"type": "moved"}
        status, reprinted = call("POST", path + "/tent", {}, **staff)
        assert status == 200
        assert call("GET", path, **tent)[0] == 403  # the old secret, a wrong guess now
        new_secret = reprinted["url"].split("#k=")[1]
        join = f"/api/tables/{made['code']}/players"
        assert call("POST", join, {"name": "Bence", "tent": new_secret})[0] == 201
        assert call("POST", join, {"name": "Csilla", "tent": secret})[0] == 403
        assert call("POST", path + "/end", {}, **staff)[0] == 200
        assert counter.until("moved")
        counter.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    said = out.read_text()
    assert f"/api/venues/{cafe['id']}/tables/Window/games" in said  # its requests were logged, at DEBUG
    assert "DEBUG" in said
    assert f"{base}/venue" in said  # where the staff's page is, among the addresses it prints
    for kept in (secret, new_secret, cafe["token"], made["host_token"], "wifi-pass-1234"):
        assert kept not in said
