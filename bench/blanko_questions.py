"""How often the phone asks "one tile or two?" for a typed BLANKO word, before and after the
dictionary reads the tiles (issue 27, item 6).

Before: the phone asked for every CS, SZ or ZS typed without a dot. Now it asks only where
more than one reading of the word is a word. The sample: headwords of the Hungarian dictionary
(letters only, lower case, tiles of the set) that the referee accepts, drawn with a fixed seed.
Also prints how many of them the dictionary reads differently from the greedy notation (the
words whose points the old reading got wrong), with examples.

    python bench/blanko_questions.py [--sample 5000] [--seed 27]
"""

from __future__ import annotations

import argparse
import random
import time

from companion.dictionary.hunspell_lexicon import find, load
from companion.games.blanko.notation import parse
from companion.games.blanko.reading import read
from companion.games.blanko.words import judge
from companion.games.core.errors import RuleViolation

ASKED_BEFORE = {"CS", "SZ", "ZS"}


def headwords(dic_path: str) -> list[str]:
    with open(dic_path, encoding="utf-8", errors="replace") as f:
        next(f)  # the entry count
        words = {line.split("\t")[0].split("/")[0].strip() for line in f}
    return sorted(w for w in words if w.isalpha() and w.islower())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args()
    dic, _ = find()
    hu = load()
    words = headwords(str(dic))
    sample = random.Random(args.seed).sample(words, min(args.sample, len(words)))
    t0 = time.perf_counter()
    valid = before = now = misread = 0
    asked, changed = [], []
    for w in sample:
        try:
            greedy = [t.letter for t in parse(w)]
        except RuleViolation:  # a letter no tile has (x, w, q, y)
            continue
        if not judge(w.upper(), hu).valid:
            continue
        valid += 1
        reading = read(w, hu)
        before += any(t in ASKED_BEFORE for t in greedy)
        if len(reading.readings) > 1:
            now += 1
            asked.append(w)
        if [t.letter for t in reading.tiles] != greedy:
            misread += 1
            changed.append(w)
    ms = (time.perf_counter() - t0) * 1000 / len(sample)
    print(f"dictionary: {dic}; {len(sample)} headwords drawn, {valid} valid words")
    print(f"phone asks before: {before:6} ({100 * before / valid:5.1f} %)")
    print(f"phone asks now:    {now:6} ({100 * now / valid:5.1f} %)  e.g. {', '.join(asked[:8])}")
    print(f"read apart by the dictionary: {misread} ({100 * misread / valid:.1f} %)  "
          f"e.g. {', '.join(changed[:8])}")
    print(f"time per word (check + reading): {ms:.2f} ms")


if __name__ == "__main__":
    main()
