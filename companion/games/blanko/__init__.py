"""BLANKO: the Hungarian crossword tile game, as a referee and score sheet."""
