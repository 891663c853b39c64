"""Leagues (issue 36): a league, the tables that count for it and the rounds its organiser
made. Standings are read from the tables' logs, so nothing else is stored.

Revision ID: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("games_json", sa.String(), nullable=False),
    )
    op.create_index("ix_leagues_token_hash", "leagues", ["token_hash"], unique=True)
    op.create_table(
        "league_tables",
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), primary_key=True),
        sa.Column("league_id", sa.String(), sa.ForeignKey("leagues.id"), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=True),
    )
    op.create_index("ix_league_tables_league_id", "league_tables", ["league_id"])
    op.create_table(
        "league_rounds",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=True),
        sa.Column("league_id", sa.String(), sa.ForeignKey("leagues.id"), nullable=False),
        sa.Column("no", sa.Integer(), nullable=False),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
        sa.Column("pairs_json", sa.String(), nullable=False),
        sa.Column("bye", sa.String(), nullable=True),
        sa.UniqueConstraint("league_id", "no"),
    )
    op.create_index("ix_league_rounds_league_id", "league_rounds", ["league_id"])


def downgrade() -> None:
    op.drop_table("league_rounds")
    op.drop_table("league_tables")
    op.drop_table("leagues")
