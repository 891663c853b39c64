"""The rulebooks as code: pure packages that turn commands into events and fold events into state.

Nothing under this package may do I/O, read the clock or touch Flask or the database
(checked by ``tests/test_layering.py``), so every rule can be driven directly by tests.
"""
