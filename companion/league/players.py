"""Which league player a name is. In a club the name is the person, and the director keeps the
roster.

Names that a player could take for one another (``table.names.skeleton``: the same letters in
another case or width, look-alike letters of another script, characters that show nothing)
are one player. A phone's identity never decides who a seat is: a phone lent to a friend
would make two people one, and a player on a new phone would be someone else. The director's
changes, in the order they were made, join names into one player (a rename, a merge), choose
the name shown and withdraw a player from the pairings or bring them back.

A player's key is ``name:`` and the name they are shown by, so any name of theirs (a key kept
in an earlier round, a name ticked present) finds them again through its skeleton.
"""

from __future__ import annotations

from ..table.names import skeleton

NAME = "name:"


class Roster:
    """The names seen, oldest first, as players: each skeleton a node, each player the set of
    skeletons the director's renames and merges joined, shown by its first name seen or the
    one the director gave it."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}  # skeleton -> a skeleton of the same player
        self._shown: dict[str, str] = {}  # a player's root skeleton -> the name shown
        self._withdrawn: set[str] = set()  # root skeletons
        self._persons: dict[str, str] = {}  # phone -> skeleton it first sat under (old rounds' keys)
        self._nobody = 0
        self._skeletons: dict[str, str] = {}  # a league reads the same few names at every seat

    def _skeleton(self, name: str) -> str:
        if (s := self._skeletons.get(name)) is None:
            s = self._skeletons[name] = skeleton(name)
        return s

    def see(self, name: str, person: str | None = None) -> None:
        """A name seated or ticked present, oldest first: the first spelling of a player is
        shown until the director gives another."""
        if not name:
            return
        s = self._skeleton(name)
        if s not in self._parent:
            self._parent[s] = s
            self._shown[s] = name
        if person is not None:
            self._persons.setdefault(person, s)

    def _root(self, s: str) -> str:
        while self._parent[s] != s:
            s = self._parent[s]
        return s

    def _found(self, name: str) -> str | None:
        s = self._skeleton(name)
        return self._root(s) if s in self._parent else None

    def knows(self, name: str) -> bool:
        return bool(name) and self._found(name) is not None

    def key_of(self, name: str) -> str:
        """The player a name stands for (a newcomer: by the name itself)."""
        root = self._found(name)
        return NAME + (self._shown[root] if root is not None else name)

    def seat(self, name: str) -> str:
        """The player of a seat. A seat without a name (its player's history was deleted:
        record/people.py ``forget``) is nobody: a player of its own, unnamed."""
        if name:
            return self.key_of(name)
        self._nobody += 1
        return f"nobody:{self._nobody}"

    def resolve(self, key: str) -> str:
        """The player a key kept earlier stands for now: a name, or an older release's phone."""
        if key.startswith(NAME):
            return self.key_of(key.removeprefix(NAME))
        person = key.removeprefix("person:")
        if person in self._persons:
            return NAME + self._shown[self._root(self._persons[person])]
        return key

    def name_of(self, key: str) -> str:
        """The name a player is shown by; '' for nobody (no row of their own)."""
        return key.removeprefix(NAME) if key.startswith(NAME) else ""

    def withdrawn(self, key: str) -> bool:
        root = self._found(self.name_of(key)) if key.startswith(NAME) else None
        return root is not None and root in self._withdrawn

    def rename(self, name: str, new: str) -> None:
        """The player ``name`` is shown as ``new``, which is theirs from now on (their old
        names stay theirs: their games were played under them)."""
        root = self._found(name)
        if root is None:
            return
        s = self._skeleton(new)
        if s not in self._parent:
            self._parent[s] = s
        self._join(self._root(s), root)
        self._shown[root] = new

    def merge(self, name: str, into: str) -> None:
        """The players ``name`` and ``into`` are one, shown and withdrawn as ``into`` is."""
        a, b = self._found(name), self._found(into)
        if a is not None and b is not None:
            self._join(a, b)

    def _join(self, child: str, root: str) -> None:
        if child != root:
            self._parent[child] = root
            self._withdrawn.discard(child)

    def withdraw(self, name: str, out: bool = True) -> None:
        """``name`` is paired no more (``out``), or again."""
        root = self._found(name)
        if root is not None:
            (self._withdrawn.add if out else self._withdrawn.discard)(root)
