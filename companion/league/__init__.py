"""A league across tables and evenings: finishing orders, ratings, standings and Swiss
pairings, all pure (no Flask, no database, no clock), like ``companion/games/``.

``order`` reads a finished game's record (companion/record/games.py) as a finishing order;
``ratings`` folds those orders, oldest first, into OpenSkill ratings and the standings;
``pairings`` pairs the players present for a round of one-on-one games. What is stored and
served lives in ``companion/league/store.py`` and ``companion/web/league_api.py``.
"""
