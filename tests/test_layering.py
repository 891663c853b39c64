"""The games are pure: no web framework, database, websocket or clock inside them."""

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "companion" / "games"
FORBIDDEN = {"flask", "flask_sock", "sqlmodel", "sqlalchemy", "simple_websocket", "time",
             "datetime", "hunspell", "os", "socket", "requests"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(GAMES.rglob("*.py")), ids=lambda p: str(p.relative_to(GAMES)))
def test_game_modules_do_no_io(path):
    assert not imported_modules(path) & FORBIDDEN


def test_rules_of_the_table_are_pure_too():
    for name in ("rules.py", "log.py", "views.py"):
        path = GAMES.parent / "table" / name
        assert not imported_modules(path) & FORBIDDEN, name


@pytest.mark.parametrize("path", sorted((GAMES.parent / "league").rglob("*.py")), ids=lambda p: p.name)
def test_the_league_core_is_pure_too(path):
    assert not imported_modules(path) & FORBIDDEN
