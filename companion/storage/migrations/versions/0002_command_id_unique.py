"""PostgreSQL (commit 56e3563): a resent command is de-duplicated by the database itself, with a
unique (table_code, actor, command_id), whichever process it reaches; epoch milliseconds and row
ids become BIGINT (PostgreSQL's INTEGER overflowed; SQLite does not care, so it is left alone).

Revision ID: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

UNIQUE_CID = "events_table_code_actor_command_id_key"  # the name PostgreSQL gave it unasked
NAMING = {"uq": "uq_%(table_name)s_%(column_0_N_name)s"}
UNNAMED_CID = "uq_events_table_code_actor_command_id"  # what NAMING calls it where it has no name
MILLIS = {"tables": ("created_ms", "ended_ms"), "players": ("joined_ms",), "decks": ("updated_ms",),
          "events": ("ts_ms",)}


def upgrade() -> None:
    # A log written without the constraint could hold one command id twice (a resend that raced
    # its first try): the later copy keeps its event, only its id is cleared, so the log is
    # untouched and a resend is answered with the first one's seq.
    op.execute("""UPDATE events SET command_id = NULL WHERE command_id IS NOT NULL AND id NOT IN (
                      SELECT MIN(id) FROM events WHERE command_id IS NOT NULL
                      GROUP BY table_code, actor, command_id)""")
    with op.batch_alter_table("events") as batch:
        batch.create_unique_constraint(UNIQUE_CID, ["table_code", "actor", "command_id"])
    if op.get_context().dialect.name != "postgresql":
        return
    for table, columns in MILLIS.items():
        for column in columns:
            op.alter_column(table, column, type_=sa.BigInteger(), existing_type=sa.Integer())
    op.alter_column("events", "id", type_=sa.BigInteger(), existing_type=sa.Integer())


def downgrade() -> None:
    # A database made from the models, not by this migration, has the constraint without a
    # name on SQLite: reflected for the batch, it is named by this convention, and so dropped.
    columns = ["table_code", "actor", "command_id"]
    named = [u["name"] for u in sa.inspect(op.get_bind()).get_unique_constraints("events")
             if u["column_names"] == columns]
    with op.batch_alter_table("events", naming_convention=NAMING) as batch:
        batch.drop_constraint(named[0] or UNNAMED_CID, type_="unique")
