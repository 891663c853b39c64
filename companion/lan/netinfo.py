"""Finding the address other devices on the LAN can reach this machine at.

It reads the interfaces' addresses (Linux ``SIOCGIFADDR``) rather than opening a connection
anywhere, so nothing leaves the machine to find out.
"""

from __future__ import annotations

import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915


def interface_addresses() -> list[str]:
    found: list[str] = []
    try:
        import fcntl
    except ImportError:  # not Linux: fall back to the host name's addresses
        fcntl = None  # type: ignore[assignment]
    if fcntl is not None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR,
                                         struct.pack("256s", name[:15].encode()))
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    return found


def machine_addresses() -> list[str]:
    """Every address of the machine: the IPv4 ones above and, on Linux, the interfaces' IPv6
    ones (a phone on an IPv6-only network, or one that typed ``[fe80::…]``)."""
    found = interface_addresses()
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as table:
            found += [str(ipaddress.IPv6Address(bytes.fromhex(line.split()[0]))) for line in table]
    except (OSError, ValueError, IndexError):  # not Linux, no IPv6, or a line it cannot read
        pass
    return found


def lan_address() -> str:
    """The best address for phones: a private LAN address, else any non-loopback one."""
    candidates = [ipaddress.ip_address(a) for a in interface_addresses()]
    for pick in (lambda a: a.is_private and not a.is_loopback and not a.is_link_local,
                 lambda a: not a.is_loopback):
        for a in candidates:
            if pick(a):
                return str(a)
    return "127.0.0.1"
