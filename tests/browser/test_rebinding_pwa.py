"""DNS rebinding as a guest's browser meets it (#35 item 3): the attacker's page was loaded from
``evil.example``, and then the name was pointed at the table's server. The page's scripts are
now same-origin with the server as far as the browser knows; the server must not answer them.

A browser of its own whose resolver maps ``evil.example`` to 127.0.0.1: the name once rebound.
The attacker's scripts are run in a page of that origin (Playwright's ``evaluate``). Its page
is not handed over first from elsewhere: Chromium itself keeps a page from a public address
off loopback (Private Network Access), but Firefox and Safari do not, and the server must hold
whatever the browser."""

from __future__ import annotations

from .conftest import CHROMIUM, PHONE

READ = "(q) => fetch('/api/tables/' + q.code).then((r) => r.status)"


def test_a_rebound_page_can_neither_read_nor_write_nor_open_a_socket(browser, live, live_tables):
    t = live_tables.create()
    port = live.url.rsplit(":", 1)[1]
    guest = browser.browser_type.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
              "--disable-component-update", "--disable-sync", "--disable-quic",
              "--host-resolver-rules=MAP evil.example 127.0.0.1"])
    try:
        page = guest.new_context(**PHONE).new_page()
        page.goto(f"http://evil.example:{port}/cats")
        read = page.evaluate(READ, {"code": t["code"]})
        wrote = page.evaluate("""(q) => fetch('/api/tables/' + q.code + '/players', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Mallory'})})
            .then(async (r) => [r.status, ((await r.json()).error || {}).code])""",
                              {"code": t["code"]})
        opened = page.evaluate("""(q) => new Promise((done) => {
            const ws = new WebSocket('ws://evil.example:' + q.port + '/ws/' + q.code, ['companion']);
            ws.onopen = () => done('open'); ws.onerror = () => done('refused'); })""",
                               {"port": port, "code": t["code"]})
        assert (read, wrote, opened) == (421, [421, "http/misdirected"], "refused")
        page.goto(f"http://127.0.0.1:{port}/cats")  # the same server by its own address answers
        assert page.evaluate(READ, {"code": t["code"]}) == 200
    finally:
        guest.close()
    assert [p["name"] for p in live_tables.state(t["code"], t["host_token"])["state"]["players"]] == []
