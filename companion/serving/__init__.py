"""The process ``companion serve`` runs: the HTTP ``server`` with the guards Werkzeug's
development mode leaves out, its ``logs`` on stderr, and the malloc setting it restarts itself
with (``allocator``)."""
