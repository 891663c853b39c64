"""A table: the seats, the lobby, the hourglass and one game, kept as an event log."""
