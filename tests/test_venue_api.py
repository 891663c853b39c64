"""Venues over HTTP (issue 44): a café's physical tables, each with a printed tent whose QR code
carries a secret; a scan at a free table starts a game there, a scan at a busy one joins it; the
staff's token reads every table. Bad input is a clear 4xx, and a wrong tent spends guesses."""

from __future__ import annotations

import json
from urllib.parse import quote, urlsplit

import pytest
from conftest import posted_at_once
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import json_values, texts
from test_league_api import made_tables
from test_qr_join import exhaust

from companion.lan import qr

TENT = "X-Companion-Tent"


def secret_of(url: str) -> str:
    fragment = urlsplit(url).fragment
    assert fragment.startswith("k="), url
    return fragment[2:]


class Cafe:
    """A venue made through the API, and the requests its guests' phones and its staff make."""

    def __init__(self, client, tables=("1", "2", "Window"), name="Kockás Café", **extra):
        self.client = client
        r = client.post("/api/venues", json={"name": name, "tables": list(tables), **extra})
        assert r.status_code == 201, r.get_json()
        made = r.get_json()
        self.id, self.token = made["id"], made["token"]
        self.urls = {t["label"]: t["url"] for t in made["tables"]}

    def staff(self, token=None):
        return {"Authorization": f"Bearer {token or self.token}"}

    def tent(self, label, secret=None, **headers):
        return {TENT: secret if secret is not None else secret_of(self.urls[label]), **headers}

    def path(self, label):
        return f"/api/venues/{self.id}/tables/{quote(label, safe='')}"

    def look(self, label, secret=None, **headers):
        return self.client.get(self.path(label), headers=self.tent(label, secret, **headers))

    def start(self, label, game="rankfile", secret=None, **options):
        return self.client.post(self.path(label) + "/games", json={"game": game, "options": options},
                                headers=self.tent(label, secret))

    def started(self, label, game="rankfile", **options):
        r = self.start(label, game, **options)
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def join(self, code, name, label, secret=None, **headers):
        return self.client.post(f"/api/tables/{code}/players",
                                json={"name": name, "tent": secret if secret is not None
                                      else secret_of(self.urls[label])}, headers=headers)

    def read(self, token=None):
        return self.client.get(f"/api/venues/{self.id}", headers=self.staff(token))

    def wifi_svg(self):
        return self.client.get(f"/api/venues/{self.id}/wifi.svg", headers=self.staff())

    def board(self):
        r = self.read()
        assert r.status_code == 200, r.get_json()
        return {t["label"]: t for t in r.get_json()["tables"]}


def error(r):
    return r.status_code, r.get_json()["error"]["code"]


def test_a_venue_is_made_with_a_permanent_url_for_each_tent(client):
    cafe = Cafe(client, tables=["1", "Window", "Terrace 2", "  Sarok   asztal "])
    assert list(cafe.urls) == ["1", "Window", "Terrace 2", "Sarok asztal"]  # cleaned as names are
    secrets = set()
    for label, url in cafe.urls.items():
        parts = urlsplit(url)
        assert parts.path == f"/v/{cafe.id}/{quote(label, safe='')}" and not parts.query
        assert url.startswith("http://localhost/v/")  # the base a table's join_url has
        secrets.add(secret_of(url))
        assert len(secret_of(url)) >= 22  # 128 bits, URL-safe base64
    assert len(secrets) == 4
    assert len(cafe.token) >= 22 and cafe.token not in str(cafe.urls)
    doc = cafe.read().get_json()
    assert doc["id"] == cafe.id and doc["name"] == "Kockás Café" and isinstance(doc["server_ms"], int)
    assert [t["label"] for t in doc["tables"]] == list(cafe.urls)
    assert doc["tables"][0] == {"label": "1", "code": None, "game": None, "title": None, "status": None,
                                "players": [], "turn": None, "timer": None, "started_ms": None}
    assert not any(s in str(doc) for s in secrets)  # the staff's screen shows no tent's secret


@pytest.mark.parametrize("sent, code", [
    ({"tables": ["1"]}, "venue/bad_name"),
    ({"name": "", "tables": ["1"]}, "venue/bad_name"),
    ({"name": "\u200b\u3164", "tables": ["1"]}, "venue/bad_name"),
    ({"name": "x" * 61, "tables": ["1"]}, "venue/bad_name"),
    ({"name": 7, "tables": ["1"]}, "venue/bad_name"),
    ({"name": "Café"}, "venue/bad_tables"),
    ({"name": "Café", "tables": []}, "venue/bad_tables"),
    ({"name": "Café", "tables": "1,2"}, "venue/bad_tables"),
    ({"name": "Café", "tables": [str(i) for i in range(101)]}, "venue/bad_tables"),
    ({"name": "Café", "tables": ["1", 2]}, "venue/bad_label"),
    ({"name": "Café", "tables": ["1", ""]}, "venue/bad_label"),
    ({"name": "Café", "tables": ["\u2800"]}, "venue/bad_label"),
    ({"name": "Café", "tables": ["x" * 25]}, "venue/bad_label"),
    ({"name": "Café", "tables": ["1/2"]}, "venue/bad_label"),
    ({"name": "Café", "tables": [".."]}, "venue/bad_label"),
    ({"name": "Café", "tables": ["Window", "WINDOW"]}, "venue/same_label"),
    ({"name": "Café", "tables": ["Terrace 2", " terrace  2"]}, "venue/same_label"),
    ({"name": "Café", "tables": ["1"], "wifi": "guest"}, "venue/bad_wifi"),
    ({"name": "Café", "tables": ["1"], "wifi": {"ssid": "", "password": "12345678"}}, "venue/bad_wifi"),
    ({"name": "Café", "tables": ["1"], "wifi": {"ssid": "Guests", "password": "short"}}, "venue/bad_wifi"),
    ({"name": "Café", "tables": ["1"], "wifi": {"ssid": "x" * 33, "password": "12345678"}}, "venue/bad_wifi"),
    ({"name": "Café", "tables": ["1"], "wifi": {"ssid": "G", "password": "12345678", "security": "WPA3"}},
     "venue/bad_wifi"),
    ({"name": "Café", "tables": ["1"], "wifi": {"ssid": "G", "password": "x", "security": "nopass"}},
     "venue/bad_wifi"),
])
def test_a_malformed_venue_is_a_clear_400_and_nothing_is_made(client, sent, code):
    r = client.post("/api/venues", json=sent)
    assert error(r) == (400, code), r.get_json()


def test_making_venues_is_rate_limited_like_leagues(client, app):
    per_minute = app.config["CREATIONS_PER_MINUTE"]
    answers = [client.post("/api/venues", json={"name": f"Café {i}", "tables": ["1"]}).status_code
               for i in range(per_minute + 1)]
    assert answers[:per_minute] == [201] * per_minute and answers[-1] == 429


@pytest.mark.both_backends
def test_a_scan_at_a_free_table_starts_a_game_there_and_the_next_scan_joins_it(client, tables):
    cafe = Cafe(client)
    free = cafe.look("Window")
    assert free.status_code == 200
    assert free.get_json() == {"venue": "Kockás Café", "label": "Window", "code": None, "game": None,
                               "status": None}
    made = cafe.started("Window", "blanko", draw_start=False)
    assert set(made) >= {"code", "join_url", "host_token"}  # as POST /api/tables answers
    assert urlsplit(made["join_url"]).path == f"/t/{made['code']}"
    going = cafe.look("Window").get_json()
    assert going == {"venue": "Kockás Café", "label": "Window", "code": made["code"], "game": "blanko",
                     "status": "lobby"}
    host = cafe.join(made["code"], "Anna", "Window")  # the phone that started it sits down too
    guest = cafe.join(made["code"], "Bence", "Window")
    assert host.status_code == guest.status_code == 201, (host.get_json(), guest.get_json())
    tables.ok(made["code"], made["host_token"], "table.start_game")
    assert cafe.look("Window").get_json()["status"] == "playing"
    # a second "start a game here" names the game going there; it gives no host rights
    again = cafe.start("Window", "bldng")
    assert error(again) == (409, "venue/table_busy")
    assert again.get_json()["code"] == made["code"] and again.get_json()["game"] == "blanko"
    assert "host_token" not in again.get_json() and made["host_token"] not in again.get_data(as_text=True)
    # the other tables are free all the while
    assert cafe.look("1").get_json()["code"] is None


def test_a_table_is_free_again_once_its_game_ended(client, tables):
    cafe = Cafe(client)
    first = cafe.started("1")
    tables.ok(first["code"], first["host_token"], "table.end_game")
    assert cafe.look("1").get_json()["code"] is None
    second = cafe.started("1")
    assert second["code"] != first["code"]
    assert cafe.look("1").get_json()["code"] == second["code"]


def test_a_tent_game_takes_the_options_a_new_table_takes(client):
    cafe = Cafe(client)
    for sent in ({"game": "chess"}, {"game": "blanko", "options": "fast"}, {}):
        r = client.post(cafe.path("1") + "/games", json=sent, headers=cafe.tent("1"))
        assert r.status_code == 400 and r.get_json()["error"]["code"].startswith("table/"), r.get_json()
    assert cafe.look("1").get_json()["code"] is None  # nothing was bound


@pytest.mark.parametrize("secret", ["", "x" * 22, "ü" * 5])
def test_a_wrong_tent_is_a_403(client, secret):
    cafe = Cafe(client)
    assert error(cafe.look("1", secret)) == (403, "venue/bad_tent")
    assert error(cafe.start("1", secret=secret)) == (403, "venue/bad_tent")


def test_another_tables_tent_opens_only_that_table(client):
    cafe = Cafe(client)
    assert error(cafe.look("1", secret_of(cafe.urls["2"]))) == (403, "venue/bad_tent")
    other = Cafe(client, name="Other")
    r = client.get(cafe.path("1"), headers={TENT: secret_of(other.urls["1"])})
    assert error(r) == (403, "venue/bad_tent")


def test_a_tent_without_its_header_is_a_403(client):
    cafe = Cafe(client)
    assert error(client.get(cafe.path("1"))) == (403, "venue/bad_tent")


@pytest.mark.parametrize("path", ["/api/venues/vnothere/tables/1", "{venue}/tables/9", "{venue}/tables/%20",
                                  "{venue}/tables/" + "x" * 300])
def test_an_unknown_venue_or_table_is_a_404(client, path):
    cafe = Cafe(client)
    path = path.replace("{venue}", f"/api/venues/{cafe.id}")
    r = client.get(path, headers={TENT: secret_of(cafe.urls["1"])})
    assert error(r) == (404, "venue/unknown"), path


def test_a_label_is_found_however_it_is_cased(client):
    cafe = Cafe(client)
    r = client.get(f"/api/venues/{cafe.id}/tables/WINDOW", headers=cafe.tent("Window"))
    assert r.status_code == 200 and r.get_json()["label"] == "Window"


def test_wrong_tents_spend_the_addresss_guesses(client, app):
    cafe = Cafe(client)
    limit = app.config["WRONG_CODES_PER_MINUTE"]
    answers = [cafe.look("1", "wrong-secret-wrong-secret").status_code for _ in range(limit + 1)]
    assert answers[:limit] == [403] * limit and answers[-1] == 429
    unknown = client.get(f"/api/venues/{cafe.id}/tables/9", headers=cafe.tent("1"))
    assert error(unknown) == (429, "rate/limited")
    # a wrong code is refused too now: one bucket for every guess
    assert client.get("/api/tables/QQQQQ").status_code == 429
    # the right tent is not guessing: its phone gets in
    assert cafe.look("1").status_code == 200
    made = cafe.started("1")
    assert cafe.join(made["code"], "Anna", "1").status_code == 201


def test_a_join_with_the_tent_is_never_refused_by_the_limits(client, app):
    cafe = Cafe(client)
    made = cafe.started("2")
    exhaust(client)
    newcomer = {"X-Companion-Device": "newcomer-phone-0001"}
    typed = client.post(f"/api/tables/{made['code']}/players", json={"name": "Typed"}, headers=newcomer)
    assert typed.status_code == 429
    assert client.get(f"/api/tables/{made['code']}", headers=newcomer).status_code == 429
    # the join page's facts with the tent's secret in a header, and the join with it in its body
    info = client.get(f"/api/tables/{made['code']}", headers={**newcomer, **cafe.tent("2")})
    assert info.status_code == 200 and info.get_json()["game"] == "rankfile"
    for i in range(app.config["JOINS_PER_MINUTE"] + 2):
        r = cafe.join(made["code"], f"P{i}", "2", **{"X-Companion-Device": f"phone-{i:012d}"})
        assert r.status_code == 201 or r.get_json()["error"]["code"] == "table/full", r.get_json()


@pytest.mark.parametrize("wrong", ["x" * 22, "", 42, ["k"], {"k": 1}])
def test_a_join_with_a_wrong_tent_is_a_403_and_spends_a_guess(client, app, wrong):
    cafe = Cafe(client)
    made = cafe.started("1")
    for secret in (wrong, secret_of(cafe.urls["2"])):  # another table's tent joins only there
        r = cafe.join(made["code"], "Anna", "1", secret=secret)
        assert error(r) == (403, "venue/bad_tent"), r.get_json()
    limit = app.config["WRONG_CODES_PER_MINUTE"]
    answers = [cafe.join(made["code"], "Anna", "1", secret="nope").status_code for _ in range(limit)]
    assert answers[-1] == 429 and set(answers[:limit - 2]) == {403}


def test_a_tent_join_is_a_join_like_any_other(client, tables):
    cafe = Cafe(client)
    made = cafe.started("1")
    tables.ok(made["code"], made["host_token"], "table.lock")
    assert error(cafe.join(made["code"], "Anna", "1")) == (409, "table/locked")
    tables.ok(made["code"], made["host_token"], "table.unlock")
    first = client.post(f"/api/tables/{made['code']}/players",
                        json={"name": "Anna", "tent": secret_of(cafe.urls["1"]), "cid": "c" * 20})
    again = client.post(f"/api/tables/{made['code']}/players",
                        json={"name": "Anna", "tent": secret_of(cafe.urls["1"]), "cid": "c" * 20})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()  # a rejoin keeps its seat, as today
    state = tables.state(made["code"], first.get_json()["token"])["state"]
    assert state["me"]["player_id"] == first.get_json()["player_id"]
    assert not state["me"].get("is_host")


def test_the_tent_gives_no_host_rights_over_a_game_going(client, tables):
    cafe = Cafe(client)
    made = cafe.started("1")
    anna = cafe.join(made["code"], "Anna", "1").get_json()
    guest = cafe.join(made["code"], "Bence", "1").get_json()
    tables.ok(made["code"], made["host_token"], "table.start_game")
    # the tent's secret is no token, and a guest who came by the tent is no host
    for token in (secret_of(cafe.urls["1"]), guest["token"]):
        r = tables.command(made["code"], token, "table.end_game")
        assert r.status_code in (401, 403), r.get_json()
    assert anna["token"] != made["host_token"]
    assert cafe.look("1").get_json()["status"] == "playing"


@pytest.mark.both_backends
def test_the_staff_see_every_table_and_its_game(client, tables, clock):
    cafe = Cafe(client)
    made = cafe.started("2", "rankfile")
    for name in ("Anna", "Bence"):
        assert cafe.join(made["code"], name, "2").status_code == 201
    clock.advance(1000)
    tables.ok(made["code"], made["host_token"], "table.start_game")
    tables.ok(made["code"], made["host_token"], "timer.start", seconds=30)
    board = cafe.board()
    assert board["1"]["code"] is None and board["Window"]["code"] is None
    two = board["2"]
    assert two["code"] == made["code"] and two["game"] == "rankfile" and two["title"]
    assert two["status"] == "playing" and [p["name"] for p in two["players"]] == ["Anna", "Bence"]
    assert two["started_ms"] == clock.now_ms()
    assert two["timer"]["running"] and two["timer"]["duration_ms"] == 30_000


@pytest.mark.parametrize("headers, status, code", [
    ({}, 401, "auth/missing_token"),
    ({"Authorization": "Bearer made-up-token-made-up"}, 403, "venue/not_staff"),
    ({"Authorization": "Basic abc"}, 401, "auth/missing_token"),
])
def test_only_the_staff_read_the_venue(client, headers, status, code):
    cafe = Cafe(client)
    assert error(client.get(f"/api/venues/{cafe.id}", headers=headers)) == (status, code)


def test_another_venues_staff_token_reads_only_its_own(client):
    cafe, other = Cafe(client), Cafe(client, name="Other")
    assert error(cafe.read(other.token)) == (403, "venue/not_staff")
    assert error(client.get("/api/venues/vnothere", headers=cafe.staff())) == (404, "venue/unknown")


def test_a_tents_qr_code_is_the_staffs_and_cached_by_their_browser(client):
    cafe = Cafe(client)
    url = cafe.path("Window") + "/qr.svg"
    r = client.get(url, headers=cafe.staff())
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.data == qr.svg(cafe.urls["Window"])
    cache = {d.strip() for d in r.headers["Cache-Control"].split(",")}
    assert cache == {"private", "no-cache"}, cache
    again = client.get(url, headers={**cafe.staff(), "If-None-Match": r.headers["ETag"]})
    assert (again.status_code, again.data) == (304, b"")
    assert error(client.get(url)) == (401, "auth/missing_token")
    assert error(client.get(url, headers=cafe.staff("made-up"))) == (403, "venue/not_staff")
    assert error(client.get(cafe.path("9") + "/qr.svg", headers=cafe.staff())) == (404, "venue/unknown")


@pytest.mark.both_backends
def test_the_staff_end_a_tables_game_and_its_record_stays(client, tables):
    cafe = Cafe(client)
    made = cafe.started("Window")
    anna = cafe.join(made["code"], "Anna", "Window").get_json()
    cafe.join(made["code"], "Bence", "Window")
    tables.ok(made["code"], made["host_token"], "table.start_game")
    end = client.post(cafe.path("Window") + "/end", headers=cafe.staff())
    assert end.status_code == 200, end.get_json()
    assert end.get_json() == {"label": "Window", "code": made["code"], "status": "ended"}
    assert cafe.board()["Window"]["code"] is None and cafe.look("Window").get_json()["code"] is None
    record = client.get(f"/api/tables/{made['code']}/record", headers=cafe.staff(anna["token"]))
    assert record.status_code == 200 and len(record.get_json()["games"]) == 1
    again = client.post(cafe.path("Window") + "/end", headers=cafe.staff())
    assert error(again) == (409, "venue/table_free")
    # a game nobody started yet is ended as well (the host left it gathering)
    lobby = cafe.started("1")
    assert client.post(cafe.path("1") + "/end", headers=cafe.staff()).get_json()["code"] == lobby["code"]


@pytest.mark.parametrize("action", ["end", "tent"])
def test_only_the_staff_end_a_game_or_reprint_a_tent(client, action):
    cafe, other = Cafe(client), Cafe(client, name="Other")
    cafe.started("1")
    refused = [({}, 401, "auth/missing_token"), (cafe.tent("1"), 401, "auth/missing_token"),
               (cafe.staff(other.token), 403, "venue/not_staff")]
    for headers, status, code in refused:
        assert error(client.post(cafe.path("1") + f"/{action}", json={}, headers=headers)) == (status, code)
    assert error(client.post(cafe.path("9") + f"/{action}", headers=cafe.staff())) == (404, "venue/unknown")
    assert cafe.look("1").get_json()["code"] is not None  # nothing was ended


@pytest.mark.both_backends
def test_a_reprinted_tent_has_a_new_secret_and_the_old_one_opens_nothing(client, app):
    cafe = Cafe(client)
    old = cafe.urls["2"]
    made = cafe.started("2")
    r = client.post(cafe.path("2") + "/tent", headers=cafe.staff())
    assert r.status_code == 200
    new = r.get_json()
    assert new["label"] == "2" and new["url"].split("#")[0] == old.split("#")[0]
    assert secret_of(new["url"]) != secret_of(old) and len(secret_of(new["url"])) >= 22
    # at once: the old tent is a wrong guess, for the table's facts and for a join
    assert error(cafe.look("2", secret_of(old))) == (403, "venue/bad_tent")
    assert error(cafe.join(made["code"], "Anna", "2", secret=secret_of(old))) == (403, "venue/bad_tent")
    assert cafe.look("2", secret_of(new["url"])).get_json()["code"] == made["code"]
    assert cafe.join(made["code"], "Anna", "2", secret=secret_of(new["url"])).status_code == 201
    qr_now = client.get(cafe.path("2") + "/qr.svg", headers=cafe.staff())
    assert qr_now.data == qr.svg(new["url"])
    # the old one keeps spending guesses until the address has none
    limit = app.config["WRONG_CODES_PER_MINUTE"]
    answers = [cafe.look("2", secret_of(old)).status_code for _ in range(limit)]
    assert answers[-1] == 429


@pytest.mark.both_backends
def test_the_tents_wifi_code(client):
    cafe = Cafe(client, wifi={"ssid": 'Kockás; "Guest":', "password": "p,a;s\\s:word"})
    assert cafe.read().get_json()["wifi"] == {"ssid": 'Kockás; "Guest":', "security": "WPA"}
    r = cafe.wifi_svg()
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert r.data == qr.svg('WIFI:T:WPA;S:Kockás\\; \\"Guest\\"\\:;P:p\\,a\\;s\\\\s\\:word;;')
    assert "private" in r.headers["Cache-Control"]
    assert "p,a;s" not in str(cafe.read().get_json())  # the password is only in its QR code
    assert error(client.get(f"/api/venues/{cafe.id}/wifi.svg")) == (401, "auth/missing_token")

    open_net = client.post(f"/api/venues/{cafe.id}/wifi", json={"ssid": "Open", "security": "nopass"},
                           headers=cafe.staff())
    assert open_net.get_json() == {"wifi": {"ssid": "Open", "security": "nopass"}}
    assert cafe.wifi_svg().data == qr.svg("WIFI:T:nopass;S:Open;;")
    cleared = client.post(f"/api/venues/{cafe.id}/wifi", json={"ssid": None}, headers=cafe.staff())
    assert cleared.status_code == 200 and cleared.get_json() == {"wifi": None}
    assert error(cafe.wifi_svg()) == (404, "venue/no_wifi")
    assert cafe.read().get_json()["wifi"] is None


@pytest.mark.parametrize("sent", [{}, {"ssid": ""}, {"ssid": "G", "password": "short"}, {"ssid": 5},
                                  {"ssid": "G", "password": "12345678", "security": "wpa"},
                                  {"ssid": "G", "password": "1234", "security": "WEP"}, [], "x"])
def test_a_bad_wifi_is_a_400_and_changes_nothing(client, sent):
    cafe = Cafe(client, wifi={"ssid": "Guests", "password": "12345678"})
    r = client.post(f"/api/venues/{cafe.id}/wifi", json=sent, headers=cafe.staff())
    assert r.status_code == 400 and r.get_json()["error"]["code"] in ("venue/bad_wifi", "http/bad_json")
    assert cafe.read().get_json()["wifi"] == {"ssid": "Guests", "security": "WPA"}
    unstaffed = client.post(f"/api/venues/{cafe.id}/wifi", json={"ssid": None})
    assert error(unstaffed) == (401, "auth/missing_token")


venue_bodies = st.fixed_dictionaries({}, optional={
    "name": st.just("Kockás Café") | texts | json_values,
    "tables": st.lists(st.sampled_from(["1", "2", "Window", "window", "1/2", ".."]) | texts | json_values,
                       max_size=5) | json_values,
    "wifi": st.fixed_dictionaries({}, optional={
        "ssid": texts | json_values, "password": texts | json_values,
        "security": st.sampled_from(["WPA", "WEP", "nopass"]) | texts}) | json_values}) \
    | st.dictionaries(texts, json_values, max_size=3) | json_values


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=venue_bodies)
def test_any_json_makes_a_venue_or_a_clear_400(client, clock, sent):
    clock.advance(120_000)  # one app serves every example: let the creation limit refill
    r = client.post("/api/venues", data=json.dumps(sent), content_type="application/json")
    assert r.status_code in (201, 400), (sent, r.get_json())
    if r.status_code == 201:
        made = r.get_json()
        assert len(made["tables"]) == len(sent["tables"])
        for t in made["tables"]:  # every tent made opens its table
            look = client.get(f"/api/venues/{made['id']}/tables/{quote(t['label'], safe='')}",
                              headers={TENT: secret_of(t["url"])})
            assert look.status_code == 200 and look.get_json()["label"] == t["label"], t
    else:
        assert r.get_json()["error"]["code"] in ("http/bad_json", "venue/bad_name", "venue/bad_tables",
                                                 "venue/bad_label", "venue/same_label", "venue/bad_wifi")


@pytest.fixture
def fuzzed_cafe(client):
    return Cafe(client)


tent_bodies = st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["rankfile", "blanko", "bldng", "blank"]) | texts | json_values,
    "options": st.dictionaries(st.sampled_from(["draw_start", "deck_id", "league", "check"]) | texts,
                               json_values, max_size=3) | json_values}) | json_values
labels = st.sampled_from(["1", "2", "WINDOW", "9", "%20", "..", "x" * 30]) | texts


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=tent_bodies, label=labels, secret=st.sampled_from(["right", "other", ""]) | texts)
def test_any_json_at_a_tent_is_a_game_or_a_clear_4xx(client, clock, tables, fuzzed_cafe, sent, label, secret):
    """A tent's requests with any body, label and secret: never a 5xx. A game started is ended
    again, so the next example finds its table free."""
    clock.advance(120_000)  # the guesses and creations refill
    cafe = fuzzed_cafe
    given_label = label if label in cafe.urls else "1"
    header = {"right": secret_of(cafe.urls.get(label, cafe.urls["1"])), "other": secret_of(cafe.urls["2"])}
    headers = {TENT: header.get(secret, secret)} if secret.isascii() and secret.isprintable() else {}
    path = f"/api/venues/{cafe.id}/tables/{quote(label, safe='')}"
    look = client.get(path, headers=headers)
    assert look.status_code in (200, 403, 404), look.get_json()
    r = client.post(path + "/games", data=json.dumps(sent), content_type="application/json", headers=headers)
    assert 200 <= r.status_code < 500, (sent, label, r.get_json())
    if r.status_code == 201:
        join = client.post(f"/api/tables/{r.get_json()['code']}/players",
                           json={"name": "Anna", "tent": headers[TENT]})
        assert join.status_code == 201, join.get_json()
        tables.ok(r.get_json()["code"], r.get_json()["host_token"], "table.end_game")
    assert cafe.look(given_label).get_json()["code"] is None


@pytest.mark.both_backends
def test_phones_that_scan_a_free_tent_at_once_start_one_game(backend, make_app, serve_app):
    """Six phones at a free table scan its tent and tap "Start" at once: one game is made and
    bound there, the others are told its code (409) and join it. On PostgreSQL through two
    server processes' apps, which share no lock but the database's."""
    servers = [serve_app(make_app()) for _ in range(2 if backend == "postgresql" else 1)]
    cafe = Cafe(servers[0].app.test_client())
    urls = [f"{servers[i % len(servers)].url}{cafe.path('Window')}/games" for i in range(6)]
    answers = posted_at_once(urls, {"game": "rankfile"}, cafe.tent("Window"))
    [made] = [doc for status, doc in answers if status == 201]
    assert all(status == 409 and doc["error"]["code"] == "venue/table_busy" and doc["code"] == made["code"]
               for status, doc in answers if status != 201), answers
    assert made_tables(servers[0].app) == {made["code"]}
    assert cafe.look("Window").get_json()["code"] == made["code"]
