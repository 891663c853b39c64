"""The WSGI entry point for production servers, importable wherever the package is installed:
``gunicorn -w 1 --threads 64 companion.wsgi:app``.

On SQLite only one process may serve the file (single_writer.py): the second gunicorn worker
is refused here, on import, and exits with gunicorn's "worker failed to boot", on which the
whole gunicorn stops with the sentence below rather than run two diverging copies."""

import sys

from . import create_app, default_database_url
from .single_writer import SecondWriter, hold

try:
    writer_lock = hold(default_database_url())
except SecondWriter as e:
    print(f"companion: {e}", file=sys.stderr, flush=True)
    raise SystemExit(3) from None
if writer_lock is not None:
    writer_lock.take_in_forked_workers()
app = create_app()
