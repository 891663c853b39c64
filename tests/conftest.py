"""Fixtures: an app on a temporary database, a client, a live server for websockets, and a
helper that creates tables and joins players the way phones do."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from simple_websocket import Client, ConnectionClosed
from werkzeug.serving import make_server
from wsproto.utilities import LocalProtocolError

from companion import create_app
from companion.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path}/companion.db"


@pytest.fixture
def app(db_url, clock):
    return create_app({"DATABASE_URL": db_url, "CLOCK": clock, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


class Tables:
    """Creates tables and joins players through the public API, as the pages do."""

    def __init__(self, client) -> None:
        self.client = client

    def create(self, game: str = "rankfile", **options: Any) -> dict[str, Any]:
        r = self.client.post("/api/tables", json={"game": game, "options": options})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def join(self, code: str, name: str) -> dict[str, Any]:
        r = self.client.post(f"/api/tables/{code}/players", json={"name": name})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def command(self, code: str, token: str, type_: str, **fields: Any):
        return self.client.post(f"/api/tables/{code}/commands", json={"type": type_, **fields},
                                headers={"Authorization": f"Bearer {token}"})

    def ok(self, code: str, token: str, type_: str, **fields: Any) -> dict[str, Any]:
        r = self.command(code, token, type_, **fields)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def state(self, code: str, token: str) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{code}/state", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def seated(self, game: str, names: list[str], **options: Any):
        """A started table: (code, host token, {name: token}, {name: player id})."""
        t = self.create(game, **options)
        tokens, ids = {}, {}
        for n in names:
            j = self.join(t["code"], n)
            tokens[n], ids[n] = j["token"], j["player_id"]
        self.ok(t["code"], t["host_token"], "table.start_game")
        return t["code"], t["host_token"], tokens, ids


@pytest.fixture
def tables(client) -> Tables:
    return Tables(client)


class DaemonThread(threading.Thread):
    """simple-websocket's client starts a reader thread per connection; as a daemon it never
    keeps the test run alive after a server stopped with sockets still open."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["daemon"] = True
        super().__init__(*args, **kwargs)


class PhoneClient(Client):
    """simple-websocket's client takes only the handshake's answer from its first read; frames
    that came in the same read waited in its parser until more data arrived, and were lost if
    the server closed first (an auth error). Take them in at once."""

    def handshake(self) -> None:
        super().handshake()
        self._handle_events()
        self.connected = True  # a close among them is seen once its frames have been read

    @classmethod
    def open(cls, url: str, origin: str) -> PhoneClient:
        return cls(url, headers={"Origin": origin}, thread_class=DaemonThread)


class LiveServer:
    def __init__(self, app) -> None:
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.sockets: list[Socket] = []

    def ws(self, code: str, token: str, since: int | None = None, origin: str | None = None):
        q = f"?token={token}" + (f"&since={since}" if since is not None else "")
        sock = Socket(self.client(self.url.replace("http", "ws") + f"/ws/{code}{q}", origin))
        self.sockets.append(sock)
        return sock

    def client(self, url: str, origin: str | None = None) -> PhoneClient:
        return PhoneClient.open(url, origin or self.url)

    def stop(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.server.shutdown()
        self.server.server_close()


class Socket:
    """A websocket client that reads JSON frames with a timeout."""

    def __init__(self, ws: Client) -> None:
        self.ws = ws

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    def recv(self, timeout: float = 5) -> dict[str, Any]:
        data = self.ws.receive(timeout=timeout)
        assert data is not None, "no frame arrived in time"
        return json.loads(data)

    def until(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        while True:
            m = self.recv(timeout)
            if m["type"] == kind:
                return m

    def drain(self, timeout: float = 0.3) -> list[dict[str, Any]]:
        out = []
        try:
            while (data := self.ws.receive(timeout=timeout)) is not None:
                out.append(json.loads(data))
        except ConnectionClosed:
            pass
        return out

    def close(self) -> None:
        try:
            self.ws.close()
        # closed already; or simple-websocket's reader thread marked it open again while it
        # was closing (it assigns ``connected`` after each read), and wsproto knows better
        except (ConnectionClosed, OSError, LocalProtocolError):
            pass


@pytest.fixture
def live_app(db_url):
    return create_app({"DATABASE_URL": db_url, "TESTING": True})


@pytest.fixture
def live(live_app) -> Iterator[LiveServer]:
    server = LiveServer(live_app)
    yield server
    server.stop()


@pytest.fixture
def live_tables(live_app) -> Tables:
    return Tables(live_app.test_client())
