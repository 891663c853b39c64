"""Rank & File: cooperative deduction with a standard deck; four wrong guesses lose."""
