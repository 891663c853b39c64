"""Honest status codes (RFC 6455, RFC 9110): each refusal carries the header a client needs to
act on it, and the API answers in JSON while the pages answer in HTML."""

import socket

import pytest


def handshake(live, version: str | None, path: str = "/ws/ABCDE?token=x") -> tuple[str, dict[str, str]]:
    """A raw websocket handshake: the status line and headers of the answer."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {live.url.removeprefix('http://')}", "Upgrade: websocket",
             "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", f"Origin: {live.url}"]
    if version is not None:
        lines.append(f"Sec-WebSocket-Version: {version}")
    host, port = live.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head and (chunk := s.recv(4096)):
            head += chunk
    status, *rest = head.split(b"\r\n\r\n")[0].decode().split("\r\n")
    return status, {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in rest)}


@pytest.mark.parametrize("version", ["8", "", None])
def test_a_websocket_version_other_than_13_is_426_naming_13(live, live_tables, version):
    t = live_tables.create()
    status, headers = handshake(live, version, f"/ws/{t['code']}?token={t['host_token']}")
    assert status.split(" ")[1] == "426"
    assert headers["sec-websocket-version"] == "13"
    assert headers["content-type"] == "application/json"


def test_version_13_still_opens(live, live_tables):
    t = live_tables.create()
    status, headers = handshake(live, "13", f"/ws/{t['code']}?token={t['host_token']}")
    assert status.split(" ")[1] == "101" and headers["upgrade"].lower() == "websocket"


def test_401_names_the_bearer_scheme(tables, client):
    t = tables.create()
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        r = client.get(f"/api/tables/{t['code']}/state", headers=headers)
        assert r.status_code == 401
        assert r.headers["WWW-Authenticate"].startswith("Bearer")


def test_429_says_when_to_try_again(client, app):
    for _ in range(app.config["WRONG_CODES_PER_MINUTE"]):
        client.get("/api/tables/QQQ99")
    r = client.get("/api/tables/QQQ99")
    assert r.status_code == 429 and r.get_json()["error"]["code"] == "rate/limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60


def test_api_405_is_json_with_allow(client):
    r = client.get("/api/tables/ACDEF/commands")
    assert r.status_code == 405 and r.get_json()["error"]["code"] == "http/method_not_allowed"
    assert "POST" in r.headers["Allow"]


@pytest.mark.parametrize("path", ["/api/nowhere", "/api"])
def test_api_404_is_json(client, path):
    r = client.get(path)
    assert r.status_code == 404 and r.is_json and r.get_json()["error"]["code"] == "http/not_found"


def test_pages_answer_404_and_405_in_html(client):
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.mimetype == "text/html"
    r = client.post("/")
    assert r.status_code == 405 and r.mimetype == "text/html" and "GET" in r.headers["Allow"]


def test_a_plain_get_of_a_websocket_address_is_426(client, tables):
    t = tables.create()
    r = client.get(f"/ws/{t['code']}?token={t['host_token']}")
    assert r.status_code == 426 and r.headers["Upgrade"] == "websocket"
    assert r.get_json()["error"]["code"] == "ws/upgrade_required"


def raw_answer(live, request_line: str) -> tuple[str, dict[str, str], bytes]:
    """What the server (companion serve's, not the test client) answers a request: its status
    line, headers and body."""
    host, port = live.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(f"{request_line}\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *rest = head.decode().split("\r\n")
    return status, {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in rest)}, body


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_the_api_answers_a_method_it_has_not_in_json_also_to_head(live, live_tables, method):
    """A HEAD's answer has no body (RFC 9110), but says what the GET's would be: the JSON error
    of its length, with Allow, where a tester met an empty 405."""
    t = live_tables.create()
    status, headers, body = raw_answer(live, f"{method} /api/tables/{t['code']}/commands HTTP/1.1")
    assert status.split(" ")[1] == "405" and "POST" in headers["allow"]
    assert headers["content-type"] == "application/json" and int(headers["content-length"]) > 0
    assert body == b"" if method == "HEAD" else b'"http/method_not_allowed"' in body


@pytest.mark.parametrize("path", ["/api/nowhere", "/api/tables/ABCDE/nowhere", "/api/", "/api//x",
                                  "/api/%ZZ"])
def test_an_unknown_api_path_is_a_json_404_from_the_server_too(live, path):
    status, headers, body = raw_answer(live, f"GET {path} HTTP/1.1")
    assert status.split(" ")[1] == "404" and headers["content-type"] == "application/json"
    assert b'"http/not_found"' in body
