"""Errors of the service around the rules: unknown tables, bad tokens, floods."""

from __future__ import annotations

from typing import Any

from .games.core.errors import Refusal


class ApiError(Refusal):
    """A refusal with a stable ``code``, a message a person can act on, and its HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(code, message, params)
        self.status = status

    def headers(self) -> dict[str, str]:
        """What the HTTP answer carries besides its body: a 401 names the scheme to use."""
        return {"WWW-Authenticate": 'Bearer realm="companion"'} if self.status == 401 else {}


class RateLimited(ApiError):
    """A 429 that says, in ``Retry-After``, when the caller's bucket holds a token again."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__("rate/limited", message, 429)
        self.retry_after_s = retry_after_s

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class UpgradeRequired(ApiError):
    """A request to /ws/ that is not a websocket of the one version there is (RFC 6455 §4.4)."""

    def __init__(self, message: str) -> None:
        super().__init__("ws/upgrade_required", message, 426)

    def headers(self) -> dict[str, str]:
        return {"Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
