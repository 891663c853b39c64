"""Fixtures: an app on a temporary database, a client, a live server for websockets, and a
helper that creates tables and joins players the way phones do.

A test module or test marked ``both_backends`` runs on SQLite and on PostgreSQL: a throwaway
cluster (companion/storage/pgcluster.py; one per session, a new schema per test). If it cannot be
started the PostgreSQL runs are skipped with the reason, and fail in CI (``CI=true``), where
nothing may pass by not running."""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from simple_websocket import Client, ConnectionClosed
from wsproto.utilities import LocalProtocolError

from companion import create_app
from companion.clock import FakeClock
from companion.serving.server import Server
from companion.storage.pgcluster import ClusterUnavailable, PostgresCluster


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# Property tests check what the rules do, not how fast: hypothesis's default deadline (200 ms an
# example) failed on a 2-core machine busy with browser tests. Timing lives in bench/.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "both_backends: runs on SQLite and on PostgreSQL")


# The longest tests, handed out first (longest processing time first): in collection order one of
# them came last to a worker while the others had run dry, and the suite waited on it alone.
LONGEST = ("browser/test_engines_pwa.py", "test_migrations.py::test_0002_",
           "test_persistence.py::test_kill_9", "test_fuzz.py::test_random_commands",
           "browser/test_phones_layout.py", "browser/test_first_tap_pwa.py",
           "browser/test_glass_in_reach_pwa.py", "browser/test_blank_pwa.py", "test_proxy.py",
           "browser/test_proxy_pwa.py", "browser/test_installed_package.py", "test_cli.py")


def pytest_collection_modifyitems(items) -> None:
    def rank(item) -> int:
        return next((i for i, part in enumerate(LONGEST) if part in item.nodeid), len(LONGEST))

    items.sort(key=rank)


def pytest_generate_tests(metafunc) -> None:
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def backend(request) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    try:
        import psycopg  # noqa: F401 - the driver COMPANION_DATABASE_URL needs

        cluster = PostgresCluster()
    except (ImportError, ClusterUnavailable) as e:
        reason = f"PostgreSQL could not be started for the tests: {e}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    yield cluster
    cluster.remove()


@pytest.fixture
def db_url(request, backend, tmp_path) -> str:
    if backend == "postgresql":
        return request.getfixturevalue("postgres").new_database()
    return f"sqlite:///{tmp_path}/companion.db"


def closed(app) -> None:
    """Let go of an app's database connections and its fan-out (PostgreSQL counts them)."""
    s = app.extensions["companion"]
    s.tables.close()
    s.store.engine.dispose()
    if s.store.shared:
        gc.collect()  # a connection left open warns here, in the test that left it


@pytest.fixture
def make_app(db_url, clock):
    """More apps on the test's database, as more server processes would be (closed after)."""
    made = []

    def make(**config: Any):
        made.append(create_app({"DATABASE_URL": db_url, "CLOCK": clock, "TESTING": True, **config}))
        return made[-1]

    yield make
    for app in made:
        closed(app)


@pytest.fixture
def app(make_app):
    return make_app()


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
        if self.port not in (80, 443):  # Host as a browser sends it (RFC 9110: with its port)
            self.host = f"{self.host}:{self.port}"
        super().handshake()
        self._handle_events()
        self.connected = True  # a close among them is seen once its frames have been read

    @classmethod
    def open(cls, url: str, origin: str) -> PhoneClient:
        return cls(url, headers={"Origin": origin}, thread_class=DaemonThread)


class LiveServer:
    def __init__(self, app) -> None:
        self.app = app
        self.server = Server("127.0.0.1", 0, app)  # the server `companion serve` runs
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
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
    """A websocket client that reads JSON frames with a timeout: 15 s, as the browser tests
    wait, for a server on 2 loaded cores (only a frame that never comes costs the wait)."""

    def __init__(self, ws: Client) -> None:
        self.ws = ws

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        data = self.ws.receive(timeout=timeout)
        assert data is not None, "no frame arrived in time"
        return json.loads(data)

    def until(self, kind: str, timeout: float = 15) -> dict[str, Any]:
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



def posted_at_once(urls: list[str], body: dict[str, Any], headers: dict[str, str]) -> list[tuple[int, Any]]:
    """Each URL posted ``body`` at the same moment (a barrier), from as many threads: the taps
    of several phones or processes racing for one thing. Their (status, JSON) in order."""
    at_once = threading.Barrier(len(urls))

    def post(url: str) -> tuple[int, Any]:
        req = urllib.request.Request(url, method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **headers})
        at_once.wait()
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    with ThreadPoolExecutor(len(urls)) as pool:
        return list(pool.map(post, urls))

def screen_socket(server, path: str, token: str, origin: str | None = None) -> Socket:
    """The socket of a screen of many tables (a league's room, a venue's counter), its token
    offered as the page offers it: a subprotocol, never in the URL."""
    url = server.url.replace("http", "ws") + path
    ws = Socket(PhoneClient(url, subprotocols=["companion", f"companion.token.{token}"],
                            headers={"Origin": origin or server.url}, thread_class=DaemonThread))
    server.sockets.append(ws)
    return ws



def dropped_screens_let_go(screens: list[Socket], registry: Any) -> None:
    """One screen's socket closed, another's connection just ended (no close frame): within
    15 s the ``registry`` of screens (a league's rooms, a venue's counters) watches the rest
    only. Then those close too."""
    keep = len(screens) - 2
    screens[0].close()
    screens[1].ws.sock.shutdown(socket.SHUT_RDWR)
    deadline = time.monotonic() + 15
    while registry.watching() != keep:
        assert time.monotonic() < deadline, registry.watching()
        time.sleep(0.05)
    for ws in screens[2:]:
        ws.close()

def told(ws: Socket, notice: dict[str, Any]) -> bool:
    """Whether ``notice`` came within a short wait (and nothing else did)."""
    got = ws.drain(0.5)
    assert all(m == notice for m in got), got
    return bool(got)

@pytest.fixture
def live_app(db_url):
    app = create_app({"DATABASE_URL": db_url, "TESTING": True})
    yield app
    closed(app)


@contextmanager
def serving(app, **kw: Any) -> Iterator[Server]:
    """``app`` served on loopback by the server `companion serve` runs, for the block's length."""
    server = Server("127.0.0.1", 0, app, **kw)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory) -> Iterator[Server]:
    """One server for a module whose tests each come from an address of their own (127.0.0.0/8
    is all this machine), so no address's limits are reached: building an app is the slow part."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('db')}/c.db"})
    with serving(app, max_connections=200) as server:  # the deadline: 10 s
        yield server
    closed(app)


@pytest.fixture
def serve_app() -> Iterator[Any]:
    """Serves apps on loopback; the servers are stopped after the test."""
    servers: list[LiveServer] = []

    def start(app) -> LiveServer:
        servers.append(LiveServer(app))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def serve_companion(live_app) -> Iterator[Any]:
    """``serve_companion(**server_options)``: the live app behind ``companion serve``'s own
    server (its slots, deadlines and reader), on loopback; its port. Stopped after the test."""
    from companion.serving.server import Server

    started: list[Server] = []

    def run(**kw: Any) -> int:
        server = Server("127.0.0.1", 0, live_app, **kw)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return server.server_address[1]

    yield run
    for server in started:
        server.shutdown()
        server.server_close()


def connect_from(port: int, source: str) -> socket.socket:
    """A connection from another loopback address: 127.0.0.0/8 is all this machine."""
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


@pytest.fixture
def live(live_app, serve_app) -> LiveServer:
    return serve_app(live_app)


@pytest.fixture
def live_tables(live_app) -> Tables:
    return Tables(live_app.test_client())


PYTHON_M_COMPANION = (sys.executable, "-m", "companion")


def start_serve(env: dict[str, str], *args: str, program: tuple[str, ...] = PYTHON_M_COMPANION,
                output: Path | None = None, **popen: Any) -> tuple[subprocess.Popen[str], str]:
    """``companion serve`` (``program`` is the command before ``serve``) on loopback, and the
    URL it says it listens at; what it prints goes to ``output``, if given, to read later. It
    takes a free port itself: a port found free here could be taken, before the server binds
    it, by any connection's ephemeral port (one in ~10 runs of the two-process test, whose
    servers talk to PostgreSQL meanwhile)."""
    env = {**env}
    env.pop("COMPANION_PUBLIC_URL", None)
    # A file, as a pipe no one reads would break the server's later prints. The server appends
    # through an open file of its own: sharing this one's offset, its next line would be written
    # wherever the seek(0) below had just put it, over the "open:" line (the rare "did not
    # start" of the kill -9 tests, whose output ended with the QR code).
    with tempfile.NamedTemporaryFile("w+") as scratch, open(output or scratch.name, "a") as server_out, \
            open(output or scratch.name) as out:
        proc = subprocess.Popen(
            [*program, "serve", "--host", "127.0.0.1", "--port", "0", *args],
            stdout=server_out, stderr=subprocess.STDOUT, text=True, env=env, **popen)
        deadline = time.monotonic() + 60  # a loaded machine starts Python slowly
        while time.monotonic() < deadline and proc.poll() is None:
            out.seek(0)
            said = [line for line in out.read().splitlines() if "open:" in line]
            if said:
                return proc, said[0].split("open:")[1].strip().rstrip("/")
            time.sleep(0.05)
        proc.kill()
        proc.wait(10)
        out.seek(0)
        raise RuntimeError(f"server did not start (exit {proc.returncode}):\n{out.read()[-3000:]}")


class ServerProcess:
    """``companion serve`` in a process of its own, on the given database, that a test can
    kill -9 like a crash would."""

    def __init__(self, db_url: str | None = None,
                 started: tuple[subprocess.Popen[str], str] | None = None, **env: str) -> None:
        """``companion serve`` on ``db_url`` (with ``env`` added to its environment), or a server
        already ``started`` (its process and URL); ready once its /healthz says so."""
        self.proc, self.base = started or start_serve(
            {**os.environ, "COMPANION_DATABASE_URL": db_url, **env})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if self.call("/healthz") == {"ok": True}:
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start")

    def call(self, path: str, body: Any = None, token: str | None = None) -> Any:
        req = urllib.request.Request(
            self.base + path, method="POST" if body is not None else "GET",
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json",
                     **({"Authorization": f"Bearer {token}"} if token else {})})
        with urllib.request.urlopen(req, timeout=15) as r:  # as Socket waits
            return json.loads(r.read())

    def ws(self, code: str, token: str, since: int | None = None) -> Socket:
        q = f"?token={token}" + (f"&since={since}" if since is not None else "")
        return Socket(PhoneClient.open(self.base.replace("http", "ws") + f"/ws/{code}{q}", self.base))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def serve() -> Iterator[Any]:
    """Starts server processes on a database; whatever is still running is killed after."""
    started: list[ServerProcess] = []

    def start(db_url: str, **env: str) -> ServerProcess:
        started.append(ServerProcess(db_url, **env))
        return started[-1]

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def proxied_pair(postgres, serve):
    """Debian's nginx with the configuration of docs/deploying.md (reverse_proxy.py) in front of
    two server processes on one PostgreSQL database."""
    from reverse_proxy import SITE_NAME, Nginx, ProxyUnavailable

    url = postgres.new_database()
    # the site's name, as COMPANION_PUBLIC_URL would give it (start_serve leaves that out)
    servers = [serve(url, COMPANION_TRUSTED_PROXY_HOPS="1", COMPANION_ALLOWED_HOSTS=SITE_NAME)
               for _ in range(2)]
    try:
        nginx = Nginx([s.base.removeprefix("http://") for s in servers])
    except ProxyUnavailable as e:  # as for PostgreSQL: skipped, but never in CI
        (pytest.fail if os.environ.get("CI") == "true" else pytest.skip)(f"nginx could not be started: {e}")
    yield nginx, servers
    nginx.remove()
