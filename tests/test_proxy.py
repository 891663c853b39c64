"""Behind a real proxy: Debian's nginx with the configuration of docs/deploying.md (TLS, two
server processes on one PostgreSQL), and a browser's Origin. The proxy's port is not the
server's, so the Origin check must go by what the browser asked for (reverse_proxy.py)."""

import json
import socket
import ssl

import pytest
from conftest import DaemonThread, PhoneClient, Tables
from reverse_proxy import SITE_NAME, Nginx, ProxyUnavailable


def handshake_headers(host: str, origin: str) -> dict[str, str]:
    """A browser's websocket handshake as nginx forwards it."""
    return {"Host": host, "Origin": origin, "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}


@pytest.mark.parametrize("host, origin, allowed", [
    (SITE_NAME, f"https://{SITE_NAME}", True),               # 443 on both sides, no port in Host
    (f"{SITE_NAME}:8443", f"https://{SITE_NAME}:8443", True),
    (SITE_NAME, f"http://{SITE_NAME}", False),               # port 80 is another origin
    (SITE_NAME, f"https://{SITE_NAME}:8000", False),         # the upstream's port is not the site's
    (SITE_NAME, "https://evil.example", False),
])
def test_behind_a_trusted_tls_proxy_the_origin_is_compared_with_what_the_browser_asked(
        make_app, host, origin, allowed):
    client = make_app(TRUSTED_PROXY_HOPS=1).test_client()
    t = Tables(client).create()
    r = client.get(f"/ws/{t['code']}", headers=handshake_headers(host, origin))
    assert (r.status_code != 403) is allowed


@pytest.fixture
def proxied_pair(postgres, serve):
    url = postgres.new_database()
    servers = [serve(url, COMPANION_TRUSTED_PROXY_HOPS="1") for _ in range(2)]
    try:
        nginx = Nginx([s.base.removeprefix("http://") for s in servers])
    except ProxyUnavailable as e:
        pytest.fail(str(e))  # `make test` installs nginx: a missing one must not pass unnoticed
    yield nginx, servers
    nginx.remove()


def tls(nginx) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=nginx.cert)


def test_through_nginx_a_browsers_websocket_hears_commands_sent_through_either_process(proxied_pair):
    nginx, (a, b) = proxied_pair
    t = a.call("/api/tables", {"game": "rankfile"})
    code = t["code"]
    anna = b.call(f"/api/tables/{code}/players", {"name": "Anna"})
    site = f"https://127.0.0.1:{nginx.port}"
    ws = PhoneClient(f"wss://127.0.0.1:{nginx.port}/ws/{code}",
                     subprotocols=["companion", f"companion.token.{anna['token']}"],
                     headers={"Origin": site}, ssl_context=tls(nginx), thread_class=DaemonThread)

    def next_of(kind):
        while (m := json.loads(ws.receive(timeout=10)))["type"] != kind:
            pass
        return m

    assert next_of("ready")["seq"] == 2
    # The table's phones all reach one process (the hash on its code); a command through
    # each process directly: one of them is the other process, whose commit it hears of.
    for server, command in ((a, "timer.start"), (b, "timer.pause")):
        done = server.call(f"/api/tables/{code}/commands", {"type": command}, token=t["host_token"])
        assert next_of("event")["seq"] == done["seq"]
    ws.close()
    log = nginx.logged(f"GET /ws/{code} HTTP/1.1\" 101")  # once the tunnel has closed
    assert anna["token"] not in log and t["host_token"] not in log


def test_through_nginx_on_the_sites_own_name_and_port_443_the_origin_is_the_sites(proxied_pair):
    """A browser on https://games.example.org sends no port in Host or Origin: the upstream,
    listening on another port, must still see them as one origin."""
    nginx, (a, _) = proxied_pair
    t = a.call("/api/tables", {"game": "rankfile"})
    for origin, status in ((f"https://{SITE_NAME}", b"101"), ("https://evil.example", b"403")):
        request = (f"GET /ws/{t['code']} HTTP/1.1\r\nHost: {SITE_NAME}\r\nOrigin: {origin}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                   f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   f"Sec-WebSocket-Protocol: companion, companion.token.{t['host_token']}\r\n\r\n")
        with socket.create_connection(("127.0.0.1", nginx.port), timeout=10) as raw, \
                tls(nginx).wrap_socket(raw, server_hostname=SITE_NAME) as conn:
            conn.sendall(request.encode())
            assert conn.recv(4096).split(b" ")[1] == status, origin
