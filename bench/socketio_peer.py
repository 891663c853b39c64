"""The peer for bench/broadcast.py: a minimal Flask-SocketIO server (threading mode, the same
simple-websocket transport) that relays a phone's command to everyone in its table's room."""

import sys

from flask import Flask, request
from flask_socketio import SocketIO, emit, join_room

app = Flask(__name__)
socketio = SocketIO(app, async_mode="threading", cors_allowed_origins="*", logger=False,
                    engineio_logger=False)


@socketio.on("join")
def on_join(data):
    join_room(data["table"])
    emit("joined", {"sid": request.sid})


@socketio.on("cmd")
def on_cmd(data):
    emit("event", data, to=data["table"])


if __name__ == "__main__":
    socketio.run(app, host="127.0.0.1", port=int(sys.argv[1]), allow_unsafe_werkzeug=True, log_output=False)
