"""The websocket reactor on a socket pair: a phone that stops reading, one that stops answering
pings, and messages that come in pieces."""

from __future__ import annotations

import socket
import time

import pytest
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage

from companion.loops import reactor as reactor_module
from companion.loops.reactor import LinkClosed, reactor


class Handshaken:
    """What flask-sock hands the reactor: a socket, its wsproto connection, ``connected``."""

    def __init__(self, sock: socket.socket, server: WSConnection) -> None:
        self.sock, self.ws, self.connected = sock, server, True


def handshaken_pair():
    """(the server's side as flask-sock leaves it, the phone's socket and wsproto connection)"""
    server_sock, phone_sock = socket.socketpair()
    phone_sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    server_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    phone, server = WSConnection(ConnectionType.CLIENT), WSConnection(ConnectionType.SERVER)
    server.receive_data(phone.send(Request(host="table", target="/ws/T")))
    assert isinstance(next(server.events()), Request)
    phone.receive_data(server.send(AcceptConnection()))
    assert isinstance(next(phone.events()), AcceptConnection)
    return Handshaken(server_sock, server), phone_sock, phone


@pytest.fixture
def pair():
    ws, phone_sock, phone = handshaken_pair()
    yield ws, phone_sock, phone
    ws.sock.close()
    phone_sock.close()


def test_a_phone_that_stops_reading_is_cut_off_without_blocking_the_sender(pair, monkeypatch):
    ws, _phone_sock, _phone = pair
    monkeypatch.setattr(reactor_module, "MAX_BACKLOG", 64 * 1024)
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    started, sent = time.monotonic(), 0
    with pytest.raises(LinkClosed):
        for _ in range(1000):
            link.send("x" * 1000)
            sent += 1
    assert time.monotonic() - started < 1  # never waited for the phone
    assert sent < 1000
    assert link.receive() is None  # the request thread is told, and lets go of the phone


def test_a_phone_that_stops_answering_pings_is_closed(pair):
    ws, phone_sock, phone = pair
    link = reactor.adopt(ws, 64 * 1024, 0.2)
    reactor.start(link)
    started = time.monotonic()
    assert link.receive() is None
    assert time.monotonic() - started < 5
    phone.receive_data(phone_sock.recv(65536))
    events = list(phone.events())
    assert any(isinstance(e, Ping) for e in events)
    assert isinstance(events[-1], CloseConnection) and events[-1].code == 1008, events


def test_a_probed_phone_that_does_not_answer_is_closed_long_before_the_ping_timeout(pair, monkeypatch):
    ws, phone_sock, phone = pair
    monkeypatch.setattr(reactor_module, "PROBE_TIMEOUT_S", 0.3)
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    started = time.monotonic()
    link.probe()
    assert link.receive() is None
    assert time.monotonic() - started < 3
    phone.receive_data(phone_sock.recv(65536))
    events = list(phone.events())
    assert isinstance(events[0], Ping) and isinstance(events[-1], CloseConnection), events


def test_a_probed_phone_that_answers_stays(pair, monkeypatch):
    ws, phone_sock, phone = pair
    monkeypatch.setattr(reactor_module, "PROBE_TIMEOUT_S", 0.3)
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    link.probe()
    phone.receive_data(phone_sock.recv(65536))
    ping = next(phone.events())
    assert isinstance(ping, Ping)
    phone_sock.sendall(phone.send(ping.response()))
    time.sleep(0.8)
    assert not link.closing
    link.send("still here")
    phone.receive_data(phone_sock.recv(65536))
    assert [e.data for e in phone.events()] == ["still here"]
    link.close()


def test_a_message_in_pieces_arrives_whole_and_pings_are_answered(pair):
    ws, phone_sock, phone = pair
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    phone_sock.sendall(phone.send(TextMessage(data='{"type": ', message_finished=False))
                       + phone.send(Ping(b"hi"))
                       + phone.send(TextMessage(data='"time.ping"}')))
    assert link.receive() == '{"type": "time.ping"}'
    phone.receive_data(phone_sock.recv(65536))
    assert [e.payload for e in phone.events()] == [b"hi"]  # the pong
    phone_sock.sendall(phone.send(CloseConnection(code=1000)))
    assert link.receive() is None


def test_a_link_that_breaks_is_closed_and_the_others_go_on(pair, caplog):
    ws, phone_sock, phone = pair
    broken_ws, broken_sock, broken_phone = handshaken_pair()
    broken = reactor.adopt(broken_ws, 64 * 1024, 25)
    broken.read = lambda: 1 / 0  # a bug in reading one socket
    reactor.start(broken)
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    broken_sock.sendall(broken_phone.send(TextMessage(data="{}")))
    assert broken.receive() is None
    phone_sock.sendall(phone.send(TextMessage(data="still here")))
    assert link.receive() == "still here"
    assert "websocket link failed" in caplog.text
    broken_sock.close()


def test_a_text_frame_that_is_not_utf8_closes_with_1007(pair):
    ws, phone_sock, phone = pair
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    mask, payload = b"\x01\x02\x03\x04", b"\xff\xfe{}"
    phone_sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                       + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    assert link.receive() is None
    phone.receive_data(phone_sock.recv(65536))
    assert [e.code for e in phone.events() if isinstance(e, CloseConnection)] == [1007]


def test_closing_a_phone_that_does_not_read_lets_go_of_it_after_a_grace(pair):
    ws, _phone_sock, _phone = pair
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    while not link.backlog:  # the socket is full; the rest waits in the link
        link.send("x" * 1000)
    started = time.monotonic()
    link.close(1000, "bye")  # its close frame is stuck behind what the phone did not read
    assert link.receive() is None
    assert time.monotonic() - started < reactor_module.CLOSE_GRACE_S + 2


def test_the_end_of_a_link_is_told_to_everyone_who_asks(pair):
    ws, phone_sock, phone = pair
    link = reactor.adopt(ws, 64 * 1024, 25)
    reactor.start(link)
    phone_sock.sendall(phone.send(CloseConnection(code=1000)))
    assert link.receive() is None
    link.close()  # what the request thread does on its way out, then it waits for the end
    assert link.receive() is None


def test_going_away_reaches_a_phone_whose_socket_was_not_yet_read(pair):
    """A stop that comes between a socket's handshake (its snapshot sent) and its first read
    (the route's reactor.start): the phone is told 1001 too, not left with a connection that
    just ends (1005, one stop in ~25 of test_cli's)."""
    import threading

    ws, phone_sock, phone = pair
    link = reactor.adopt(ws, 64 * 1024, 25)
    stopping = threading.Thread(target=reactor.close_all, args=(1001, "going away", 5))
    stopping.start()
    time.sleep(0.2)
    reactor.start(link)  # what the route does right after the snapshot
    stopping.join(10)
    assert not stopping.is_alive()
    phone_sock.settimeout(5)
    phone.receive_data(phone_sock.recv(65536))
    events = list(phone.events())
    assert isinstance(events[-1], CloseConnection) and events[-1].code == 1001, events
    assert link.receive() is None
