"""The names this server answers to, against DNS rebinding.

A page on ``evil.example`` whose owner points that name at the table's server (a LAN address,
or 127.0.0.1) reaches it through a guest's browser as the same origin: ``Host`` and ``Origin``
both say ``evil.example``, so the Origin checks pass. Only the ``Host`` gives it away, so a
request is served only when it names this server: an address of its interfaces, a loopback
address, ``localhost`` (and ``*.localhost``, which browsers resolve to loopback themselves),
this machine's own name, the public URL's host, or a name the operator lists
(``COMPANION_ALLOWED_HOSTS``). Anything else is ``421 Misdirected Request``; a request with no
``Host`` at all comes from no browser, and is served.

Behind a trusted proxy (``COMPANION_TRUSTED_PROXY_HOPS``) the host the browser asked for is the
forwarded one, and the ``Host`` the proxy sent must be this server's too: the documented nginx
passes the browser's own, and a rebound page could name the site in an ``X-Forwarded-Host`` of
its own, which the proxy passes on.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from flask import Flask, request

from ..clock import Clock
from ..errors import ApiError
from ..settings import SettingInvalid

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
REREAD_MS = 1_000  # an unknown address reads the interfaces again at most this often


class HostListInvalid(SettingInvalid):
    """An entry of the configured list that names no host; says which."""


def host_name(host: str) -> str | None:
    """The name or address a ``Host`` header (RFC 9110: ``uri-host [":" port]``) names: lower
    case, without its port, the brackets of an IPv6 address or a trailing dot (``localhost.``
    is ``localhost`` to DNS); ``None`` if it names no host."""
    host = host.lower()
    if host.startswith("["):
        name, bracket, port = host[1:].partition("]")
        if not bracket or (port and not port.startswith(":")) or not _is_ipv6(name):
            return None
        port = port[1:]
    else:
        name, _, port = host.partition(":")
        name = name.removesuffix(".")
        if not name or not all(c.isascii() and (c.isalnum() or c in "-._") for c in name):
            return None
    if port and not (port.isascii() and port.isdigit()):
        return None
    return name


def _is_ipv6(name: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(name), ipaddress.IPv6Address)
    except ValueError:
        return False


def _ip(name: str) -> Address | None:
    """The address a name is, if it is one; an IPv4 address inside IPv6 (``::ffff:a.b.c.d``)
    is that IPv4 address."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def listed_names(entries: Iterable[str]) -> list[str]:
    """The configured list's names: each a host name or address (a port is ignored; ``*.name``
    stands for the names under it), or a URL with no path, which stands for its host. An empty
    entry (``a,,b``) is refused like a wrong one: it is a name left out."""
    names = []
    for entry in entries:
        entry = entry.strip()
        url = urlsplit(entry) if "://" in entry else None
        host = url.netloc.rpartition("@")[2] if url else entry
        wildcard = "*." if host.startswith("*.") else ""
        name = host_name(host.removeprefix(wildcard))
        if name is None or (url and (url.path not in ("", "/") or url.query or url.fragment)):
            raise HostListInvalid(f"COMPANION_ALLOWED_HOSTS: {entry!r} is not a host name "
                                  "(give names such as games.example.org, separated by commas)")
        names.append(wildcard + name)
    return names


class Hosts:
    """Whether a host name is this server's. The machine's addresses are read when first asked
    about an address, and again when asked about one not among them (a laptop that moved to
    another Wi-Fi), at most once a second: a stream of strange addresses costs nothing."""

    def __init__(self, names: Iterable[str], machine_addresses: Callable[[], Iterable[str]],
                 clock: Clock) -> None:
        given = list(names)
        self._names = {n for n in given if _ip(n) is None and not n.startswith("*.")}
        self._suffixes = tuple(n[1:] for n in given if n.startswith("*."))
        self._listed = {_ip(n) for n in given} - {None}
        self._machine_addresses = machine_addresses
        self._clock = clock
        self._addresses: frozenset[Address] = frozenset()
        self._read_at_ms: int | None = None

    def allows(self, host: str) -> bool:
        name = host_name(host)
        if name is None:
            return False
        address = _ip(name)
        if address is None:
            return name in self._names or name.endswith(self._suffixes)
        return address.is_loopback or address in self._listed or self._is_ours(address)

    def _is_ours(self, address: Address) -> bool:
        if address in self._addresses:
            return True
        now = self._clock.now_ms()
        if self._read_at_ms is not None and now - self._read_at_ms < REREAD_MS:
            return False
        self._read_at_ms = now
        self._addresses = frozenset(a for a in map(_ip, self._machine_addresses()) if a is not None)
        return address in self._addresses


def own_names(public_url: str | None) -> list[str]:
    """The names this server has without being told: ``localhost`` and the names under it, the
    machine's name (``raspberrypi``, and ``raspberrypi.local`` of mDNS), the public URL's host."""
    machine = socket.gethostname().lower()
    public = urlsplit(public_url or "").hostname
    return ["localhost", "*.localhost", machine, f"{machine}.local",
            *([public.removesuffix(".")] if public else [])]


def install(app: Flask, clock: Clock) -> None:
    """Refuse, before anything else runs, every request that names a host this server is not."""
    from ..lan.netinfo import machine_addresses

    hosts = Hosts([*own_names(app.config["PUBLIC_URL"]), *listed_names(app.config["ALLOWED_HOSTS"])],
                  app.config["MACHINE_ADDRESSES"] or machine_addresses, clock)

    def refuse_other_hosts() -> None:
        asked = [request.environ.get("HTTP_HOST")]
        if (original := request.environ.get("werkzeug.proxy_fix.orig")) is not None:
            asked.append(original.get("HTTP_HOST"))
        if not all(host is None or hosts.allows(host) for host in asked):
            raise ApiError("http/misdirected", "this server does not answer to that host name; "
                           "its operator can list it in COMPANION_ALLOWED_HOSTS", 421)

    app.before_request(refuse_other_hosts)
