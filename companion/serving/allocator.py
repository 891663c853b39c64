"""glibc's per-thread malloc caches are turned off for the server's process.

glibc keeps freed chunks of up to about 1 KB in a cache of each thread (its tcache), and the
server runs a thread for every phone. Python asks malloc for everything over 512 bytes (its
own allocator takes the rest), and a frame or a phone's view often is. In the club-night
soak (bench/soak.py, 50 tables × 6 phones sleeping and waking), with the caches what glibc
counts as in use grew by 3 MB in five minutes and RSS was +8.5 % of the baseline at minute 5;
without them in use stayed flat and RSS was +2.6 %, at the same CPU per command and p95
(docs/performance.md). The caches can only be set before a process starts (GLIBC_TUNABLES is
read at start-up; mallopt has no such setting), so ``companion serve`` starts itself again,
as the same process, with the setting added, unless the operator chose one of their own.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Mapping

TUNABLE = "glibc.malloc.tcache_count=0"


def on_glibc() -> bool:
    return platform.libc_ver()[0] == "glibc"


def tuned_environ(environ: Mapping[str, str]) -> dict[str, str] | None:
    """The environment to start again with, or None when this one will do: not glibc, or
    the caches already set (by the operator, or by the start before this one)."""
    if not on_glibc():
        return None
    tunables = environ.get("GLIBC_TUNABLES", "")
    if "glibc.malloc.tcache_count=" in tunables:
        return None
    return {**environ, "GLIBC_TUNABLES": f"{tunables}:{TUNABLE}" if tunables else TUNABLE}


def restart_tuned() -> None:
    """Replaces this process (same pid, files and arguments) by one with the caches off."""
    environ = tuned_environ(os.environ)
    if environ is not None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, sys.orig_argv, environ)
