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


# The folder shows the architecture: the top of companion/ holds only what is app-wide, and
# each layer imports only the layers below it (docs/architecture.md).
COMPANION = GAMES.parent
APP_WIDE = {"__init__", "__main__", "wsgi", "paths", "errors", "clock", "services", "settings"}
PURE_TABLE = {"rules", "log", "views", "names", "rematch", "collation"}
# area (a package of companion/, or one of its pure table modules) -> areas it must not import
NOT_BELOW = {
    "storage": {"web", "commands", "serving", "services", "lan", "record", "table.service"},
    "realtime": {"storage", "web", "commands", "serving", "services", "lan", "record", "decks",
                 "table.service"},
    "lan": {"*"},
    "loops": {"*"},
    "web": {"commands", "serving"},
    "record": {"web", "commands", "serving", "services"},
    "decks": {"web", "commands", "serving", "services"},
    "league": {"web", "commands", "serving", "services"},
    # a venue keeps its tables as a league does; what is served of it is web/venue_api.py's
    "venue": {"web", "commands", "serving", "services", "league", "realtime"},
    "dictionary": {"web", "commands", "serving", "services", "storage", "realtime", "table"},
}


def companion_imports(path: Path) -> set[str]:
    """The modules of companion a file imports, relative imports resolved, wherever they are
    (a function's late import is an import too)."""
    parts = list(path.relative_to(COMPANION.parent).with_suffix("").parts)
    package = parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found |= {f"{module}.{a.name}" for a in node.names} if node.module is None else {module}
    return {name for name in found if name.split(".")[0] == "companion"}


def area_of(module: str) -> str:
    """"storage" for companion.storage.store, "table.service" for the table's I/O half."""
    parts = module.split(".")[1:]
    if parts[:1] == ["table"] and len(parts) > 1:
        return "table" if parts[1] in PURE_TABLE else f"table.{parts[1]}"
    return parts[0] if parts else "(app)"


def test_the_top_of_companion_holds_only_what_is_app_wide():
    assert {p.stem for p in COMPANION.glob("*.py")} == APP_WIDE


@pytest.mark.parametrize("area", sorted(NOT_BELOW))
def test_each_layer_imports_only_the_layers_below_it(area):
    wrong = set()
    for path in sorted((COMPANION / area).rglob("*.py")):
        for module in companion_imports(path):
            if area_of(module) != area and ("*" in NOT_BELOW[area] or area_of(module) in NOT_BELOW[area]):
                wrong.add(f"{path.relative_to(COMPANION)} imports {module}")
    assert not wrong


def test_the_games_and_the_tables_pure_rules_import_nothing_of_the_app():
    pure = [(p, {"games"}) for p in GAMES.rglob("*.py")]
    pure += [(COMPANION / "table" / f"{name}.py", {"games", "table"}) for name in PURE_TABLE]
    for path, allowed in pure:
        assert {area_of(m) for m in companion_imports(path)} <= allowed, path


LEAGUE_CORE = sorted(p for p in (GAMES.parent / "league").rglob("*.py") if p.name != "store.py")


@pytest.mark.parametrize("path", LEAGUE_CORE, ids=lambda p: p.name)
def test_the_league_core_is_pure_too(path):
    """All of the league but its store, which keeps leagues in the database as decks/store.py
    keeps decks."""
    assert not imported_modules(path) & FORBIDDEN


VENUE_CORE = sorted(p for p in (GAMES.parent / "venue").rglob("*.py") if p.name != "store.py")


@pytest.mark.parametrize("path", VENUE_CORE, ids=lambda p: p.name)
def test_the_venue_core_is_pure_too(path):
    """What an operator types is read without I/O, as a player's name is; only the store keeps
    venues in the database."""
    assert not imported_modules(path) & FORBIDDEN
    assert {area_of(m) for m in companion_imports(path)} <= {"venue", "table", "(app)"} | {"errors"}
