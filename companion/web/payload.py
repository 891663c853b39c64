"""Reading JSON that phones send: one reading for HTTP bodies and websocket frames alike.

Python's json module takes in more than the rest of the server can use. Nesting a thousand
levels deep raises RecursionError (not a ValueError, so it escaped as a 500 or killed a
socket); a lone surrogate ("\\ud800") is a str but not text, so SQLite refused it on commit and
the websocket's UTF-8 encoder refused to echo it back; NaN, Infinity and integers of thousands
of digits are numbers no phone's JavaScript holds. Each is refused here with its reason, before
any of it reaches a rule, a log or the database.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask.json.provider import DefaultJSONProvider

MAX_DEPTH = 32  # the deepest real payload (a BLANK deck import) is 4
MAX_NUMBER = 2**53 - 1  # the largest integer a phone's JavaScript holds exactly
_SURROGATE = re.compile("[\ud800-\udfff]")


class BadJson(ValueError):
    """Not JSON this server takes; the message says why."""


def loads(data: str | bytes) -> Any:
    """The value of a JSON text, every string of it real Unicode text, every number one a phone
    can hold, nested at most ``MAX_DEPTH`` deep."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson("it is not UTF-8 text") from None
    try:
        value = json.loads(data, parse_constant=_constant, parse_int=_int, parse_float=_float)
    except RecursionError:
        raise BadJson(f"it is nested deeper than {MAX_DEPTH} levels") from None
    except BadJson:
        raise
    except ValueError as e:
        raise BadJson(f"it is not valid JSON ({e})") from None
    _check(value)
    return value


def _check(value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise BadJson("it has a lone surrogate (\\ud800-\\udfff), which is not text")
        elif isinstance(item, (list, dict)):
            if depth > MAX_DEPTH:
                raise BadJson(f"it is nested deeper than {MAX_DEPTH} levels")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def _constant(name: str) -> Any:
    raise BadJson(f"{name} is not a JSON number")


def _int(text: str) -> int:
    if len(text) > 17 or abs(number := int(text)) > MAX_NUMBER:
        raise BadJson(f"numbers must lie between -{MAX_NUMBER} and {MAX_NUMBER}")
    return number


def _float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number) or abs(number) > MAX_NUMBER:
        raise BadJson(f"numbers must lie between -{MAX_NUMBER} and {MAX_NUMBER}")
    return number


class PhoneJSON(DefaultJSONProvider):
    """Flask's JSON with this reading, so ``request.get_json()`` anywhere refuses the same."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)
