"""The games a table can be created for, built with what they need from outside."""

from __future__ import annotations

from .blanko.words import Lexicon
from .core.game import Game


def build_games(lexicon: Lexicon) -> dict[str, Game]:
    from .blank.rules import Blank
    from .blanko.rules import Blanko
    from .bldng.rules import Bldng
    from .rankfile.rules import RankAndFile

    games: list[Game] = [Blank(), Blanko(lexicon), Bldng(), RankAndFile()]
    return {g.name: g for g in games}
