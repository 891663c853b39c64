"""``POST /api/blanko/evaluate``: score and check words typed in BLANKO notation."""

from __future__ import annotations

from flask import Blueprint, jsonify

from ..errors import ApiError
from ..games.blanko.evaluate import evaluate_words
from ..services import services
from .api import body

bp = Blueprint("blanko_api", __name__, url_prefix="/api/blanko")
MAX_WORDS = 20


@bp.post("/evaluate")
def evaluate():  # type: ignore[no-untyped-def]
    words = body().get("words")
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise ApiError("blanko/bad_words", "'words' must be a non-empty list of strings")
    if len(words) > MAX_WORDS or any(len(w) > 40 for w in words):
        raise ApiError("blanko/bad_words", f"at most {MAX_WORDS} words of 40 characters")
    return jsonify(evaluate_words(words, services().dictionary))
