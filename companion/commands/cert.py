"""``companion cert``: a local certificate authority for ``--https`` on a LAN (lan/tls.py). The
operator installs it once on each phone; from then on the phones trust the server without a
warning, and the offline shell (a service worker) registers, which a clicked-through
self-signed certificate never allows."""

from __future__ import annotations

import argparse
import os

INSTRUCTIONS = """\
Next:
 1. Start the server with HTTPS:  companion serve --https   (make run ARGS=--https)
 2. On each phone, once, open  {url}  (this QR code), accept the warning this one time,
    and install the certificate it downloads:
    - Android: Settings > Security > Encryption & credentials > Install a certificate >
      CA certificate (the file "table-companion-ca.crt"; some phones open it from Downloads).
    - iPhone/iPad: allow the profile, install it in Settings > General > VPN & Device
      Management, then turn on full trust for it in Settings > General > About >
      Certificate Trust Settings.
 3. Open the app on the phone again: no warning, and it keeps working offline.
Keep {key} private: whoever has it can make certificates these phones trust.
If this machine's address changes, the server's certificate is issued again on start;
the phones keep the authority.
"""


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    cert = sub.add_parser("cert", help="make a local certificate authority for --https, to install "
                                       "once on each phone (prints how)")
    cert.add_argument("--host", help="the address phones use (default: this machine's LAN address)")
    cert.add_argument("--port", type=int, default=8000, help="the port `companion serve` will use")


def run(args: argparse.Namespace) -> int:
    from .. import instance_folder
    from ..lan import qr
    from ..lan.netinfo import lan_address
    from ..lan.tls import CA_KEY, issue

    folder = instance_folder()
    host = args.host or lan_address()
    issue(folder, host)
    url = f"https://{host}:{args.port}/ca.crt"
    print(f"A local certificate authority is in {folder}, and the server's certificate for "
          f"{host} is signed by it.\n")
    print(qr.ascii_art(url))
    print(INSTRUCTIONS.format(url=url, key=os.path.join(folder, CA_KEY)))
    return 0
