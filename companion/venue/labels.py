"""What an operator types for a venue, read as the rest of the server reads a name: a table's
label and the venue's Wi-Fi, and the text of the Wi-Fi's QR code. Pure: no Flask, no database.

A label is shown on the tent in large type and on the staff's screen, and is the last part of
the tent's URL, so it is read as a player's name is (table/names.py: what shows nothing and
control characters dropped, single-spaced) and two labels a guest could take for one another
("Window" and "WINDOW", "1" and "l") are refused. It cannot hold a "/" nor be "." or "..": in a
URL's path those are no longer a label (a browser resolves a dot segment even percent-encoded).
"""

from __future__ import annotations

from typing import Any

from ..errors import ApiError
from ..table.names import shown, skeleton

MAX_LABEL = 24
MAX_TABLES = 100
MAX_SSID_BYTES = 32  # IEEE 802.11's limit, in UTF-8 bytes
SECURITIES = ("WPA", "WEP", "nopass")
# What the WIFI: format (the ZXing "Wi-Fi network config" it comes from) escapes with a backslash
_WIFI_SPECIAL = '\\;,:"'


def label_of(raw: Any) -> str:
    """A table's label as every screen shows it, or ``venue/bad_label``."""
    label = shown(raw) if isinstance(raw, str) else ""
    if not label or len(label) > MAX_LABEL or "/" in label or label in (".", ".."):
        raise ApiError("venue/bad_label", f"a table's label is 1 to {MAX_LABEL} characters, "
                       "without '/' (for example 1, Window, Terrace 2)")
    return label


def label_key(label: str) -> str:
    """Equal for labels a guest could take for one another: how a venue's tables are told apart
    and found from a URL however it is cased. Case-folded first: a name's skeleton keeps "I"
    and "i" apart (the capital looks like "l"), a URL typed in capitals should not."""
    return skeleton(label.casefold())


def labels_of(raw: Any) -> list[str]:
    """A new venue's labels, in the operator's order: 1 to MAX_TABLES of them, none alike."""
    if not (isinstance(raw, list) and 1 <= len(raw) <= MAX_TABLES):
        raise ApiError("venue/bad_tables", f"tables is a list of 1 to {MAX_TABLES} labels")
    labels = [label_of(r) for r in raw]
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        if (first := seen.setdefault(label_key(label), i)) != i:
            raise ApiError("venue/same_label", f"{labels[first]!r} and {label!r} would look alike on a tent: "
                           "give each table a label of its own")
    return labels


def wifi_of(raw: Any) -> dict[str, str] | None:
    """The Wi-Fi a venue's tents offer: ``{"ssid", "password", "security"}`` checked as a
    phone's camera will read it (a WPA passphrase is 8 to 63 characters, or 64 hex digits);
    None for ``None`` or ``{"ssid": None}`` (no Wi-Fi code on the tents)."""
    if raw is None or (isinstance(raw, dict) and "ssid" in raw and raw["ssid"] is None):
        return None
    refusal = ApiError("venue/bad_wifi", "wifi is {ssid: the network's name (1 to 32 bytes), password, "
                       "security: WPA (8 to 63 characters), WEP or nopass (no password)}")
    if not isinstance(raw, dict):
        raise refusal
    ssid, password, security = raw.get("ssid"), raw.get("password", ""), raw.get("security", "WPA")
    if not (isinstance(ssid, str) and ssid.isprintable() and 1 <= len(ssid.encode()) <= MAX_SSID_BYTES
            and isinstance(password, str) and password.isprintable() and security in SECURITIES):
        raise refusal
    if security == "WPA" and not (8 <= len(password) <= 63 or _hex(password, 64)):
        raise refusal
    if security == "WEP" and not (len(password) in (5, 13) or _hex(password, 10) or _hex(password, 26)):
        raise refusal
    if security == "nopass" and password:
        raise refusal
    return {"ssid": ssid, "password": password, "security": security}


def _hex(text: str, length: int) -> bool:
    return len(text) == length and all(c in "0123456789abcdefABCDEF" for c in text)


def wifi_text(wifi: dict[str, str]) -> str:
    """What the Wi-Fi's QR code encodes, as iPhone and Android cameras read it:
    ``WIFI:T:WPA;S:<ssid>;P:<password>;;``, each of ``\\ ; , : "`` escaped by a backslash."""
    if wifi["security"] == "nopass":
        return f"WIFI:T:nopass;S:{_escaped(wifi['ssid'])};;"
    return f"WIFI:T:{wifi['security']};S:{_escaped(wifi['ssid'])};P:{_escaped(wifi['password'])};;"


def _escaped(text: str) -> str:
    return "".join("\\" + c if c in _WIFI_SPECIAL else c for c in text)
