"""Seat hand-over (commit 984b552): the tokens whose seat the host gave to another phone, so
their old phone is told so rather than that its token is unknown.

Revision ID: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "handed_over",
        sa.Column("token_hash", sa.String(), primary_key=True),
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), nullable=False),
    )
    op.create_index("ix_handed_over_table_code", "handed_over", ["table_code"])


def downgrade() -> None:
    op.drop_table("handed_over")
