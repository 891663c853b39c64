"""A device's request to be a table's screen (issue 44): a row, no longer a process's memory, so
that the asking, the host's answer and the collecting may reach different server processes.

Revision ID: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "screen_requests",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("table_code", sa.String(), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("secret_hash", sa.String(), nullable=False),
        sa.Column("asked_ms", sa.BigInteger(), nullable=False),
        sa.Column("allowed", sa.Boolean(), nullable=True),
        sa.Column("sealed_token", sa.String(), nullable=True),
    )
    op.create_index("ix_screen_requests_table_code", "screen_requests", ["table_code"])
    op.create_index("ix_screen_requests_asked_ms", "screen_requests", ["asked_ms"])


def downgrade() -> None:
    op.drop_table("screen_requests")
