"""The table's QR code is the key (#35 item 2): its link carries a join secret in the URL's
fragment (``#k=…``), which the phone sends with its join. A guesser rotating made-up device ids
spends its address's new-device allowance and then its code guesses, so a newcomer at that
address (a café's one public address) who types the code gets 429, but one who scanned the QR
code joins; a wrong secret is no secret. The secret never reaches a log."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import urllib.request
from urllib.parse import urlsplit

import pytest

from companion.lan import qr
from companion.serving.server import Server

SECRET_HEADER = "X-Companion-Join-Secret"


def secret_of(join_url: str) -> str:
    fragment = urlsplit(join_url).fragment
    assert fragment.startswith("k="), join_url
    return fragment[2:]


def exhaust(client) -> None:
    """A guesser with a new device id for every wrong code, until its address has no guess
    left: the new-device allowance is spent, and then the address's own bucket."""
    for i in range(400):
        r = client.get(f"/api/tables/QQ{i:03d}", headers={"X-Companion-Device": f"made-up-{i:06d}"})
        if r.status_code == 429:
            return
    pytest.fail("the guesser was never limited")


def test_the_join_url_carries_the_secret_in_its_fragment(tables):
    t = tables.create("rankfile")
    url = urlsplit(t["join_url"])
    assert url.path == f"/t/{t['code']}" and not url.query
    assert len(secret_of(t["join_url"])) >= 22  # 128 bits, URL-safe base64
    other = tables.create("rankfile")
    assert secret_of(other["join_url"]) != secret_of(t["join_url"])


def test_a_newcomer_with_the_qr_secret_joins_where_a_guesser_spent_the_address(client, tables):
    t = tables.create("rankfile")
    code, secret = t["code"], secret_of(t["join_url"])
    exhaust(client)
    newcomer = {"X-Companion-Device": "newcomer-phone-0001"}

    # a typed code stays limited as today
    assert client.get(f"/api/tables/{code}", headers=newcomer).status_code == 429
    typed = client.post(f"/api/tables/{code}/players", json={"name": "Typed"}, headers=newcomer)
    assert typed.status_code == 429 and typed.get_json()["error"]["code"] == "rate/limited"

    # the QR code's link: the join page's facts (the secret in a header) and the join (in its body)
    info = client.get(f"/api/tables/{code}", headers={**newcomer, SECRET_HEADER: secret})
    assert info.status_code == 200 and info.get_json()["game"] == "rankfile"
    joined = client.post(f"/api/tables/{code.lower()}/players",
                         json={"name": "Anna", "join_secret": secret}, headers=newcomer)
    assert joined.status_code == 201, joined.get_json()
    assert tables.state(code, joined.get_json()["token"])["state"]["me"]["player_id"] == \
        joined.get_json()["player_id"]
    for i in range(5):  # 5 of 5 new phones at that address join
        r = client.post(f"/api/tables/{code}/players", json={"name": f"P{i}", "join_secret": secret},
                        headers={"X-Companion-Device": f"phone-{i:012d}"})
        assert r.status_code == 201 or r.get_json()["error"]["code"] == "table/full"


@pytest.mark.parametrize("wrong", ["x" * 22, "", 42, None, ["k"], "ü" * 22])
def test_a_wrong_secret_is_no_secret(client, tables, wrong):
    t = tables.create("rankfile")
    other = tables.create("rankfile")  # another table's secret opens only that table
    exhaust(client)
    for secret in (wrong, secret_of(other["join_url"])):
        r = client.post(f"/api/tables/{t['code']}/players", json={"name": "Anna", "join_secret": secret})
        assert r.status_code == 429, r.get_json()
        header = {SECRET_HEADER: secret if isinstance(secret, str) else "1"}
        assert client.get(f"/api/tables/{t['code']}", headers=header).status_code == 429


def test_the_secret_does_not_open_a_code_that_is_not_a_table(client, tables):
    """A secret is made for one code; a made-up one is a wrong guess like any other."""
    t = tables.create("rankfile")
    r = client.post("/api/tables/QQQQQ/players",
                    json={"name": "Anna", "join_secret": secret_of(t["join_url"])})
    assert r.status_code == 404


def test_the_join_secret_is_the_same_in_another_process(tables, make_app):
    t = tables.create("rankfile")
    other = make_app().test_client()  # another process on the same instance folder and database
    exhaust(other)
    r = other.post(f"/api/tables/{t['code']}/players",
                   json={"name": "Anna", "join_secret": secret_of(t["join_url"])})
    assert r.status_code == 201, r.get_json()


def test_only_the_host_gets_the_secret(client, tables):
    """The table's public facts, a seat's state and the QR code for anyone but the host name
    the plain join URL: the secret is the table screen's to show, as its QR code."""
    t = tables.create("rankfile")
    secret = secret_of(t["join_url"])
    plain = t["join_url"].split("#")[0]
    anna = tables.join(t["code"], "Anna")
    assert client.get(f"/api/tables/{t['code']}").get_json()["join_url"] == plain
    for token in (None, anna["token"]):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        assert client.get(f"/api/tables/{t['code']}/qr.svg", headers=headers).data == qr.svg(plain)
        assert secret not in str(client.get(f"/api/tables/{t['code']}/state", headers=headers).get_json())
    # a hand-over's link names its seat's token, not the join secret
    handed = client.post(f"/api/tables/{t['code']}/players/{anna['player_id']}/handover",
                         headers={"Authorization": f"Bearer {t['host_token']}"}).get_json()
    assert secret not in handed["url"] and handed["url"].startswith(plain + "#seat=")


def test_the_table_screens_qr_code_encodes_the_join_url_with_its_secret(client, tables, tmp_path):
    t = tables.create("rankfile")
    exhaust(client)  # the table's screen at the café's address: its host token is never limited
    host = {"Authorization": f"Bearer {t['host_token']}"}
    svg = client.get(f"/api/tables/{t['code']}/qr.svg", headers=host)
    assert svg.status_code == 200 and svg.data == qr.svg(t["join_url"])
    png = client.get(f"/api/tables/{t['code']}/qr.png", headers=host)
    assert png.status_code == 200 and png.mimetype == "image/png"
    if shutil.which("zbarimg"):  # installed by make test
        (tmp_path / "qr.png").write_bytes(png.data)
        out = subprocess.run(["zbarimg", "--quiet", "--raw", str(tmp_path / "qr.png")],
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == t["join_url"]


def test_no_log_line_holds_the_secret(live_app, live_tables, caplog):
    """Served as `companion serve` serves (its access log), with every logger at DEBUG: the
    secret travels in a fragment, a header and a body, none of which a log line shows."""
    server = Server("127.0.0.1", 0, live_app, request_timeout_s=5.0, max_connections=40)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    def call(method: str, path: str, body: bytes | None = None, **headers: str) -> int:
        req = urllib.request.Request(base + path, data=body, method=method,
                                     headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    try:
        with caplog.at_level(logging.DEBUG):
            t = live_tables.create("rankfile")
            code, secret = t["code"], secret_of(t["join_url"])
            assert call("GET", f"/t/{code}") == 200  # what a browser asks for the QR's link
            assert call("GET", f"/api/tables/{code}", **{SECRET_HEADER: secret}) == 200
            assert call("POST", f"/api/tables/{code}/players",
                        f'{{"name": "Anna", "join_secret": "{secret}"}}'.encode()) == 201
            assert call("POST", f"/api/tables/{code}/players",  # refused: Anna is taken
                        f'{{"name": "Anna", "join_secret": "{secret}"}}'.encode()) == 409
            assert call("GET", f"/api/tables/{code}/qr.svg", Authorization=f"Bearer {t['host_token']}") == 200
        server.shutdown()
    finally:
        server.server_close()
    assert f"/api/tables/{code}/players" in caplog.text  # the access log was captured
    assert secret not in caplog.text


def test_a_qr_join_is_not_refused_by_its_addresss_join_bucket(client, tables, app):
    """#41 item 7: the join bucket is the address's, and refused joins spend it too. Someone
    joining at their own table until it is spent (some seated, some refused as taken or full,
    then 429s) must not keep a phone that opened the QR link at that address out: a join with
    the right secret spends nothing of it; a wrong secret spends and is refused as before."""
    burst = app.config["JOINS_PER_MINUTE"]
    own = tables.create("rankfile")
    said = [client.post(f"/api/tables/{own['code']}/players", json={"name": f"P{i % 6}"}).status_code
            for i in range(burst + 10)]  # six seated, the rest refused as taken, then limited
    assert (said.count(201), said.count(409), said.count(429)) == (6, burst - 6, 10), said

    t = tables.create("rankfile")
    secret = secret_of(t["join_url"])
    typed = client.post(f"/api/tables/{t['code']}/players", json={"name": "Typed"})
    assert typed.status_code == 429
    for wrong in ("x" * 22, secret_of(own["join_url"])):
        r = client.post(f"/api/tables/{t['code']}/players", json={"name": "Wrong", "join_secret": wrong})
        assert r.status_code == 429, r.get_json()
    for name in ("Anna", "Bela"):
        r = client.post(f"/api/tables/{t['code']}/players", json={"name": name, "join_secret": secret})
        assert r.status_code == 201, r.get_json()
    taken = client.post(f"/api/tables/{t['code']}/players", json={"name": "Anna", "join_secret": secret})
    assert taken.get_json()["error"]["code"] == "table/name_taken"  # refused by the table, not the bucket
