"""The league director's rulings on games (issue 43): a game voided, its result corrected, or
the table's own result restored, each with its reason. Rows are only ever added: the latest
ruling on a game is the one that counts, and the others stay as its history.

Revision ID: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_corrections",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=True),
        sa.Column("league_id", sa.String(), sa.ForeignKey("leagues.id"), nullable=False),
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("ruling_json", sa.String(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_league_corrections_league_id", "league_corrections", ["league_id"])


def downgrade() -> None:
    op.drop_table("league_corrections")
