"""Reading fields out of a command dict, with errors a phone can show as they are."""

from __future__ import annotations

from typing import Any, TypeVar

from .errors import RuleViolation

T = TypeVar("T")
_MISSING = object()


def field(command: dict[str, Any], name: str, kind: type[T], default: Any = _MISSING) -> T:
    """``command[name]`` checked to be a ``kind``; bools are not accepted as ints."""
    value = command.get(name, _MISSING)
    if value is _MISSING or value is None:
        if default is _MISSING:
            raise RuleViolation("table/missing_field", f"'{name}' is required")
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RuleViolation(
            "table/bad_field", f"'{name}' must be {_describe(kind)}, not {type(value).__name__}"
        )
    return value


def int_field(
    command: dict[str, Any], name: str, lo: int, hi: int, default: Any = _MISSING
) -> int:
    value = field(command, name, int, default)
    if not lo <= value <= hi:
        raise RuleViolation("table/bad_field", f"'{name}' must be between {lo} and {hi}")
    return value


def choice_field(command: dict[str, Any], name: str, allowed: list[str] | tuple[str, ...]) -> str:
    value = field(command, name, str)
    if value not in allowed:
        raise RuleViolation(
            "table/bad_field", f"'{name}' must be one of {', '.join(map(str, allowed))}"
        )
    return value


def _describe(kind: type) -> str:
    return {int: "a whole number", str: "text", list: "a list", dict: "an object", bool: "true or false"}.get(
        kind, kind.__name__
    )
