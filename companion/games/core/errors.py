"""One exception for every refused command, with a stable code that clients can switch on."""

from __future__ import annotations

from typing import Literal

Kind = Literal["invalid", "forbidden", "conflict", "not_found"]


class RuleViolation(Exception):
    """A command the rules refuse; nothing is recorded when this is raised.

    ``kind`` lets the transport pick a status (a move out of turn is a conflict with the
    table's state, a player acting for the host is forbidden) without the rules knowing HTTP.
    """

    def __init__(self, code: str, message: str, kind: Kind = "invalid") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.kind = kind

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def require(condition: object, code: str, message: str, kind: Kind = "invalid") -> None:
    """Raise a RuleViolation unless ``condition`` holds; keeps validation code flat."""
    if not condition:
        raise RuleViolation(code, message, kind)
