"""The server's host's own key: deleting a player's history is theirs alone to do.

The key is a random token in a file of the instance folder, readable by the account that runs
the server and nobody else, so whoever can read it is the server's host. ``companion forget``
reads it and asks the running server, which rewrites the log and refolds the tables at once.
"""

from __future__ import annotations

import json
import os
import secrets
import ssl
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from flask import Flask


def key_file(app: Flask) -> Path:
    return Path(app.config.get("ADMIN_KEY_FILE") or os.path.join(app.instance_path, "admin-key"))


def ensure_key(path: Path) -> str:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process of the server made it just now
            return path.read_text().strip()
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(24))
    return path.read_text().strip()


def forget_command(url: str, key_path: str, name: str | None, identity: str | None) -> int:
    """``companion forget``: ask the server at ``url`` to delete one player's history."""
    try:
        key = Path(key_path).read_text().strip()
    except OSError as e:
        print(f"companion: cannot read the server's key ({e}); run this where the server runs")
        return 1
    body = json.dumps({"name": name, "identity": identity}).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    req = urllib.request.Request(url.rstrip("/") + "/api/admin/forget", data=body, method="POST",
                                 headers=headers)
    # `companion serve --https` uses a self-signed certificate: on this machine's own loopback
    # address there is nobody in between to check it against.
    host = urllib.parse.urlsplit(url).hostname
    context = ssl._create_unverified_context() if host in ("127.0.0.1", "localhost", "::1") else None
    try:
        with urllib.request.urlopen(req, timeout=30, context=context) as r:
            touched = json.loads(r.read())["tables"]
    except urllib.error.HTTPError as e:
        print(f"companion: {json.loads(e.read() or b'{}').get('error', {}).get('message', e.reason)}")
        return 1
    except (urllib.error.URLError, OSError) as e:
        print(f"companion: the server at {url} did not answer ({e})")
        return 1
    print(f"Forgotten at {len(touched)} table(s): {', '.join(touched) or '-'}")
    return 0
