"""The peers for bench/broadcast.py: a minimal Flask-SocketIO server (threading mode, the same
simple-websocket transport) that relays a phone's command to everyone in its table's room.

    python bench/socketio_peer.py PORT            relays only
    python bench/socketio_peer.py PORT DB_PATH    first commits the command to SQLite (WAL,
                                                  synchronous=FULL, one writer at a time), as
                                                  Table Companion does before anyone hears of it
"""

import json
import sqlite3
import sys
import threading

from flask import Flask, request
from flask_socketio import SocketIO, emit, join_room

app = Flask(__name__)
socketio = SocketIO(app, async_mode="threading", cors_allowed_origins="*", logger=False,
                    engineio_logger=False)
db: sqlite3.Connection | None = None
db_lock = threading.Lock()


def open_db(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, room TEXT, payload TEXT)")
    return conn


@socketio.on("join")
def on_join(data):
    join_room(data["table"])
    emit("joined", {"sid": request.sid})


@socketio.on("cmd")
def on_cmd(data):
    if db is not None:  # stored before anyone is told: a crash takes back nothing a phone saw
        with db_lock:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO events (room, payload) VALUES (?, ?)", (data["table"], json.dumps(data)))
            db.execute("COMMIT")
    emit("event", data, to=data["table"])


if __name__ == "__main__":
    if len(sys.argv) > 2:
        db = open_db(sys.argv[2])
    socketio.run(app, host="127.0.0.1", port=int(sys.argv[1]), allow_unsafe_werkzeug=True, log_output=False)
