"""BLANK's decks, which outlive tables: each owner's copy in the database (``store``), and the
fresh snapshot a game takes of it when it starts or is played again (``rematch``)."""
