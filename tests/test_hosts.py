"""DNS rebinding (#35 item 3): a page on evil.example whose name the attacker points at the table's
server would reach it through a guest's browser, with ``Host: evil.example`` (and a matching
``Origin``, so the Origin checks pass). The server answers only to the names and addresses it
is: its interfaces' addresses, loopback, ``localhost``, the public URL's host and a configured
list; anything else is ``421 http/misdirected``, for pages, the API and websockets alike."""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.error
import urllib.request

import pytest
from conftest import PYTHON_M_COMPANION, start_serve

from companion import create_app


def status(client, host: str, path: str = "/healthz", **headers: str) -> int:
    return client.get(path, headers={"Host": host, **headers}).status_code


@pytest.mark.parametrize("path", ["/healthz", "/", "/api/tables/ABCDE", "/static/nowhere.js",
                                  "/no/such/page"])
def test_a_request_for_another_sites_name_is_421_with_a_stable_code(client, path):
    r = client.get(path, headers={"Host": "evil.example"})
    assert r.status_code == 421
    assert r.get_json()["error"]["code"] == "http/misdirected"
    assert r.headers["X-Content-Type-Options"] == "nosniff"  # the usual headers still come


def test_a_write_from_a_rebound_page_is_refused_although_its_origin_matches_its_host(client):
    r = client.post("/api/tables", json={"game": "rankfile"},
                    headers={"Host": "evil.example:8000", "Origin": "http://evil.example:8000"})
    assert r.status_code == 421


@pytest.mark.parametrize("host", [
    "localhost", "localhost:8000", "LOCALHOST", "localhost.", "localhost.:8000",
    "app.localhost", "a.b.localhost:5000",
    "127.0.0.1", "127.0.0.1:8000", "127.0.0.2", "127.0.0.1.", "[::1]", "[::1]:8000",
    "[0:0:0:0:0:0:0:1]:8000", "[::ffff:127.0.0.1]:8000",
])
def test_localhost_and_loopback_are_this_server(client, host):
    assert status(client, host) == 200


@pytest.mark.parametrize("host", [
    "evil.example", "EVIL.example:8000", "localhost.evil.example", "evillocalhost",
    "127.0.0.1.evil.example", "127.0.0.1.nip.io", "localhost:8000.evil.example", "localhost:evil",
    "8.8.8.8", "8.8.8.8:8000", "[2001:db8::1]:8000", "0.0.0.0", "[::]:8000", "", " ", "a b",
    "[::1", "[::1]x", "::1", "localhost..", "127.1", "games.example.org",
    "[::1]:８０００",  # a digit, but not an ASCII one
])
def test_anything_else_is_refused(client, host):
    assert status(client, host) == 421


def test_a_request_without_host_is_no_browsers_and_is_served(client):
    """HTTP/1.0 tools (a load balancer's probe) may leave it out; no browser does."""
    assert client.get("/healthz", environ_overrides={"HTTP_HOST": None}).status_code == 200


def test_a_configured_name_is_served(make_app):
    listed = ["games.example.org", "*.tables.example", "203.0.113.7:8000"]
    client = make_app(ALLOWED_HOSTS=listed).test_client()
    for host in ("games.example.org", "Games.Example.Org.:8443", "a.tables.example", "x.y.tables.example",
                 "203.0.113.7", "203.0.113.7:80"):
        assert status(client, host) == 200, host
    for host in ("tables.example", "evil.example", "games.example.org.evil.example", "203.0.113.8"):
        assert status(client, host) == 421, host


def test_the_public_urls_host_is_served(make_app):
    client = make_app(PUBLIC_URL="https://Games.Example.Org").test_client()
    assert status(client, "games.example.org") == 200
    assert status(client, "games.example.org:443") == 200
    assert status(client, "evil.example") == 421


@pytest.mark.parametrize("listed", [["a b"], ["http://"], ["[::1"], [":80"]])
def test_a_list_entry_that_is_no_host_name_is_refused_at_start(db_url, listed):
    from companion.web.hosts import HostListInvalid

    with pytest.raises(HostListInvalid, match="COMPANION_ALLOWED_HOSTS"):
        create_app({"DATABASE_URL": db_url, "TESTING": True, "ALLOWED_HOSTS": listed})


def test_a_url_in_the_list_stands_for_its_host(make_app):
    client = make_app(ALLOWED_HOSTS=["https://games.example.org/"]).test_client()
    assert status(client, "games.example.org") == 200


def test_the_machines_addresses_are_served_and_read_again_when_one_is_new(make_app, clock):
    """A laptop that moves to another Wi-Fi gets a new address while it serves."""
    addresses = ["192.168.1.20", "fe80::1234"]
    client = make_app(MACHINE_ADDRESSES=lambda: list(addresses)).test_client()
    assert status(client, "192.168.1.20:8000") == 200
    assert status(client, "[fe80::1234]:8000") == 200
    assert status(client, "10.0.0.7:8000") == 421
    addresses.append("10.0.0.7")
    assert status(client, "10.0.0.7:8000") == 421  # read at most once a second, however asked
    clock.advance(1_001)
    assert status(client, "10.0.0.7:8000") == 200
    assert status(client, "192.168.1.20:8000") == 200


def test_the_machines_real_addresses_and_name_are_served(client):
    """``raspberrypi.local`` is how many open a Pi (mDNS)."""
    from companion.lan.netinfo import lan_address, machine_addresses

    assert status(client, f"{lan_address()}:8000") == 200
    machine = socket.gethostname()
    assert status(client, f"{machine}:8000") == 200 and status(client, f"{machine}.local") == 200
    for address in machine_addresses():
        assert status(client, f"[{address}]" if ":" in address else address) == 200, address


def test_without_trusted_proxies_x_forwarded_host_is_ignored(client):
    assert status(client, "localhost", **{"X-Forwarded-Host": "evil.example"}) == 200
    assert status(client, "evil.example", **{"X-Forwarded-Host": "localhost"}) == 421


def test_behind_a_trusted_proxy_the_forwarded_host_and_the_proxys_host_are_both_checked(make_app):
    client = make_app(TRUSTED_PROXY_HOPS=1, ALLOWED_HOSTS=["games.example.org"]).test_client()
    forwarded = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    assert status(client, "games.example.org", **forwarded) == 200  # nginx: Host $http_host
    assert status(client, "127.0.0.1:8000", **forwarded, **{"X-Forwarded-Host": "games.example.org"}) == 200
    assert status(client, "127.0.0.1:8000", **forwarded, **{"X-Forwarded-Host": "evil.example"}) == 421
    # the rebound page names the site itself in a header of its own; the proxy passed the
    # browser's Host, which gives it away
    assert status(client, "evil.example", **forwarded, **{"X-Forwarded-Host": "games.example.org"}) == 421


def raw_handshake(url: str, host: str, code: str, token: str) -> bytes:
    """The status of a browser's handshake that asked for ``host`` (and came from its page)."""
    address, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((address, int(port)), timeout=10) as s:
        s.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   f"Sec-WebSocket-Protocol: companion, companion.token.{token}\r\n\r\n").encode())
        return s.recv(4096).split(b"\r\n")[0].split(b" ")[1]


def test_a_websocket_for_another_sites_name_is_refused(live, live_tables):
    t = live_tables.create()
    port = live.url.rsplit(":", 1)[1]
    assert raw_handshake(live.url, f"evil.example:{port}", t["code"], t["host_token"]) == b"421"
    assert raw_handshake(live.url, f"127.0.0.1:{port}", t["code"], t["host_token"]) == b"101"


def test_a_live_probe_without_host_is_answered(live):
    address, port = live.url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((address, int(port)), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
        assert s.recv(4096).split(b"\r\n")[0].split(b" ")[1] == b"200"


def get(url: str, host: str | None = None) -> int:
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.parametrize("bind", ["127.0.0.1", "0.0.0.0"])
def test_companion_serve_answers_the_address_it_prints_and_no_other_name(tmp_path, bind):
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    proc, url = start_serve({**env, "COMPANION_ALLOWED_HOSTS": "games.example.org"},
                            "--db", str(tmp_path / "c.db"), "--host", bind)
    try:
        port = url.rsplit(":", 1)[1]
        assert get(url + "/healthz") == 200  # the QR's address: 127.0.0.1, or the LAN's
        assert get(f"http://127.0.0.1:{port}/healthz") == 200
        assert get(f"http://127.0.0.1:{port}/healthz", f"localhost:{port}") == 200
        assert get(f"http://127.0.0.1:{port}/healthz", "games.example.org") == 200
        assert get(f"http://127.0.0.1:{port}/healthz", f"evil.example:{port}") == 421
    finally:
        proc.kill()
        proc.wait(10)


def test_serve_with_a_list_entry_that_names_no_host_says_so_in_one_sentence(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    r = subprocess.run([*PYTHON_M_COMPANION, "serve", "--host", "127.0.0.1", "--port", "0",
                        "--db", str(tmp_path / "c.db")], capture_output=True, text=True, timeout=60,
                       env={**env, "COMPANION_ALLOWED_HOSTS": "games.example.org,http://"})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "COMPANION_ALLOWED_HOSTS: 'http://' is not a host name" in r.stderr.strip().splitlines()[-1]
