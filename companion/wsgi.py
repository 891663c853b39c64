"""The WSGI entry point for production servers, importable wherever the package is installed:
``gunicorn -w 1 --threads 64 companion.wsgi:app``.

On SQLite only one process may serve the file (storage/single_writer.py): the second gunicorn worker
is refused here, on import, and exits with gunicorn's "worker failed to boot", on which the
whole gunicorn stops with the sentence below rather than run two diverging copies. So does a
setting ``companion serve`` would refuse (a ``COMPANION_*`` setting out of its range, a
database it cannot use or reach, no dictionary): one sentence saying what to do, not a
traceback per worker, and exit status 3, gunicorn's "worker failed to boot" (``companion
serve`` says the same sentences with exit status 1)."""

import signal
import sys
import threading

from . import create_app, default_database_url, settings
from .dictionary.hunspell_lexicon import DictionaryMissing
from .loops.reactor import going_away
from .settings import SettingInvalid
from .storage.single_writer import SecondWriter, hold
from .storage.store import DatabaseUnusable, check_database


def phones_told_on_sigterm() -> None:
    """gunicorn's worker stops on SIGTERM by waiting (its graceful timeout) for the requests it
    serves, websockets included, which would only end when it kills them: first tell every
    phone 1001 "going away", which ends them. Chained to the worker's own handler, which is in
    place when a worker imports this module; with ``--preload`` the master imports it, and the
    workers' handlers are gunicorn's alone."""
    previous = signal.getsignal(signal.SIGTERM)
    if not callable(previous) or threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        threading.Thread(target=going_away, name="going-away", daemon=True).start()
        previous(signum, frame)

    signal.signal(signal.SIGTERM, stop)


try:
    settings.read()
    # instance/ may be made; a folder COMPANION_DATABASE_URL names must be there (a typo's is not)
    check_database(default_database_url(), new_folder=settings.value("COMPANION_DATABASE_URL") is None)
    writer_lock = hold(default_database_url())
    if writer_lock is not None:
        writer_lock.take_in_forked_workers()
    app = create_app()
except (SettingInvalid, DatabaseUnusable, SecondWriter, DictionaryMissing) as e:
    print(f"companion: {e}", file=sys.stderr, flush=True)
    raise SystemExit(3) from None
phones_told_on_sigterm()
