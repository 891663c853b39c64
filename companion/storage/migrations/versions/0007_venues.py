"""Venues (issue 44): a café's physical tables, each with its tent's secret, and which table of
the server was played at which of them. The games themselves stay in the tables' logs.

Revision ID: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "venues",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("wifi_json", sa.String(), nullable=True),
    )
    op.create_index("ix_venues_token_hash", "venues", ["token_hash"], unique=True)
    op.create_table(
        "venue_tables",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("venue_id", sa.String(), sa.ForeignKey("venues.id"), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(), nullable=False),
        sa.Column("label_key", sa.String(), nullable=False),
        sa.Column("tent_secret", sa.String(), nullable=False),
        sa.UniqueConstraint("venue_id", "label_key"),
    )
    op.create_index("ix_venue_tables_venue_id", "venue_tables", ["venue_id"])
    op.create_table(
        "venue_games",
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), primary_key=True),
        sa.Column("venue_table_id", ROW_ID, sa.ForeignKey("venue_tables.id"), nullable=False),
        sa.Column("bound_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_venue_games_venue_table_id", "venue_games", ["venue_table_id"])


def downgrade() -> None:
    op.drop_table("venue_games")
    op.drop_table("venue_tables")
    op.drop_table("venues")
