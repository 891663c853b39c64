"""How often the BLANKO reading of a word's tiles agrees with an independent reference: the
Hungarian hyphenation patterns of Debian's hyphen-hu, read with pyphen (issue 34).

Hungarian hyphenation never splits a digraph and does split at compound boundaries, so for
each letter pair of a word that could be one tile (CS, GY, LY, NY, SZ, TY, ZS) it decides:
a hyphen between the two letters means two tiles (köz-ség), a hyphen just before or after the
pair means one (ko-csi, macs-ka); without a hyphen beside it the reference says nothing. A
word is decided when the reference decides one of its pairs, and agrees when the reading
takes every decided pair the same way. The sample: headwords of the Hungarian dictionary with
such a pair (letters only, lower case, tiles of the set), drawn with a fixed seed, each with
one suffixed form hunspell accepts (a suffix can make a pair: nyolc + szor, köz + ség), and the
word families of issue 34; the forms the referee accepts are measured. Prints the agreement,
how many of the pairs the reference splits the reading splits too, and every disagreement by
kind, to be sorted into categories by hand (docs/blanko.md).

    python bench/blanko_hyphenation.py [--sample 8000] [--seed 34] [--hyphen /usr/share/hyphen/hyph_hu_HU.dic]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

import pyphen

from companion.dictionary.hunspell_lexicon import find, load
from companion.games.blanko.notation import parse
from companion.games.blanko.reading import edges, read
from companion.games.blanko.tiles import DIGRAPHS
from companion.games.blanko.words import judge
from companion.games.core.errors import RuleViolation

HYPHEN = "/usr/share/hyphen/hyph_hu_HU.dic"
SUFFIXES = ("szor", "szer", "ször", "ság", "ség", "szerű", "ként", "ban", "ben", "t", "ot", "et", "at",
            "ok", "ek", "ak", "os", "es", "as", "nyi", "ig", "ról", "ről", "hoz", "hez", "zat", "zet")
ONE_TWO, TWO_ONE = "reading one tile, reference two", "reading two tiles, reference one"
FAMILIES = ("nyolcszáz", "kilencszáz", "ezernyolcszáz", "nyolcszázad", "nyolcszázas", "nyolcszázan",
            "kilencszázezres", "vízsugarak", "vízszűke", "igazságtalankodik", "község", "vízszintes",
            "mézsör", "egészség", "pénzsegély", "malacsült", "kertyard", "macska", "asszony")


def headwords(dic_path: str) -> list[str]:
    with open(dic_path, encoding="utf-8", errors="replace") as f:
        next(f)  # the entry count
        words = {line.split("\t")[0].split("/")[0].strip() for line in f}
    return sorted(w for w in words if w.isalpha() and w.islower())


def pairs(word: str) -> list[int]:
    """Letter positions p where letters p-1 and p could be one tile."""
    return [p for p in range(1, len(word)) if word[p - 1:p + 1].upper() in DIGRAPHS]


def reference(word: str, hyphens: set[int]) -> dict[int, str]:
    """What the hyphenation decides of each pair: "two" or "one"; undecided pairs left out."""
    out = {}
    for p in pairs(word):
        if p in hyphens:
            out[p] = "two"
        elif p - 1 in hyphens or p + 1 in hyphens:
            out[p] = "one"
    return out


def reading_of(tiles: Sequence[str], p: int) -> str:
    return "two" if p in edges(tiles) else "one"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--hyphen", default=HYPHEN)
    args = ap.parse_args()
    dic, _ = find()
    hu = load()
    hyph = pyphen.Pyphen(filename=args.hyphen, left=1, right=1)
    words = headwords(str(dic))
    rng = random.Random(args.seed)
    sample = list(FAMILIES)
    for w in rng.sample(words, min(args.sample * 3, len(words))):
        forms = [w + s for s in rng.sample(SUFFIXES, len(SUFFIXES)) if hu.has_word(w + s)][:1]
        sample += [f for f in (w, *forms) if pairs(f) and f not in sample]
        if len(sample) >= args.sample + len(FAMILIES):
            break
    t0 = time.perf_counter()
    valid = decided = agree = 0
    split = split_read = 0  # pairs the reference splits, and of them the ones the reading splits
    wrong: dict[str, list[str]] = {ONE_TWO: [], TWO_ONE: []}
    for w in sample:
        try:
            parse(w)
        except RuleViolation:  # a letter no tile has (x, w, q, y)
            continue
        if not judge(w.upper(), hu).valid:
            continue
        valid += 1
        ref = reference(w, set(hyph.positions(w)))
        if not ref:
            continue
        decided += 1
        tiles = [t.letter for t in read(w, hu).tiles]
        off = {p: v for p, v in ref.items() if reading_of(tiles, p) != v}
        split += sum(v == "two" for v in ref.values())
        split_read += sum(v == "two" and p not in off for p, v in ref.items())
        if not off:
            agree += 1
            continue
        kind = ONE_TWO if "two" in off.values() else TWO_ONE
        wrong[kind].append(f"{w} ({'.'.join(tiles)} / {hyph.inserted(w)})")
    ms = (time.perf_counter() - t0) * 1000 / len(sample)
    print(f"dictionary: {dic}; reference: {args.hyphen}")
    print(f"{len(sample)} words and forms drawn ({len(FAMILIES)} named), {valid} valid, "
          f"{decided} decided by the reference")
    print(f"agree:    {agree:5} ({100 * agree / decided:5.1f} %)")
    print(f"pairs the reference splits (two tiles): {split}, read as two tiles: {split_read} "
          f"({100 * split_read / max(split, 1):.1f} %)")
    for kind, words in wrong.items():
        print(f"disagree: {len(words):5} ({100 * len(words) / decided:5.1f} %)  {kind}")
        for line in words:
            print(f"    {line}")
    print(f"time per word (check + reading): {ms:.2f} ms")


if __name__ == "__main__":
    main()
