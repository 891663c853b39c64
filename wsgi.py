"""The WSGI entry point from a checkout: ``gunicorn wsgi:app`` (an installed package has
``companion.wsgi:app``, which this is)."""

from companion.wsgi import app

__all__ = ["app"]
