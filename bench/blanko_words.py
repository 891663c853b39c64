"""False accepts and false rejects of BLANKO's word check on a held-out list.

The list (bench/blanko_words_heldout.tsv) holds words a Hungarian speaker labelled by the
standard, none of them in issue #42's lists or in the reviewed corrections, so the figures say
how the dictionary's rules and data generalise rather than how well they learnt their own
examples. Three checks side by side:

- ``hunspell``: hunspell's spell() of the lower-case word, as a plain spell checker would;
- ``rules``: the game's check (words.judge) on the lexicon without the reviewed corrections:
  the policy and the rules read from hunspell's analysis (abbreviations, names, bare-stem
  accusatives);
- ``game``: the game's check as the server runs it, with dictionaries/hu_HU.corrections.tsv.

A false accept is a word labelled ``refuse`` that the check lets stand; a false reject a word
labelled ``accept`` that it refuses. Each miss of the game's check is listed.

    python bench/blanko_words.py [--list FILE]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from companion.dictionary import corrections
from companion.dictionary.hunspell_lexicon import HunspellLexicon, find
from companion.games.blanko.words import judge

HELD_OUT = Path(__file__).with_name("blanko_words_heldout.tsv")


def labelled(file: Path) -> list[tuple[str, bool, str]]:
    """(word, should stand, kind) for each line after the header, # lines left out."""
    rows = [line.split("\t") for line in file.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    return [(word, expected == "accept", kind) for word, expected, kind, _ in rows[1:]]


def misses(words: list[tuple[str, bool, str]], stands: Callable[[str], bool]
           ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The false accepts and the false rejects of ``stands``, each as (word, kind)."""
    accepts = [(w, k) for w, ok, k in words if not ok and stands(w)]
    rejects = [(w, k) for w, ok, k in words if ok and not stands(w)]
    return accepts, rejects


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", type=Path, default=HELD_OUT)
    args = ap.parse_args()
    dic, aff = find()
    plain = HunspellLexicon(dic, aff)
    game = HunspellLexicon(dic, aff, corrections.load())
    checks = {"hunspell": lambda w: plain.has_word(w),
              "rules": lambda w: judge(w.upper(), plain).valid,
              "game": lambda w: judge(w.upper(), game).valid}
    words = labelled(args.list)
    refuse, accept = sum(not ok for _, ok, _ in words), sum(ok for _, ok, _ in words)
    print(f"dictionary: {dic}; held-out list: {args.list.name}, {refuse} to refuse, {accept} to accept")
    print(f"{'check':10} {'false accepts':>16} {'false rejects':>16}")
    found = {}
    for name, stands in checks.items():
        fa, fr = found[name] = misses(words, stands)
        print(f"{name:10} {len(fa):5} = {len(fa) / refuse:6.1%} {len(fr):5} = {len(fr) / accept:6.1%}")
    fa, fr = found["game"]
    print("game's false accepts:", ", ".join(f"{w} ({k})" for w, k in fa) or "none")
    print("game's false rejects:", ", ".join(f"{w} ({k})" for w, k in fr) or "none")


if __name__ == "__main__":
    main()
