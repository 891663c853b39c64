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
    # untouched and a resend is answered with the first one's seq. The copies are found by a
    # join with the ids stored more than once: PostgreSQL plans that IN as a semi-join whatever
    # its work_mem, where the former "id NOT IN (SELECT MIN(id) ...)" became a subplan run once
    # per row whenever its hash table did not fit (the default 4 MB: still running after 150 s
    # on 300,000 events; this: 0.3 to 0.5 s at any work_mem). SQLite reads the subquery once
    # either way (0.5 s). A correlated "an earlier copy EXISTS" was as quick on PostgreSQL, but
    # SQLite ran it row by row over each table's events, quadratic in a table's length (5.2 s).
    op.execute("""UPDATE events SET command_id = NULL WHERE id IN (
                      SELECT later.id FROM events AS later JOIN (
                          SELECT table_code, actor, command_id, MIN(id) AS first_id FROM events
                          WHERE command_id IS NOT NULL GROUP BY table_code, actor, command_id
                          HAVING COUNT(*) > 1) AS repeated
                      ON later.table_code = repeated.table_code AND later.actor = repeated.actor
                         AND later.command_id = repeated.command_id AND later.id > repeated.first_id)""")
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
