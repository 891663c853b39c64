"""The ``companion`` command (``cli``) and its subcommands that look after a server's data and
certificates (``db``, ``cert``); ``python -m companion`` and the console script run ``cli.main``."""
