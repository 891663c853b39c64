"""Random commands, options and frames: never a 500 or a traceback, always a clear error, and a
socket that goes on hearing the game (hypothesis). Values include what an outsider sends on
purpose: deep nesting, lone surrogates, huge and non-finite numbers, every wrong type."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

KNOWN = ["undo", "timer.start", "timer.flip", "timer.pause", "timer.resume", "timer.reset",
         "table.lock", "table.unlock", "table.remove_player", "table.start_game", "table.end_game",
         "table.close",
         "blanko.lay", "blanko.challenge", "blanko.exchange", "blanko.pass", "blanko.bonus",
         "blanko.rack", "blanko.approve_word", "blanko.finish", "blanko.start_letter", "bldng.draw",
         "bldng.take", "bldng.discard", "bldng.set_project", "bldng.draw_project", "bldng.take_discard",
         "rankfile.guess", "rankfile.king_guess", "rankfile.declare_done", "rankfile.declare_joker",
         "rankfile.reveal_joker", "blank.first_card", "blank.play", "blank.draw", "blank.accuse",
         "blank.judge", "blank.discard_rule", "blank.adjust", "blank.propose_rule", "blank.propose_card",
         "blank.decide_prize", "blank.reveal_rules", "blank.resolved"]
texts = st.text(max_size=20) | st.text(st.characters(categories=["Cs"]) | st.characters(), max_size=6)
scalars = (st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.integers(2**53 - 2, 10**40)
           | st.integers(-10**40, -2**53 + 2) | st.floats() | st.sampled_from([1e300, -1e308, 2.0**53])
           | texts)


def nested(value, depth: int, as_list: bool):  # type: ignore[no-untyped-def]
    for _ in range(depth):
        value = [value] if as_list else {"k": value}
    return value


json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(texts, inner, max_size=4), max_leaves=12) | st.builds(
    nested, scalars, st.integers(20, 120), st.booleans())
fields = st.dictionaries(st.sampled_from(["words", "placed", "card", "cards", "index", "from", "player",
                                          "position", "upheld", "approved", "rule", "delta", "card_id",
                                          "effect", "number", "correct", "own_position", "seconds", "project",
                                          "letters", "kind", "picks", "hit", "player_id", "seats", "cid",
                                          "instruction", "word", "positions", "draw", "letter",
                                          "blue_squares", "squares"]),
                         json_values, max_size=5)
commands = st.builds(lambda t, f: {**f, "type": t}, st.sampled_from(KNOWN) | texts, fields)
OPTIONS = {"blank": ["deck_id", "deck"],
           "blanko": ["check", "judge_mode", "allow_names", "auto_timer", "timer_seconds", "start",
                      "draw_start", "letter_values", "letter_counts"],
           "bldng": ["direction"],
           "rankfile": ["variant", "helper", "kings", "joker"]}
letter_maps = st.dictionaries(st.sampled_from(["A", "CS", "?", "Q", "É"]) | texts, json_values, max_size=3)


@pytest.mark.parametrize("game", sorted(OPTIONS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_options_never_break_table_creation(client, clock, game, data):
    clock.advance(120_000)  # one app serves every example: let the creation limit refill
    keys = st.sampled_from(OPTIONS[game]) | texts
    options = data.draw(st.dictionaries(keys, json_values | letter_maps, max_size=4) | json_values)
    r = client.post("/api/tables", json={"game": game, "options": options})
    assert r.status_code < 500, (options, r.get_json())
    if r.status_code != 201:
        assert set(r.get_json()["error"]) == {"code", "message"}


@pytest.mark.parametrize("game", ["blank", "blanko", "bldng", "rankfile"])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cmds=st.lists(commands, min_size=1, max_size=6))
def test_random_commands_never_break_a_table(tables, clock, game, cmds):
    clock.advance(120_000)  # one app serves every example: let the join limit refill
    options = {}
    if game == "blank":
        options["deck_id"] = tables.client.post("/api/decks", json={"name": "Fuzz"}).get_json()["id"]
    code, host, tokens, _ids = tables.seated(game, ["Anna", "Bela"], **options)
    for cmd in cmds:
        for token in (host, tokens["Anna"]):
            r = tables.client.post(f"/api/tables/{code}/commands", json=cmd,
                                   headers={"Authorization": f"Bearer {token}"})
            assert r.status_code < 500, (cmd, r.get_json())
            body = r.get_json()
            if r.status_code != 200:
                # params: the figures a page words the code with (a field's name, a card)
                assert set(body["error"]) - {"params"} == {"code", "message"} and body["error"]["message"]
    # Whatever happened, the table still folds from its log to the same state.
    service = tables.client.application.extensions["companion"].tables
    live = service.live(code)
    assert service.rules.fold(service.log(live)) == live.state


deep_frames = st.builds(lambda n, open_, close: open_ * n + close * n, st.integers(30, 3000),
                        st.sampled_from(["[", '{"a":']), st.sampled_from(["]", "}"]))


@settings(max_examples=60, deadline=None)
@given(frames=st.lists(st.one_of(st.text(max_size=200), st.binary(max_size=100), deep_frames,
                                 commands.map(json.dumps)), min_size=1, max_size=8))
def test_random_frames_get_error_frames_and_the_socket_still_hears_the_game(live_socket, frames):
    ws, tables, code, host = live_socket
    for f in frames:
        ws.send(f)
    ws.send({"type": "time.ping", "t0": 42})
    got = []
    while True:
        m = ws.recv(5)
        got.append(m)
        if m["type"] == "time.pong" and m["t0"] == 42:
            break
    for m in got:
        if m["type"] == "error":
            assert m["error"]["code"] != "server/internal" and m["error"]["message"]
    tables.ok(code, host, "timer.start", seconds=30)  # not deaf: the next event reaches it
    ws.until("event")


@pytest.fixture(scope="module")
def live_socket(tmp_path_factory):
    from conftest import LiveServer, Tables

    from companion import create_app

    # No flood limit here: these frames test parsing, not rate limiting.
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('fuzz')}/f.db",
                      "TESTING": True, "WS_FRAMES_PER_SECOND": 10_000, "WS_FRAME_BURST": 10_000})
    server = LiveServer(app)
    t = Tables(app.test_client())
    table = t.create("blanko")
    anna = t.join(table["code"], "Anna")
    t.join(table["code"], "Bela")
    t.ok(table["code"], table["host_token"], "table.start_game")
    sock = server.ws(table["code"], anna["token"])
    sock.until("ready")
    yield sock, t, table["code"], table["host_token"]
    server.stop()
