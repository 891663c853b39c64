"""Errors of the service around the rules: unknown tables, bad tokens, floods."""

from __future__ import annotations


class ApiError(Exception):
    """A refusal with a stable ``code``, a message a person can act on, and its HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
