"""Which league player a seat is: by the phone's identity where it has one, else by the exact
name within the league.

Seats are linked in the order the games were played. A seat with an identity the league has
seen is that player, whatever the name; a new identity takes the player of its exact name if
that player had no identity yet, and is a new player otherwise. A seat without an identity
is the player of its exact name. A player is shown by the latest name they played under.
"""

from __future__ import annotations


class Roster:
    """The league's players as linked so far; keys stay on the server (an identity's hash
    is in them) and the API shows names."""

    def __init__(self) -> None:
        self.by_person: dict[str, str] = {}
        self.by_name: dict[str, str] = {}
        self.person_of: dict[str, str | None] = {}
        self.names: dict[str, str] = {}

    def seat(self, person: str | None, name: str) -> str:
        """The league player of a seat, made if new. A seat with neither (its player's history
        was deleted: record/people.py ``forget``) is nobody: a player of its own, unnamed."""
        if person is None and not name:
            key = f"nobody:{len(self.names)}"
            self.names[key] = ""
            return key
        if person is not None and person in self.by_person:
            key = self.by_person[person]
        elif (key := self.by_name.get(name)) is not None and (person is None or self.person_of[key] is None):
            if person is not None:
                self.person_of[key] = person
                self.by_person[person] = key
        else:
            key = f"person:{person}" if person is not None else f"name:{name}"
            self.person_of[key] = person
            if person is not None:
                self.by_person[person] = key
        self.by_name.setdefault(name, key)
        self.names[key] = name
        return key

    def clashes(self, person: str | None, name: str) -> bool:
        """Whether a phone with this identity would take a name another player's phone holds."""
        key = self.by_name.get(name)
        if key is None or person is None:
            return False
        owner = self.person_of[key]
        return owner is not None and owner != person and self.by_person.get(person) != key

    def key_of(self, name: str) -> str:
        """The player a name stands for on the organiser's list (a newcomer: by name)."""
        return self.by_name.get(name, f"name:{name}")
