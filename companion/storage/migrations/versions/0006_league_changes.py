"""A league's roster as its organiser keeps it (issue 43): renames, merges, withdrawals and
returns, in the order made. Who a seat is is still read from the tables' logs, by name.

Revision ID: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_changes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=True),
        sa.Column("league_id", sa.String(), sa.ForeignKey("leagues.id"), nullable=False),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
        sa.Column("change_json", sa.String(), nullable=False),
    )
    op.create_index("ix_league_changes_league_id", "league_changes", ["league_id"])


def downgrade() -> None:
    op.drop_table("league_changes")
