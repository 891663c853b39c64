"""After the game: each game's record, its exports, and stats across tables, all read from
the event log when asked for and never stored a second time.

``games`` folds a table's log into the record of every game played at it; ``details`` adds
what each game keeps beyond scores; ``exports`` writes CSV and BG Stats files; ``stats`` and
``charts`` sum records up. ``people`` is the one part that touches the database: it finds the
tables a browser's player identity sat at, and forgets a player when the server's host asks.
"""
