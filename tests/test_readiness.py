"""/healthz of a process that has just started (a fresh gunicorn worker, whose first request may
be the load balancer's probe) answers ready as soon as the process is, not 503 while its
fan-out listener connects."""

import time

import pytest

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def test_the_first_probe_of_a_fresh_process_is_ready(make_app):
    for _ in range(3):
        fresh = make_app()
        r = fresh.test_client().get("/healthz")
        assert (r.status_code, r.get_json()) == (200, {"ok": True})


def writes_ok(health) -> bool:
    return health.status_code == 200 or health.get_json().get("writes") is True


def test_healthz_is_ready_as_soon_as_the_database_answers_again_without_a_write(postgres, client,
                                                                                 monkeypatch):
    """A failed write is remembered (30 s) so that a load balancer sends no phone to a process
    that cannot record moves; but once the database answers, /healthz must say so at once,
    not wait for a phone to write first."""
    store = client.application.extensions["companion"].store
    monkeypatch.setattr(store, "table", lambda code: None)  # a new code: straight to its write
    postgres.stop()
    try:
        r = client.post("/api/tables", json={"game": "rankfile"})  # the write, retried, then refused
        assert r.status_code == 503 and r.get_json()["error"]["code"] == "server/unavailable"
        assert client.get("/healthz").status_code == 503
    finally:
        postgres.start()
    back = time.monotonic()
    while not writes_ok(health := client.get("/healthz")):
        assert time.monotonic() - back < 3, health.get_json()
        time.sleep(0.1)
    while client.get("/healthz").status_code != 200:  # and the fan-out's listener (up to 5 s)
        assert time.monotonic() - back < 10, client.get("/healthz").get_json()
        time.sleep(0.1)
