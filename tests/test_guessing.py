"""Guessing table codes and tokens: every way in charges the same wrong-guess bucket, and the
limit hits the guesser, not a phone joining a real table (#30 items 6 and 7)."""

from __future__ import annotations

import secrets


def test_stats_counts_made_up_tokens_as_guesses(client, tables):
    made_up = [secrets.token_urlsafe(24) for _ in range(500)]
    r = client.post("/api/stats", json={"tokens": made_up})
    assert r.status_code == 429
    assert r.get_json()["error"]["code"] == "rate/limited"
    # the same bucket as wrong table codes: the address has no guess left anywhere
    assert client.get("/api/tables/NOSUCH").status_code == 429
    assert client.post("/api/stats", json={"tokens": [made_up[0]]}).status_code == 429


def test_stats_with_real_tokens_is_not_limited(client, tables):
    t = tables.create("rankfile")
    seats = [tables.join(t["code"], f"P{i}")["token"] for i in range(3)]
    for _ in range(40):
        assert client.post("/api/stats", json={"tokens": [t["host_token"], *seats]}).status_code == 200


def guess(client, n: int, device: str | None, start: int = 0) -> list[int]:
    headers = {"X-Companion-Device": device} if device else {}
    return [client.get(f"/api/tables/QQ{i:03d}", headers=headers).status_code
            for i in range(start, start + n)]


def test_a_guesser_does_not_lock_out_a_new_phone_at_the_same_address(client, tables, clock):
    phone = {"X-Companion-Device": "phone-of-anna-0001"}
    joined = 0
    for minute in range(12):  # 60 wrong codes a minute, a phone joining each minute
        statuses = guess(client, 60, "guesser-device-01", start=minute * 60)
        assert 429 in statuses
        code = tables.create("rankfile")["code"]  # a table to join, each minute
        if client.get(f"/api/tables/{code}", headers=phone).status_code == 200:
            joined += client.post(f"/api/tables/{code}/players", json={"name": f"A{minute}"},
                                  headers=phone).status_code == 201
        clock.advance(60_000)
    assert joined == 12


def test_a_patient_guesser_is_bounded_too(client, clock):
    """17 a minute stays under the quick bucket; the slow one stops it within the hour."""
    limited = False
    for minute in range(60):
        limited |= 429 in guess(client, 17, "patient-guesser-1", start=minute * 17)
        clock.advance(60_000)
    assert limited


def test_made_up_device_ids_buy_few_guesses(client, clock):
    """A new id for every request: each address brings only so many ids an hour, then its
    requests share the address's bucket."""
    total_404 = sum(s == 404 for i in range(600)
                    for s in guess(client, 1, f"made-up-device-{i:04d}", start=i))
    assert total_404 <= 10 * 20 + 20  # ten fresh ids' quick buckets, and the address's own
