"""Behind a real proxy: Debian's nginx with the configuration of docs/deploying.md (TLS, two
server processes on one PostgreSQL): a browser's Origin, a database blip and a dead process.
The proxy's port is not the server's, so the Origin check must go by what the browser asked
for (reverse_proxy.py)."""

import http.client
import json
import socket
import ssl
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import DaemonThread, PhoneClient, Tables
from reverse_proxy import SITE_NAME


def first_line(port: int, request: str, tls_to: tuple[ssl.SSLContext, str] | None = None) -> bytes:
    """The status line of the answer to a raw request (a handshake as a browser or nginx sends it)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    with tls_to[0].wrap_socket(raw, server_hostname=tls_to[1]) if tls_to else raw as conn:
        conn.sendall(request.encode())
        return conn.recv(4096).split(b"\r\n")[0]


def handshake(code: str, token: str, host: str, origin: str, extra: str = "") -> str:
    return (f"GET /ws/{code} HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Sec-WebSocket-Protocol: companion, companion.token.{token}\r\n{extra}\r\n")


@pytest.mark.parametrize("host, origin, status", [
    (SITE_NAME, f"https://{SITE_NAME}", 101),               # 443 on both sides, no port in Host
    (f"{SITE_NAME}:8443", f"https://{SITE_NAME}:8443", 101),
    (SITE_NAME, f"http://{SITE_NAME}", 403),                # port 80 is another origin
    (SITE_NAME, f"https://{SITE_NAME}:8000", 403),          # the upstream's port is not the site's
    (SITE_NAME, "https://evil.example", 403),
])
def test_behind_a_trusted_tls_proxy_the_origin_is_compared_with_what_the_browser_asked(
        make_app, serve_app, host, origin, status):
    app = make_app(TRUSTED_PROXY_HOPS=1, PUBLIC_URL=f"https://{SITE_NAME}")  # as deploying.md says
    t = Tables(app.test_client()).create()
    live = serve_app(app)
    forwarded = "X-Forwarded-Proto: https\r\nX-Forwarded-For: 203.0.113.9\r\n"
    line = first_line(int(live.url.rsplit(":", 1)[1]), handshake(t["code"], t["host_token"], host, origin,
                                                                  forwarded))
    assert line.split(b" ")[1] == str(status).encode(), line


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
    listening on another port, must still see them as one origin. A page on a name pointed at
    the proxy (DNS rebinding) is refused by its Host, which nginx passes on as it came."""
    nginx, (a, _) = proxied_pair
    t = a.call("/api/tables", {"game": "rankfile"})
    for host, origin, status in ((SITE_NAME, f"https://{SITE_NAME}", b"101"),
                                 (SITE_NAME, "https://evil.example", b"403"),
                                 ("evil.example", "https://evil.example", b"421")):  # DNS rebinding
        line = first_line(nginx.port, handshake(t["code"], t["host_token"], host, origin),
                          (tls(nginx), SITE_NAME))
        assert line.split(b" ")[1] == status, (origin, line)


def through(nginx, path: str, body: object = None, token: str | None = None) -> tuple[int, str, bytes]:
    """(status, content type, body) of a request a phone sends through nginx."""
    conn = http.client.HTTPSConnection("127.0.0.1", nginx.port, context=tls(nginx), timeout=30)
    try:
        conn.request("POST" if body is not None else "GET", path,
                     body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json",
                              **({"Authorization": f"Bearer {token}"} if token else {})})
        r = conn.getresponse()
        return r.status, r.getheader("Content-Type", ""), r.read()
    finally:
        conn.close()


def test_through_nginx_a_database_blip_is_the_apps_json_503_and_over_when_the_database_is_back(
        proxied_pair, postgres):
    """The documented block once retried a 503 on the next process and counted it as that
    process failing: phones of tables on both processes asking during a blip marked both down
    for nginx's fail_timeout, and every page, asset and command was nginx's HTML 502 until
    seconds after the database was back. A 503 is the app's answer to pass on; only a process
    that does not answer is skipped (the next test)."""
    nginx, (a, _) = proxied_pair
    tables = [a.call("/api/tables", {"game": "rankfile"}) for _ in range(6)]  # on both, by hash
    postgres.stop()
    try:
        # phones coming back read their tables (a GET, which nginx may retry) and send commands
        asks = [(f"/api/tables/{t['code']}/state", None, t["host_token"]) for t in tables]
        asks += [(f"/api/tables/{t['code']}/commands", {"type": "timer.start"}, t["host_token"])
                 for t in tables[:2]]
        with ThreadPoolExecutor(len(asks)) as pool:
            answers = list(pool.map(lambda ask: (ask[0], *through(nginx, *ask)), asks))
        for path, status, kind, answer in answers:
            assert (status, kind) == (503, "application/json"), (path, status, answer[:200])
            # a read waits a second at most behind its table's command that is retrying
            assert json.loads(answer)["error"]["code"] in {"server/unavailable", "table/busy"}
        code = tables[0]["code"]
        for page in ("/", f"/t/{code}", "/static/js/main.js", "/sw.js"):
            status, _, answer = through(nginx, page)
            assert status == 200, (page, status, answer[:200])
    finally:
        postgres.start()
    for t in tables:  # each process, the moment the database is back
        status, _, answer = through(nginx, f"/api/tables/{t['code']}/commands", {"type": "timer.start"},
                                    t["host_token"])
        assert status == 200, answer[:300]


def test_through_nginx_a_dead_process_is_skipped_for_reads_and_commands(proxied_pair):
    """What the block still retries: a process that does not answer. Its tables' phones,
    commands too (nginx sent them nothing), are served by the other process."""
    nginx, (a, b) = proxied_pair
    tables = [a.call("/api/tables", {"game": "rankfile"}) for _ in range(6)]  # on both, by hash
    b.kill()
    for t in tables:
        for path, body in ((f"/api/tables/{t['code']}/state", None),
                           (f"/api/tables/{t['code']}/commands", {"type": "timer.start"})):
            status, _, answer = through(nginx, path, body, t["host_token"])
            assert status == 200, (path, status, answer[:200])
