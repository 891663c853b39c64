"""Debian's nginx as the tests' own process, in front of server processes, with the configuration
docs/deploying.md gives operators: its ``nginx`` block is read from the page and only the
site's own values (the port, the certificate, the upstream servers) are put in, so the tested
configuration and the documented one cannot drift apart.

Made in a temporary directory with its own prefix, pid, logs and temporary files; TLS with a
throwaway self-signed certificate; run as an unprivileged user when the tests run as root, like
the PostgreSQL cluster (companion/storage/pgcluster.py)."""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from companion.lan.tls import self_signed

DEPLOYING = Path(__file__).resolve().parents[1] / "docs" / "deploying.md"
NGINX = "/usr/sbin/nginx"
SITE_NAME = "games.example.org"


class ProxyUnavailable(RuntimeError):
    """nginx is not installed or would not start; says why."""


def documented_block() -> str:
    """The one ``nginx`` block of docs/deploying.md."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOYING.read_text("utf-8"), re.S)
    assert len(blocks) == 1, "docs/deploying.md should hold one nginx block"
    return blocks[0]


def site_config(port: int, cert: str, key: str, upstreams: list[str]) -> str:
    """The documented block with this site's values; each must be found where the page has it."""
    text = documented_block()
    swaps = [
        (r"listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;"),
        (r"ssl_certificate +/\S+;", f"ssl_certificate {cert};"),
        (r"ssl_certificate_key +/\S+;", f"ssl_certificate_key {key};"),
    ]
    for pattern, replacement in swaps:
        text, n = re.subn(pattern, replacement, text)
        assert n == 1, f"the nginx block of docs/deploying.md has no {pattern!r}"
    servers = "".join(f"    server {u};\n" for u in upstreams)
    text, n = re.subn(r"(?m)(^    server \S+;[^\n]*\n)+", servers, text, count=1)
    assert n == 1, "the nginx block of docs/deploying.md has no upstream servers"
    return text


class Nginx:
    def __init__(self, upstreams: list[str]) -> None:
        if not os.path.exists(NGINX):
            raise ProxyUnavailable("Debian's nginx package is not installed")
        self.root = Path(tempfile.mkdtemp(prefix="companion-nginx-"))
        (self.root / "tmp").mkdir()
        self.cert, self.key = self_signed(str(self.root), SITE_NAME)
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.getuid() == 0 else []
        if self.as_user:
            for path in (self.root, self.root / "tmp", self.cert, self.key):
                shutil.chown(path, "nobody")
        self.access_log = self.root / "access.log"
        for _ in range(5):  # a port picked at random may be taken
            self.port = random.randint(20000, 60000)
            self.proc = self._start(upstreams)
            if self._ready():
                return
            self.stop()
        raise ProxyUnavailable(f"nginx would not start:\n{self.errors()}")

    def _start(self, upstreams: list[str]) -> subprocess.Popen[bytes]:
        tmp = self.root / "tmp"
        conf = self.root / "nginx.conf"
        conf.write_text(f"""worker_processes 1;
pid {self.root}/nginx.pid;
error_log {self.root}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {self.access_log};
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{site_config(self.port, self.cert, self.key, upstreams)}
}}
""", "utf-8")
        return subprocess.Popen([*self.as_user, NGINX, "-p", str(self.root), "-c", str(conf),
                                 "-e", str(self.root / "error.log"), "-g", "daemon off;"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def _ready(self) -> bool:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def logged(self, line: str, timeout: float = 10) -> str:
        """The access log, once it has the line (nginx writes a request's when it ends)."""
        deadline = time.monotonic() + timeout
        while True:
            log = self.access_log.read_text("utf-8") if self.access_log.exists() else ""
            if line in log or time.monotonic() > deadline:
                assert line in log, log
                return log
            time.sleep(0.1)

    def errors(self) -> str:
        path = self.root / "error.log"
        return path.read_text("utf-8", "replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
