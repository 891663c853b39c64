"""``companion db backup``: a copy of the SQLite log taken while the server writes to it holds
every committed command, and is a database the server can run on."""

import sqlite3
from contextlib import closing

from companion import create_app
from companion.commands.cli import main
from companion.storage.backup import backup


def events(path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT count(*) FROM events").fetchone()[0]


def test_a_backup_while_serving_holds_every_commit_and_serves(tmp_path, tables, clock, capsys):
    code, host, tokens, _ = tables.seated("rankfile", ["Anna", "Bela"])
    source = tables.client.application.config["DATABASE_URL"]
    copy = tmp_path / "backup.db"
    assert main(["db", "backup", str(copy), "--db", source.removeprefix("sqlite:///")]) == 0
    assert events(copy) == tables.state(code, host)["seq"] > 0
    assert copy.stat().st_mode & 0o777 == 0o600  # as private as the database it copies
    restored = create_app({"DATABASE_URL": f"sqlite:///{copy}", "CLOCK": clock, "TESTING": True})
    r = restored.test_client().get(f"/api/tables/{code}/state",
                                   headers={"Authorization": f"Bearer {tokens['Anna']}"})
    assert r.status_code == 200 and r.get_json()["seq"] == events(copy)
    restored.extensions["companion"].store.engine.dispose()


def test_a_backup_never_overwrites_and_says_why(tmp_path, tables, capsys):
    taken = tmp_path / "taken.db"
    taken.write_text("mine")
    source = tables.client.application.config["DATABASE_URL"].removeprefix("sqlite:///")
    assert main(["db", "backup", str(taken), "--db", source]) == 1
    assert "exists already" in capsys.readouterr().err and taken.read_text() == "mine"
    assert main(["db", "backup", str(tmp_path / "x.db"), "--db", str(tmp_path / "none.db")]) == 1
    assert "there is no database" in capsys.readouterr().err


def test_postgresql_is_pointed_to_pg_dump(tmp_path):
    try:
        backup("postgresql+psycopg://u@h/db", str(tmp_path / "x.db"))
    except RuntimeError as e:
        assert "pg_dump" in str(e)
    else:
        raise AssertionError("a PostgreSQL URL was backed up")
