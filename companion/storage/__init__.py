"""The event log's storage: the database's tables and the writes to them (``store``), what a
failed write says about the database (``health``), the schema and its Alembic ``migrations``,
a consistent copy while the server runs (``backup``), one server process per SQLite file
(``single_writer``), and a throwaway PostgreSQL cluster for the tests and benchmarks
(``pgcluster``). It knows nothing of HTTP or websockets."""
