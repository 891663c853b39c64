"""The process's two socket loops, side by side: the one that reads every HTTP request
(request_reader.py, with h11: incoming.py) and the one that reads every websocket
(reactor.py, with wsproto), and the heartbeat that shows when either stops turning
(heartbeat.py). They import nothing of the app: what a request or a frame means is decided above
them (serving/, web/)."""
