"""What an operator meets at the command line and in the journal: --version, --help with every
environment variable, a sentence (never a traceback) for a port it cannot have or a database
another process serves, log lines with time, level and logger (or JSON lines), the QR code
only on a terminal, and a stop on SIGTERM or Ctrl-C that tells every phone 1001 and exits 0."""

from __future__ import annotations

import json
import logging
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import PYTHON_M_COMPANION, ServerProcess, start_serve
from simple_websocket import ConnectionClosed

from companion import __version__

COMPANION = Path(__file__).resolve().parents[1] / "companion"


def without_settings() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}


def run(*args: str, cwd: Path | None = None, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PYTHON_M_COMPANION, *args], capture_output=True, text=True, timeout=60,
                          env={**without_settings(), **settings}, cwd=cwd)


def one_sentence(text: str) -> str:
    assert "Traceback" not in text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"companion {__version__}"


def test_help_lists_every_environment_variable_the_code_reads():
    read = set()
    for path in COMPANION.rglob("*.py"):
        read |= set(re.findall(r"\bCOMPANION_[A-Z_]+[A-Z]\b", path.read_text("utf-8")))
    assert "COMPANION_DATABASE_URL" in read
    for args in (["--help"], ["serve", "--help"]):
        shown = run(*args).stdout
        assert sorted(v for v in read if v not in shown) == [], args


@pytest.mark.parametrize("port", ["99999", "70000", "-1", "http"])
def test_a_port_out_of_range_is_one_sentence(tmp_path, port):
    r = run("serve", "--port", port, cwd=tmp_path)
    assert r.returncode == 1  # as deploying.md says: argparse's usage and 2 are for a bad option
    assert one_sentence(r.stderr) == f"companion: {port} is not a port number (0 to 65535)"
    assert list(tmp_path.iterdir()) == []


def test_help_names_stand_apart_from_their_text_and_every_option_says_what_it_is():
    shown = run("serve", "--help").stdout
    assert re.search(r"COMPANION_DECK_WRITES_PER_MINUTE +rules", shown), shown
    for option in ("--host", "--port", "--db", "--create"):
        assert re.search(rf"^  {option}(?: [A-Z]+)? {{2,}}\S", shown, re.MULTILINE), (option, shown)


def test_a_log_level_from_the_environment_is_checked_too():
    r = run("serve", COMPANION_LOG_LEVEL="verbose")
    assert r.returncode == 2
    assert "'verbose' is not one of debug, info, warning, error" in one_sentence(r.stderr.splitlines()[-1])


BAD_SETTINGS = [
    ("COMPANION_REQUEST_TIMEOUT_S", "0"),  # started, said it ran, and answered every request with nothing
    ("COMPANION_REQUEST_TIMEOUT_S", "-1"),
    ("COMPANION_REQUEST_TIMEOUT_S", "ten"),
    ("COMPANION_REQUEST_TIMEOUT_S", "nan"),
    ("COMPANION_WS_PING_INTERVAL_S", "0"),
    ("COMPANION_WS_PING_TIMEOUT_S", "inf"),
    ("COMPANION_WS_PER_ADDRESS", "2.5"),
    ("COMPANION_JOINS_PER_MINUTE", "-5"),
    ("COMPANION_CREATIONS_PER_MINUTE", "many"),
    ("COMPANION_DECK_WRITES_PER_MINUTE", "0"),
    ("COMPANION_TRUSTED_PROXY_HOPS", "-1"),
    ("COMPANION_PUBLIC_URL", "games"),  # put games/t/CODE into every QR code
    ("COMPANION_PUBLIC_URL", "ftp://games.example.org"),
    ("COMPANION_PUBLIC_URL", "https://games.example.org/tables"),  # the pages are served from /
    ("COMPANION_PUBLIC_URL", "https://games.example.org:99999"),
    ("COMPANION_ALLOWED_HOSTS", "http://x.org/path"),
    ("COMPANION_ALLOWED_HOSTS", ",,"),
    ("COMPANION_ALLOWED_HOSTS", "a.example.org,,b.example.org"),
    ("COMPANION_ALLOWED_ORIGINS", "games.example.org"),  # an Origin has a scheme, never a path
    ("COMPANION_ALLOWED_ORIGINS", "https://games.example.org/"),
    ("COMPANION_DATABASE_URL", "nope://x"),
    ("COMPANION_DATABASE_URL", "not a url"),
]


@pytest.mark.parametrize("name, value", BAD_SETTINGS, ids=[f"{n[10:]}={v}" for n, v in BAD_SETTINGS])
def test_a_setting_out_of_its_range_is_one_sentence_before_anything_is_made(tmp_path, name, value):
    r = run("serve", "--host", "127.0.0.1", "--port", "0", cwd=tmp_path, **{name: value})
    assert r.returncode == 1, r.stderr
    sentence = one_sentence(r.stderr)
    assert sentence.startswith(f"companion: {name}") and "Table Companion is running" not in r.stdout
    assert list(tmp_path.iterdir()) == []  # no instance/, no database, no lock: refused first


def test_a_database_password_stays_out_of_the_sentence(tmp_path):
    r = run("serve", "--port", "0", cwd=tmp_path, COMPANION_DATABASE_URL="nope://user:s3cret@host/db")
    assert r.returncode == 1 and "s3cret" not in one_sentence(r.stderr)


def test_settings_in_their_ranges_are_read_as_numbers_and_lists():
    from companion.settings import read

    got = read({"COMPANION_REQUEST_TIMEOUT_S": "0.5", "COMPANION_WS_PER_ADDRESS": " 8 ",
                "COMPANION_ALLOWED_HOSTS": "a.example.org, *.b.example.org",
                "COMPANION_PUBLIC_URL": "https://games.example.org/", "COMPANION_JOINS_PER_MINUTE": ""})
    assert got["REQUEST_TIMEOUT_S"] == 0.5 and got["WS_PER_ADDRESS"] == 8
    assert got["ALLOWED_HOSTS"] == ["a.example.org", "*.b.example.org"]
    assert got["PUBLIC_URL"] == "https://games.example.org/"
    assert got["JOINS_PER_MINUTE"] == 30  # set but empty: the default
    assert read({})["ALLOWED_ORIGINS"] == [] and read({})["DATABASE_URL"] is None


@pytest.mark.parametrize("db", ["c.db", "new/folder/c.db"])
def test_a_port_in_use_is_one_sentence_and_leaves_nothing_behind(tmp_path, db):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        r = run("serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / db),
                "--create", cwd=tmp_path)
    assert r.returncode == 1
    assert f"cannot listen on 127.0.0.1 port {port}" in one_sentence(r.stderr)
    assert list(tmp_path.iterdir()) == []  # it left an empty c.db and its c.db.lock


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["db", "upgrade"]],
                         ids=["serve", "db-upgrade"])
@pytest.mark.parametrize("named_by", ["--db", "COMPANION_DATABASE_URL"])
def test_a_database_in_a_missing_folder_is_refused_unless_asked_to_create_it(tmp_path, command, named_by):
    """A typo in the folder started an empty evening in a new folder; the default instance/
    is still made."""
    db = tmp_path / "typo" / "c.db"
    given = (["--db", str(db)], {}) if named_by == "--db" else ([], {named_by: f"sqlite:///{db}"})
    r = run(*command, *given[0], cwd=tmp_path, **given[1])
    assert r.returncode == 1
    assert one_sentence(r.stderr) == (f"companion: there is no folder {db.parent}: create it (mkdir -p), "
                                      "name a file in a folder that exists, or start with --create to "
                                      "have it made")
    assert list(tmp_path.iterdir()) == []
    if command[0] == "db":
        r = run(*command, *given[0], "--create", cwd=tmp_path, **given[1])
        assert r.returncode == 0 and db.exists(), r.stderr


def test_a_database_it_cannot_reach_is_one_sentence(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]  # taken, then let go: nothing listens there
    url = f"postgresql+psycopg://companion:s3cret@127.0.0.1:{port}/companion"
    for command in (["serve", "--port", "0"], ["db", "upgrade"]):
        r = run(*command, cwd=tmp_path, COMPANION_DATABASE_URL=url)
        assert r.returncode == 1, r.stderr
        sentence = one_sentence(r.stderr)
        assert sentence.startswith(f"companion: cannot reach the database postgresql+psycopg://companion:***@"
                                   f"127.0.0.1:{port}/companion: ") and "s3cret" not in sentence
        assert list(tmp_path.iterdir()) == []


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path):
    db = tmp_path / "companion.db"
    first = ServerProcess(f"sqlite:///{db}")
    try:
        r = run("serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db))
        assert r.returncode == 1
        sentence = one_sentence(r.stderr)
        assert f"{db} is already served by another process (pid {first.proc.pid})" in sentence
        assert "PostgreSQL" in sentence
        assert first.call("/healthz") == {"ok": True}  # the first goes on
    finally:
        first.kill()
    second = ServerProcess(f"sqlite:///{db}")  # a kill -9 lets go of the file with the process
    second.kill()


def test_one_sqlite_file_under_another_name_is_still_refused(tmp_path):
    """The lock is the file's (its device and inode), not its name's: a hard link, or a
    ``file:`` URI, names the same file."""
    db = tmp_path / "companion.db"
    first = ServerProcess(f"sqlite:///{db}")
    (tmp_path / "elsewhere").mkdir()
    os.link(db, tmp_path / "elsewhere" / "same.db")
    try:
        for settings in ({"COMPANION_DATABASE_URL": f"sqlite:///{tmp_path}/elsewhere/same.db"},
                         {"COMPANION_DATABASE_URL": f"sqlite:///file:{db}?uri=true"}):
            r = run("serve", "--host", "127.0.0.1", "--port", "0", **settings)
            assert r.returncode == 1, (settings, r.stderr)
            assert "is already served by another process" in one_sentence(r.stderr)
        assert first.call("/healthz") == {"ok": True}
    finally:
        first.kill()


GUNICORN = (str(Path(sys.executable).with_name("gunicorn")), "-b", "127.0.0.1:0", "--threads", "8")


@pytest.fixture
def root_logging():
    """``serve`` run in this process points the root logger at this test's captured stderr: put
    it back, or every later test's server threads log into a closed stream."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.parametrize("preload", [False, True], ids=["imported-by-each", "preloaded"])
def test_gunicorn_with_two_workers_on_one_sqlite_file_refuses_to_run(tmp_path, preload):
    r = subprocess.run([*GUNICORN, "-w", "2", *(["--preload"] if preload else []), "companion.wsgi:app"],
                       cwd=tmp_path, env=without_settings(), capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    said = [line for line in r.stderr.splitlines() if line.startswith("companion: ")]
    assert len(said) == 1 and "SQLite serves one process" in said[0], r.stderr[-3000:]
    assert "PostgreSQL" in said[0]


@pytest.mark.parametrize("setting, sentence", [
    ({"COMPANION_ALLOWED_HOSTS": "table example"}, "COMPANION_ALLOWED_HOSTS"),
    ({"COMPANION_DATABASE_URL": "sqlite:////proc/version"}, "not a SQLite database"),
    ({"COMPANION_REQUEST_TIMEOUT_S": "0"}, "COMPANION_REQUEST_TIMEOUT_S"),
], ids=["host-list", "database", "number"])
def test_gunicorn_with_a_setting_it_cannot_use_says_one_sentence(tmp_path, setting, sentence):
    """What ``companion serve`` refuses in a sentence is refused so under gunicorn too, where it
    was a traceback in every worker's boot."""
    r = subprocess.run([*GUNICORN, "-w", "1", "companion.wsgi:app"], cwd=tmp_path,
                       env={**without_settings(), **setting}, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    said = [line for line in r.stderr.splitlines() if line.startswith("companion: ")]
    assert len(said) == 1 and sentence in said[0], r.stderr[-3000:]
    assert "Traceback" not in r.stderr, r.stderr[-3000:]


def test_gunicorn_tells_phones_going_away_on_sigterm(tmp_path):
    log = tmp_path / "gunicorn.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([*GUNICORN, "-w", "1", "companion.wsgi:app"], cwd=tmp_path,
                                env=without_settings(), stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"Listening at: (http://\S+)", log.read_text())):
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.1)
        server = ServerProcess(started=(proc, found.group(1)))
        t = server.call("/api/tables", {"game": "rankfile"})
        phone = server.ws(t["code"], t["host_token"])
        phone.until("ready")
        started = time.monotonic()
        assert stop(proc) == 0
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                phone.recv(timeout=10)
        assert (closed.value.reason, closed.value.message) == (1001, "going away")
        assert time.monotonic() - started < 10  # not gunicorn's 30 s of graceful timeout
    finally:
        proc.kill()
        proc.wait(10)


TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"


def log_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if re.match(TIME + " ", line)]


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGTERM) -> int:
    proc.send_signal(sig)
    return proc.wait(30)


def healthz(url: str) -> None:
    """The whole answer read: the access log's line is written as the head goes out, so a stop
    sent once the head alone is in could come before it (1 in a full run)."""
    with urllib.request.urlopen(url + "/healthz", timeout=10) as r:
        assert r.status == 200 and r.read()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_log_lines_have_time_level_and_logger_and_no_qr_code_off_a_terminal(tmp_path, fmt):
    out = tmp_path / "server.out"
    proc, url = start_serve({**os.environ}, "--db", str(tmp_path / "c.db"), "--log-format", fmt,
                            output=out)
    healthz(url)
    assert stop(proc) == 0
    printed = out.read_text()
    assert "█" not in printed  # stdout is a file here, as under systemd
    if fmt == "text":
        lines = [line.split(" ", 3) for line in log_lines(printed)]
    else:
        records = [json.loads(line) for line in printed.splitlines() if line.startswith("{")]
        assert all(re.fullmatch(TIME, r["time"]) for r in records)
        lines = [[r["time"], r["level"], r["logger"] + ":", r["message"]] for r in records]
    assert any(level == "INFO" and name == "companion.commands.cli:" and text.startswith("serving sqlite:///")
               for _, level, name, text in lines), printed
    assert any(level == "INFO" and name == "companion.http:" and '"GET /healthz HTTP/1.1" 200' in text
               for _, level, name, text in lines), printed
    assert not any(name.startswith("alembic") for _, _, name, _ in lines), printed  # routine: debug


def test_log_level_warning_keeps_the_routine_out(tmp_path):
    out = tmp_path / "server.out"
    proc, url = start_serve({**os.environ}, "--db", str(tmp_path / "c.db"), "--log-level", "warning",
                            output=out)
    healthz(url)
    assert stop(proc) == 0
    assert [line for line in log_lines(out.read_text()) if " INFO " in line] == []


def test_the_qr_code_is_printed_on_a_terminal(tmp_path):
    main, terminal = pty.openpty()
    proc = subprocess.Popen([*PYTHON_M_COMPANION, "serve", "--host", "127.0.0.1", "--port", "0",
                             "--db", str(tmp_path / "c.db")], stdout=terminal, stderr=subprocess.DEVNULL)
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while "█".encode() not in seen and time.monotonic() < deadline:
            if select.select([main], [], [], 1)[0]:
                seen += os.read(main, 65536)
    finally:
        assert stop(proc) == 0
        os.close(main)
    assert "█".encode() in seen and b"open:" in seen


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_stopping_tells_every_phone_going_away_and_exits_0(tmp_path, sig):
    server = ServerProcess(f"sqlite:///{tmp_path}/c.db")
    try:
        t = server.call("/api/tables", {"game": "rankfile"})
        anna = server.call(f"/api/tables/{t['code']}/players", {"name": "Anna"})
        phones = [server.ws(t["code"], t["host_token"]), server.ws(t["code"], anna["token"])]
        for phone in phones:
            phone.until("ready")
        assert stop(server.proc, sig) == 0
        for phone in phones:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    phone.recv(timeout=10)
            assert (closed.value.reason, closed.value.message) == (1001, "going away")
    finally:
        server.kill()


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["db", "upgrade"]],
                         ids=["serve", "db-upgrade"])
@pytest.mark.parametrize("db,says", [
    ("folder", "is a folder: name the database file"),
    ("not-sqlite.db", "is not a SQLite database"),
    ("not-sqlite.db/c.db", "not-sqlite.db is a file, not a folder: name a database file in a folder"),
])
def test_a_db_that_cannot_be_the_database_is_one_sentence_saying_what_to_do(tmp_path, capsys, command, db,
                                                                            says, root_logging):
    from companion.commands.cli import main

    (tmp_path / "folder").mkdir()
    (tmp_path / "not-sqlite.db").write_text("minutes of the last club evening\n")
    assert main([*command, "--db", str(tmp_path / db)]) == 1
    err = capsys.readouterr().err
    assert says in one_sentence(err) and err.startswith("companion: "), err
    assert (tmp_path / "not-sqlite.db").read_text() == "minutes of the last club evening\n"  # untouched


def test_a_backup_into_a_missing_folder_is_one_sentence_saying_what_to_do(tmp_path, capsys):
    from companion.commands.cli import main

    assert main(["db", "upgrade", "--db", str(tmp_path / "c.db")]) == 0
    capsys.readouterr()
    assert main(["db", "backup", str(tmp_path / "nowhere" / "copy.db"), "--db", str(tmp_path / "c.db")]) == 1
    err = one_sentence(capsys.readouterr().err)
    assert f"there is no folder {tmp_path / 'nowhere'}: create it" in err


def test_log_level_debug_tells_each_websocket_and_how_it_ended(tmp_path):
    out = tmp_path / "server.out"
    proc, url = start_serve({**os.environ}, "--db", str(tmp_path / "c.db"), "--log-level", "debug",
                            output=out)
    server = ServerProcess(started=(proc, url))
    t = server.call("/api/tables", {"game": "rankfile", "options": {}})
    ws = server.ws(t["code"], t["host_token"])
    ws.until("ready")
    ws.close()
    refused = server.ws(t["code"], "not-a-token")
    refused.until("error")
    time.sleep(0.5)  # the server's side of each end is logged once it is over
    assert stop(proc) == 0
    debug = [line for line in log_lines(out.read_text()) if " DEBUG companion." in line]
    assert any(f"table {t['code']}: host's socket opened" in line for line in debug), debug
    assert any(f"table {t['code']}: host's socket ended" in line for line in debug), debug
    assert any(f"table {t['code']}: socket refused (auth/bad_token, 4401)" in line for line in debug), debug
    assert t["host_token"] not in out.read_text()
    assert any(" DEBUG alembic.runtime.migration: Running stamp_revision" in line  # a new database
               for line in log_lines(out.read_text()))
