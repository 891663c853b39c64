"""The schema's history as Alembic migrations (``versions/``), applied on start and by
``companion db upgrade`` (storage/schema.py)."""
