"""`companion serve` runs with glibc's per-thread malloc caches off (companion/serving/allocator.py)."""

import os
import urllib.request

import pytest
from conftest import start_serve

from companion.serving import allocator

glibc = pytest.mark.skipif(not allocator.on_glibc(), reason="a glibc setting")


def test_the_setting_is_added_to_what_the_operator_tuned(monkeypatch):
    monkeypatch.setattr(allocator, "on_glibc", lambda: True)
    assert allocator.tuned_environ({"A": "1"}) == {"A": "1", "GLIBC_TUNABLES": allocator.TUNABLE}
    assert allocator.tuned_environ({"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"}) == {
        "GLIBC_TUNABLES": f"glibc.malloc.arena_max=2:{allocator.TUNABLE}"}


def test_an_operators_own_cache_setting_is_kept_and_nothing_restarts(monkeypatch):
    monkeypatch.setattr(allocator, "on_glibc", lambda: True)
    assert allocator.tuned_environ({"GLIBC_TUNABLES": "glibc.malloc.tcache_count=3"}) is None
    assert allocator.tuned_environ({"GLIBC_TUNABLES": allocator.TUNABLE}) is None  # restarted once


def test_without_glibc_nothing_restarts(monkeypatch):
    monkeypatch.setattr(allocator, "on_glibc", lambda: False)
    assert allocator.tuned_environ({}) is None


@glibc
def test_the_server_process_itself_runs_with_the_setting():
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    proc, url = start_serve(env)
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=10) as r:
            assert r.status == 200
        with open(f"/proc/{proc.pid}/environ", "rb") as f:  # the same process, started again
            assert f"GLIBC_TUNABLES={allocator.TUNABLE}".encode() in f.read().split(b"\0")
    finally:
        proc.kill()
        proc.wait(10)
