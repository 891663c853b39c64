"""What a phone hears without asking: the ``hub`` of the sockets watching each table, and the
``fanout`` that tells the other server processes of a PostgreSQL deployment which tables
changed, so that each sends its own phones their views."""
