"""One exception for every refused command, with a stable code that clients can switch on."""

from __future__ import annotations

from typing import Any, Literal

Kind = Literal["invalid", "forbidden", "conflict", "not_found"]


class Refusal(Exception):
    """A refusal with a stable ``code`` a client switches on, ``params`` a page puts into its own
    words for it ("can only be a {number}", the boards of a round still on), and ``message``,
    English for API users: the rules' refusals and the service's answer the same shape."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = self.params
        return out


class RuleViolation(Refusal):
    """A command the rules refuse; nothing is recorded when this is raised.

    ``kind`` lets the transport pick a status (a move out of turn is a conflict with the
    table's state, a player acting for the host is forbidden) without the rules knowing HTTP.
    """

    def __init__(self, code: str, message: str, kind: Kind = "invalid",
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(code, message, params)
        self.kind = kind


def require(condition: object, code: str, message: str, kind: Kind = "invalid",
            params: dict[str, Any] | None = None) -> None:
    """Raise a RuleViolation unless ``condition`` holds; keeps validation code flat."""
    if not condition:
        raise RuleViolation(code, message, kind, params)
