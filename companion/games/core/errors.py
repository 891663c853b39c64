"""One exception for every refused command, with a stable code that clients can switch on."""

from __future__ import annotations

from typing import Any, Literal

Kind = Literal["invalid", "forbidden", "conflict", "not_found"]


class RuleViolation(Exception):
    """A command the rules refuse; nothing is recorded when this is raised.

    ``kind`` lets the transport pick a status (a move out of turn is a conflict with the
    table's state, a player acting for the host is forbidden) without the rules knowing HTTP.
    """

    def __init__(self, code: str, message: str, kind: Kind = "invalid",
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.kind = kind
        self.params = params or {}

    def as_dict(self) -> dict[str, Any]:
        # ``params`` are the figures a page puts into its own words for ``code`` ("can only be
        # a {number}"); ``message`` is English for API users.
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = self.params
        return out


def require(condition: object, code: str, message: str, kind: Kind = "invalid",
            params: dict[str, Any] | None = None) -> None:
    """Raise a RuleViolation unless ``condition`` holds; keeps validation code flat."""
    if not condition:
        raise RuleViolation(code, message, kind, params)
