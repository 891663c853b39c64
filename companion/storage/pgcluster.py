"""A throwaway PostgreSQL cluster of Debian's ``postgresql`` package, for the tests and the
benchmarks: made in a temporary directory, listening on a unix socket there and on no TCP
port, run as an unprivileged user (PostgreSQL refuses root), removed afterwards. Not for
serving: docs/deploying.md sets up a real one."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

PORT = 23017  # names the socket file in the cluster's own directory; no TCP port is opened


class ClusterUnavailable(RuntimeError):
    """PostgreSQL is not installed or would not start; says why."""


class PostgresCluster:
    def __init__(self, durable: bool = False, max_connections: int = 400) -> None:
        """``durable=False`` turns fsync off: a test cluster need not survive a power cut."""
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                          key=lambda p: int(p.parent.parent.name))
        if not versions:
            raise ClusterUnavailable("Debian's postgresql package is not installed (no initdb)")
        self.bin = versions[-1].parent
        self.root = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.data = self.root / "data"
        self.settings = f"-c max_connections={max_connections}" + ("" if durable else " -c fsync=off")
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.getuid() == 0 else []
        if self.as_user:
            shutil.chown(self.root, "nobody")
        self._names = itertools.count(1)
        try:
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "companion", "-E", "UTF8",
                      "--no-sync")
            self.start()
        except ClusterUnavailable:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _run(self, tool: str, *args: str) -> None:
        try:
            done = subprocess.run([*self.as_user, str(self.bin / tool), *args], capture_output=True,
                                  text=True, cwd=self.root, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            raise ClusterUnavailable(f"{tool} could not run: {e}") from e
        if done.returncode != 0:
            raise ClusterUnavailable(f"{tool} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-o",
                  f"-p {PORT} -k {self.root} -c listen_addresses='' {self.settings}", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, schema: str | None = None) -> str:
        """A SQLAlchemy URL; with ``schema``, one whose tables live in that schema."""
        base = f"postgresql+psycopg://companion@/postgres?host={self.root}&port={PORT}"
        return base + (f"&options=-csearch_path%3D{schema}" if schema else "")

    def new_database(self) -> str:
        """The URL of a new, empty schema: a database each cost the suite half a second to
        make, and as long to remove, on a busy disk."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url().replace("+psycopg", ""), autocommit=True) as c:
            c.execute(f"CREATE SCHEMA {name}")
        return self.url(name)

    def remove(self) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
