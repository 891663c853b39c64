"""The WSGI entry point for production servers: ``gunicorn -w 1 --threads 64 wsgi:app``."""

from companion import create_app

app = create_app()
