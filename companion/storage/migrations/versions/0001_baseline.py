"""The schema as it was before PostgreSQL came (commit 56e3563^): tables, players, the event log
with a unique (table_code, seq), and BLANK's decks. The *_ms columns were INTEGER then.

Revision ID: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("code", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("host_token_hash", sa.String(), nullable=False),
        sa.Column("created_ms", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("ended_ms", sa.Integer(), nullable=True),
        sa.Column("result_json", sa.String(), nullable=True),
        sa.Column("names_json", sa.String(), nullable=False),
    )
    op.create_index("ix_tables_host_token_hash", "tables", ["host_token_hash"], unique=True)
    op.create_table(
        "decks",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("owner_token_hash", sa.String(), nullable=False),
        sa.Column("updated_ms", sa.Integer(), nullable=False),
        sa.Column("data", sa.String(), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("joined_ms", sa.Integer(), nullable=False),
    )
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)
    op.create_index("ix_players_table_code", "players", ["table_code"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("batch", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("ts_ms", sa.Integer(), nullable=False),
        sa.Column("command_id", sa.String(), nullable=True),
        sa.Column("payload", sa.String(), nullable=False),
        sa.UniqueConstraint("table_code", "seq"),
    )
    op.create_index("ix_events_table_code", "events", ["table_code"])


def downgrade() -> None:
    for name in ("events", "players", "decks", "tables"):
        op.drop_table(name)
