"""BLANK decks: list, create, read, export, import, and the owner's own rules."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request

from ..games.blank.deck import example_effects, text
from ..services import services
from .api import bearer, body
from .security import client_address

bp = Blueprint("decks_api", __name__, url_prefix="/api/decks")


@bp.get("")
def list_decks():  # type: ignore[no-untyped-def]
    return jsonify({"decks": services().decks.all()})


@bp.post("")
def create_deck():  # type: ignore[no-untyped-def]
    data = body()
    s = services()
    s.allow_creation("deck", client_address(request))
    deck_id, token = s.decks.new(text(data, "name"), text(data, "mark", required=False), s.clock.now_ms())
    return jsonify({"id": deck_id, "owner_token": token}), 201


@bp.post("/import")
def import_deck():  # type: ignore[no-untyped-def]
    s = services()
    s.allow_creation("deck", client_address(request))
    deck_id, token = s.decks.imported(body(), s.clock.now_ms())
    return jsonify({"id": deck_id, "owner_token": token}), 201


@bp.get("/examples")
def examples():  # type: ignore[no-untyped-def]
    """The rulebook's example effects, offered when an owner enters their printed cards."""
    return jsonify({"effects": example_effects()})


@bp.get("/<deck_id>")
def get_deck(deck_id: str):  # type: ignore[no-untyped-def]
    return jsonify(services().decks.get(deck_id))


@bp.get("/<deck_id>/export")
def export_deck(deck_id: str):  # type: ignore[no-untyped-def]
    deck = services().decks.get(deck_id)
    return Response(json.dumps(deck, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="blank-{deck_id}.json"'})


@bp.post("/<deck_id>/rules")
def add_rule(deck_id: str):  # type: ignore[no-untyped-def]
    s = services()
    s.allow_deck_write(bearer())
    deck = s.decks.add_rule(deck_id, bearer(), body(), s.clock.now_ms())
    return jsonify({"rules": len(deck["rules"])}), 201


@bp.post("/<deck_id>/cards/<card_id>")
def describe_card(deck_id: str, card_id: str):  # type: ignore[no-untyped-def]
    s = services()
    s.allow_deck_write(bearer())
    deck = s.decks.describe_card(deck_id, bearer(), card_id, body(), s.clock.now_ms())
    return jsonify(next(c for c in deck["cards"] if c["id"] == card_id))
