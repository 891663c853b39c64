"""Mechanics shared by every game: errors, events, turn order, decks, scores and the hourglass."""
