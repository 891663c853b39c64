"""No phone ever receives another player's BLDNG project: over the websocket, in state,
in history and after undo, through a scripted game with a shift and a change of project."""

import json

import pytest

from companion.games.bldng.cards import COLOURS, SHAPES

pytestmark = pytest.mark.both_backends


def project(shape, colour):
    return {"type": "ordered", "elements": [[shape, colour]] * 7 + [["rectangle", "yellow"]]}


def test_projects_never_reach_another_phone(live, live_tables):
    t = live_tables.create("bldng")
    code, host = t["code"], t["host_token"]
    names = ["Anna", "Bela", "Cili"]
    players = {n: live_tables.join(code, n) for n in names}
    sockets = {n: live.ws(code, p["token"]) for n, p in players.items()}
    sockets["host"] = live.ws(code, host)
    for s in sockets.values():
        s.until("ready")
    live_tables.ok(code, host, "table.start_game")
    marks = dict(zip(names, list(zip(SHAPES, COLOURS, strict=False))[:3], strict=True))
    for n in names:
        live_tables.ok(code, players[n]["token"], "bldng.set_project", project=project(*marks[n]))

    def draw(n, card):
        live_tables.ok(code, players[n]["token"], "bldng.draw", card=card)

    draw("Anna", {"kind": "shape", "shape": "circle", "colour": "red"})
    draw("Bela", {"kind": "what_happens", "effect": "shift_projects"})
    draw("Cili", {"kind": "what_happens", "effect": "change_project"})
    live_tables.ok(code, players["Cili"]["token"], "bldng.set_project", draw=True)
    live_tables.ok(code, host, "undo")  # the new project is taken back: it must stay secret
    live_tables.ok(code, players["Cili"]["token"], "bldng.set_project", project=project("square", "green"))
    draw("Anna", {"kind": "what_happens", "effect": "reverse"})

    # Who held which project when: Anna had her own, then Bela's (the shift), and so on.
    held = {"Anna": {"Anna", "Bela"}, "Bela": {"Bela", "Cili"},
            "Cili": {"Cili", "Anna", "changed", "Cili's new"}}
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    signature = {n: json.dumps([list(marks[n])] * 7, **compact)[1:-1] for n in names}
    tables = live.app.extensions["companion"].tables
    records = tables.log(tables.live(code))
    changed = next(r.event for r in records if r.event.get("reason") == "change_project")
    secret = next(iter(changed["secrets"].values()))["project"]["elements"]
    signature["changed"] = json.dumps(secret, **compact)
    signature["Cili's new"] = json.dumps([["square", "green"]] * 7, **compact)[1:-1]
    for viewer, sock in sockets.items():
        received = json.dumps(sock.drain(0.5), **compact)
        token = host if viewer == "host" else players[viewer]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        state = live_tables.client.get(f"/api/tables/{code}/state", headers=auth).get_json()
        history = live_tables.client.get(f"/api/tables/{code}/history", headers=auth).get_json()
        everything = received + json.dumps([state, history], **compact)
        for owner in signature:
            visible = signature[owner] in everything
            assert visible == (owner in held.get(viewer, set())), (viewer, owner)
        if viewer != "host":
            assert state["state"]["game_state"]["my_project"]
        else:
            assert "my_project" not in state["state"]["game_state"]
