"""Where the files the server serves live: the PWA (``static/``) and the project's hunspell
dictionaries (``dictionaries/``). In a checkout (and an editable install) they are folders at
the top of it; an installed wheel or sdist carries them inside the package (setup.py maps them
there). Everything that needs one of them asks here."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    installed = PACKAGE / name
    return installed if installed.is_dir() else PACKAGE.parent / name


def static_root() -> Path:
    """The folder of the PWA: app.html, js/, css/, i18n/, icons/ (served under /static/)."""
    return _folder("static")


def dictionaries_dir() -> Path:
    """The project's own hunspell files, searched before the system's."""
    return _folder("dictionaries")
