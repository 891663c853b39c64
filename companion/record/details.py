"""What each game's record keeps beyond scores, read from the game's state at its end.

BLANKO: every word with its points, the BLANKO cards, exchanges and rack deductions; Rank &
File: the aces flipped and the team's outcome; BLDNG: who built what; BLANK: penalties, the
Rule Cards in play and the prize the winner created. A secret (a BLDNG project) is shown
only once its game is over, when the players turn their cards over at the table too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games.core import scores

State = dict[str, Any]


def details(game: str, state: State, finished: bool) -> dict[str, Any]:
    if not state.get("started"):
        return {}
    return DETAILS[game](state, finished) if game in DETAILS else {}


def _blanko(state: State, finished: bool) -> dict[str, Any]:
    words, bonuses, exchanges = [], [], []
    for t in state["turns"]:
        if t["kind"] == "lay":
            for w in t["words"]:
                words.append({"turn": t["n"], "player": t["player"], "word": w["word"],
                              "points": w["points"] if t["status"] != "rejected" else 0,
                              "claimed": w["points"], "status": t["status"]})
        elif t["kind"] == "exchange":
            exchanges.append({"turn": t["n"], "player": t["player"], "points": t["points"]})
        if t.get("bonus") and t["status"] != "rejected":
            b = t["bonus"]
            bonuses.append({"turn": t["n"], "player": t["player"], "card": b.get("card"),
                            "points": b.get("points", 0)})
    sheet = state["sheet"]
    parts = {k: scores.totals(sheet, (k,)) for k in ("turn", "exchange", "bonus", "rack")}
    return {"words": words, "bonuses": bonuses, "exchanges": exchanges,
            "racks": {p: {"tiles": c["tiles"], "deduction": c["deduction"]}
                      for p, c in state["counted"].items()},
            "sheet": {p: {"words": parts["turn"][p], "exchanges": parts["exchange"][p],
                          "bonus": parts["bonus"][p], "rack": parts["rack"][p]}
                      for p in sheet["players"]},
            "passes": sum(t["kind"] == "pass" for t in state["turns"]),
            "final_reason": state.get("final_reason")}


def _rankfile(state: State, finished: bool) -> dict[str, Any]:
    guesses: dict[str, dict[str, int]] = {p: {"right": 0, "wrong": 0} for p in state["rows"]}
    for g in state["guesses"]:
        guesses.setdefault(g["guesser"], {"right": 0, "wrong": 0})["right" if g["right"] else "wrong"] += 1
    return {"outcome": state["outcome"], "aces_flipped": state["aces"], "guesses": guesses,
            "kings_used": list(state["kings_used"]), "joker": dict(state["joker"]),
            "variant": state["options"].get("variant")}


def _bldng(state: State, finished: bool) -> dict[str, Any]:
    built = {}
    for p in state["seats"]:
        hand = state["hands"][p]
        entry: dict[str, Any] = {"cards": len(hand), "hand": hand}
        project = state["projects"].get(p)
        if finished and project:
            entry["project"] = project
        built[p] = entry
    return {"winner": state["winner"], "built": built,
            "what_happened": [dict(x) for x in state.get("log", [])]}


def _blank(state: State, finished: bool) -> dict[str, Any]:
    by_id = {r["id"]: r for r in state["rules"]}
    prize = state.get("prize")
    created = None
    if prize and prize.get("status") == "approved":
        created = ({"kind": "rule", "rule": prize["rule"]} if prize["kind"] == "rule"
                   else {"kind": "card", "card_id": prize["card_id"], "effect": prize["effect"]})
    counts: dict[str, int] = {p: 0 for p in state["hands"]}
    for pen in state["penalties"]:
        counts[pen["player"]] = counts.get(pen["player"], 0) + 1
    return {"winner": state["winner"], "penalties": [{"player": p["player"], "reason": p["reason"]}
                                                     for p in state["penalties"]],
            "penalty_counts": counts, "hands": dict(state["hands"]),
            "rules_in_play": [{"id": r, "title": by_id[r].get("title", ""), "text": by_id[r].get("text", ""),
                               **({"key": by_id[r]["key"]} if "key" in by_id[r] else {})}  # an example's
                              for r in state["revealed"] if r in by_id],
            # the newest creation placed at setup (state keeps a list since decks can be mixed)
            "featured": (state.get("featured") or [None])[0], "prize": created,
            "deck": state["options"]["deck"].get("name")}


DETAILS: dict[str, Callable[[State, bool], dict[str, Any]]] = {
    "blanko": _blanko, "rankfile": _rankfile, "bldng": _bldng, "blank": _blank}
