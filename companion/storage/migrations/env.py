"""Alembic's entry point. The server hands it an open connection (storage/schema.py), already inside the
transaction that holds PostgreSQL's schema lock; SQLite's changes run in batch mode (a new table
copied from the old one), since its ALTER TABLE cannot add a constraint."""

from alembic import context
from sqlmodel import SQLModel

import companion.decks.store  # noqa: F401 - their tables make up the metadata
import companion.storage.store  # noqa: F401

context.configure(connection=context.config.attributes["connection"],
                  target_metadata=SQLModel.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
