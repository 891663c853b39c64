"""Regenerate the screenshots in docs/: a phone and the table screen, in English and in
Hungarian, mid-game with the sand running (BLANKO, a word half typed on the phone).

    .venv/bin/python scripts/screenshots.py [--port 18450] [--walk DIR]

It serves the app on a throwaway database on loopback and drives Debian's Chromium with
Playwright, as the browser tests do; it is not part of the test suite. ``--walk DIR`` also
saves every game's phone and table screen at 390×844 in Hungarian into DIR, for looking over
the whole app the way a new player meets it.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import expect, sync_playwright
from werkzeug.serving import make_server

from companion import create_app

logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
TABLE = {"viewport": {"width": 1280, "height": 800}}
NAMES = ["Anna", "Béla"]


class Api:
    """Tables and seats through the public API, the way the pages make them."""

    def __init__(self, client) -> None:
        self.client = client

    def ok(self, path: str, body: dict, token: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.client.post(path, json=body, headers=headers)
        assert r.status_code in (200, 201), r.get_json()
        return r.get_json()

    def command(self, code: str, token: str, type_: str, **fields) -> dict:
        return self.ok(f"/api/tables/{code}/commands", {"type": type_, **fields}, token)

    def table(self, game: str) -> tuple[str, str, dict[str, dict]]:
        """A started table of ``game`` with the sand running: code, host token, seats by name."""
        options = {}
        if game == "blank":
            options = {"deck_id": self.ok("/api/decks", {"name": "Pakli", "mark": ""})["id"]}
        t = self.ok("/api/tables", {"game": game, "options": options})
        seats = {}
        for name in NAMES:
            j = self.ok(f"/api/tables/{t['code']}/players", {"name": name})
            seats[name] = {"player_id": j["player_id"], "token": j["token"]}
        self.command(t["code"], t["host_token"], "table.start_game")
        if game == "blank":
            self.command(t["code"], t["host_token"], "blank.reveal_rules", draw=True)
            self.command(t["code"], t["host_token"], "blank.first_card",
                         card={"colour": "shield", "number": 3})
        if game == "bldng":
            for s in seats.values():
                self.command(t["code"], s["token"], "bldng.set_project", draw=True)
        self.command(t["code"], t["host_token"], "timer.start", seconds=90)
        return t["code"], t["host_token"], seats

    def current(self, code: str, host: str, seats: dict[str, dict]) -> dict:
        r = self.client.get(f"/api/tables/{code}/state", headers={"Authorization": f"Bearer {host}"})
        pid = r.get_json()["state"]["game_state"].get("current")
        return next((s for s in seats.values() if s["player_id"] == pid), seats[NAMES[0]])


def screen(browser, base: str, code: str, lang: str, seat: dict | None = None, host: str | None = None,
           size: dict | None = None):
    """A page that holds a seat (a phone) or the host token (the table screen)."""
    if seat:
        key, value, path = f"tc.player.{code}", seat, f"/t/{code}"
    else:
        key, path = f"tc.host.{code}", f"/?table={code}"
        value = {"token": host, "join_url": f"{base}/t/{code}"}
    ctx = browser.new_context(**(size or (PHONE if seat else TABLE)), locale=f"{lang}-{lang.upper()}")
    ctx.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(json.dumps(value))});"
                        f"localStorage.setItem('tc.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(base + path)
    expect(page.locator("#hg-bar")).to_be_visible(timeout=15000)
    page.wait_for_timeout(1500)  # let some sand run
    return ctx, page


def docs_shots(browser, base: str, api: Api) -> None:
    code, host, seats = api.table("blanko")
    first = api.current(code, host, seats)
    other = next(s for s in seats.values() if s is not first)
    api.command(code, first["token"], "blanko.lay", words=["MÉZ.SÖR", "SZÉL"], placed=6, covered_blanko=True)
    api.command(code, first["token"], "blanko.bonus", card="puzzle", letters=5, filled=True)
    api.command(code, other["token"], "blanko.lay", words=["HÁZ"], placed=3)
    api.command(code, first["token"], "blanko.pass")
    for lang, suffix in (("en", ""), ("hu", "-hu")):
        ctx, page = screen(browser, base, code, lang, seat=other)
        box = page.locator(".bk-word-slot.active .bk-input")
        box.click()
        box.press_sequentially("TÉLI")
        page.screenshot(path=str(ROOT / "docs" / f"phone{suffix}.png"))
        ctx.close()
        ctx, page = screen(browser, base, code, lang, host=host)
        page.screenshot(path=str(ROOT / "docs" / f"table-screen{suffix}.png"))
        ctx.close()


def walk(browser, base: str, api: Api, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for game in ("blanko", "blank", "bldng", "rankfile"):
        code, host, seats = api.table(game)
        first = api.current(code, host, seats)
        other = next(s for s in seats.values() if s is not first)
        for who, seat in (("active", first), ("waiting", other)):
            ctx, page = screen(browser, base, code, "hu", seat=seat)
            page.screenshot(path=str(out / f"{game}-phone-{who}.png"), full_page=True)
            ctx.close()
        ctx, page = screen(browser, base, code, "hu", host=host, size=PHONE)
        page.screenshot(path=str(out / f"{game}-table-390.png"), full_page=True)
        ctx.close()
        ctx, page = screen(browser, base, code, "hu", host=host)
        page.screenshot(path=str(out / f"{game}-table.png"), full_page=True)
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18450)
    parser.add_argument("--walk", type=Path, help="also save every game's screens here")
    parser.add_argument("--walk-only", action="store_true", help="leave docs/ as it is")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp}/shots.db", "PUBLIC_URL": f"http://127.0.0.1:{args.port}"})
        server = make_server("127.0.0.1", args.port, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{args.port}"
        api = Api(app.test_client())
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                if not args.walk_only:
                    docs_shots(browser, base, api)
                if args.walk:
                    walk(browser, base, api, args.walk)
                browser.close()
        finally:
            server.shutdown()
            app.extensions["companion"].tables.close()
            app.extensions["companion"].store.engine.dispose()


if __name__ == "__main__":
    main()
