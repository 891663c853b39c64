"""/healthz of a process that has just started (a fresh gunicorn worker, whose first request may
be the load balancer's probe) answers ready as soon as the process is, not 503 while its
fan-out listener connects."""

import pytest

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def test_the_first_probe_of_a_fresh_process_is_ready(make_app):
    for _ in range(3):
        fresh = make_app()
        r = fresh.test_client().get("/healthz")
        assert (r.status_code, r.get_json()) == (200, {"ok": True})
