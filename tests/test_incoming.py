"""Arbitrary bytes, split at arbitrary points, fed to the reader's parse of requests (h11 with
the server's policy, companion/loops/incoming.py) and to the real server: it always answers or
closes, at once once the client has said all it will, and what it holds stays bounded whatever
a request declares (#41: a chunk size of -6 looped forever; a declared 0x7fffffffffff was
buffered without limit)."""

from __future__ import annotations

import signal
import socket
import time
from contextlib import contextmanager

import h11
import pytest
from conftest import connect_from
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.loops.incoming import ENDED, MAX_HEAD_BYTES, Complete, Incoming, Refusal
from companion.loops.request_reader import RECEIVE_BYTES

MAX_BODY = 4096
BOUND = MAX_HEAD_BYTES + MAX_BODY + 2 * RECEIVE_BYTES

# Pieces an HTTP request is made of, so that the search reaches past the request line.
PIECES = st.sampled_from([
    b"GET / HTTP/1.1\r\n", b"POST /api/tables HTTP/1.1\r\n", b"GET / HTTP/1.0\r\n", b"Host: x\r\n",
    b"Content-Length: 5\r\n", b"Content-Length: -1\r\n", b"Content-Length: 99999999999\r\n",
    b"Transfer-Encoding: chunked\r\n", b"Transfer-Encoding: chunked, identity\r\n",
    b"Expect: 100-continue\r\n", b"Connection: close\r\n", b"Connection: upgrade\r\nUpgrade: websocket\r\n",
    b" folded\r\n", b"\r\n", b"\n", b"\r", b"0\r\n", b"-6\r\n", b"5;ext=1\r\n", b"7fffffffffff\r\n",
    b"0x21\r\n", b"hello", b"\x00", b":", b" ", b"X-T: 1\r\n",
])
STREAMS = st.lists(st.one_of(PIECES, st.binary(max_size=64)), max_size=40).map(b"".join)


@contextmanager
def within(seconds: float):
    """Fail, rather than hang, if the parse does not return: the bug this guards against was an
    endless loop."""
    def late(*_: object) -> None:
        raise TimeoutError("the parse did not return")

    previous = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def answer(incoming: Incoming) -> bool:
    """What the server does after a whole request: an answer through h11, then the next one."""
    if incoming.h11.their_state is h11.MIGHT_SWITCH_PROTOCOL:
        return False  # a websocket's route would take the socket over
    incoming.h11.send(h11.Response(status_code=200, headers=[("Content-Length", "0")]))
    incoming.h11.send(h11.EndOfMessage())
    return incoming.next_cycle()


def run(stream: bytes, cuts: list[int]) -> list[object]:
    """Feed ``stream`` cut at ``cuts`` (as the loop does, a receive at a time), then the end."""
    incoming = Incoming(MAX_BODY)
    outcomes: list[object] = []
    bounds = sorted({c % (len(stream) + 1) for c in cuts} | {0, len(stream)})
    pieces = [stream[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    pieces = [p[i:i + RECEIVE_BYTES] for p in pieces for i in range(0, len(p), RECEIVE_BYTES)] + [b""]
    with within(5):
        for piece in pieces:
            outcome = incoming.feed(piece)
            while isinstance(outcome, Complete):
                outcomes.append(outcome)
                outcome = incoming.next() if answer(incoming) else ENDED
            assert incoming.buffered() <= BOUND
            if outcome is not None:
                outcomes.append(outcome)
                if isinstance(outcome, Refusal) or outcome is ENDED:
                    break
            assert incoming.continue_now() in (b"", b"HTTP/1.1 100 Continue\r\n\r\n")
    return outcomes


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(STREAMS, st.lists(st.integers(min_value=0), max_size=8))
def test_arbitrary_bytes_always_end_in_an_answer_or_a_close(stream, cuts):
    outcomes = run(stream, cuts)
    # Once the client has closed, the server has decided: never "more, please" for ever.
    assert outcomes and (isinstance(outcomes[-1], Refusal | Complete) or outcomes[-1] is ENDED)
    for outcome in outcomes:
        if isinstance(outcome, Refusal):
            assert outcome.status in (400, 413, 431, 501, 505) and outcome.code.startswith("http/")
        if isinstance(outcome, Complete):
            assert len(outcome.body) <= MAX_BODY


@settings(max_examples=100)
@given(st.binary(max_size=2048), st.lists(st.integers(min_value=0), max_size=8))
def test_raw_noise_always_ends_in_an_answer_or_a_close(noise, cuts):
    assert run(noise, cuts)


def test_a_body_declared_without_limit_is_held_only_up_to_the_limit():
    incoming = Incoming(MAX_BODY)
    head = b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    assert incoming.feed(head + b"7fffffffffff\r\n") is None
    outcome = None
    for _ in range(100):  # 1.6 MB sent, at most MAX_BODY kept
        outcome = incoming.feed(b"x" * RECEIVE_BYTES)
        if outcome is not None:
            break
        assert incoming.buffered() <= BOUND
    assert isinstance(outcome, Refusal) and outcome.status == 413


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(STREAMS, st.lists(st.integers(min_value=0), max_size=4))
def test_the_server_answers_or_closes_whatever_it_is_sent(server, stream, cuts):
    """The same against the real server: the bytes in pieces, then the client's end; an answer
    or a close comes at once (well before the request deadline), and the next client is served."""
    port = server.server_address[1]
    s = connect_from(port, "127.0.6.2")
    s.settimeout(10)
    bounds = sorted({c % (len(stream) + 1) for c in cuts} | {0, len(stream)})
    started = time.monotonic()
    try:
        for a, b in zip(bounds, bounds[1:], strict=False):
            s.sendall(stream[a:b])
        s.shutdown(socket.SHUT_WR)
        while s.recv(65536):
            pass
    except (ConnectionResetError, BrokenPipeError):
        pass  # a close with the client's bytes unread: a close all the same
    finally:
        s.close()
    assert time.monotonic() - started < 5  # the deadline is 10 s: this was the parse's decision
    probe = connect_from(port, "127.0.6.3")
    probe.settimeout(10)
    probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert probe.recv(12) == b"HTTP/1.1 200"
    probe.close()
