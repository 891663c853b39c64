"""pyhunspell against spylls (pure-Python hunspell) on the same Hungarian word list.

Prints load time, memory added by loading, and p50/p99 time of one lookup, side by side with
the ratio spylls/pyhunspell. Words: every rulebook example plus forms and non-words, repeated.

    python bench/dictionary.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time

from companion.dictionary.hunspell_lexicon import find

WORDS = ("leső zavaros rigó ír ti kisbabát barát kiskabát alma körte mézsör labda szél házban "
         "kutyáknak asztalon gyerekekkel almát budapest pécs asdfg qwert zzzz lányok csúcs "
         "viszontlátásra megszentségteleníthetetlenségeskedéseitekért").split()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(name: str, load, rounds: int) -> dict[str, float]:
    gc.collect()
    before = rss_mb()
    t0 = time.perf_counter()
    check = load()
    load_s = time.perf_counter() - t0
    mem = rss_mb() - before
    times = []
    for _ in range(rounds):
        for w in WORDS:
            t = time.perf_counter()
            check(w)
            times.append(time.perf_counter() - t)
    q = statistics.quantiles(times, n=100, method="inclusive")
    return {"name": name, "load_s": load_s, "mem_mb": mem, "p50_ms": q[49] * 1000, "p99_ms": q[98] * 1000}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    dic, aff = find()

    def load_hunspell():
        import hunspell

        h = hunspell.HunSpell(str(dic), str(aff))
        return h.spell

    def load_spylls():
        from spylls.hunspell import Dictionary

        d = Dictionary.from_files(str(dic.with_suffix("")))
        return d.lookup

    results = [measure("pyhunspell", load_hunspell, args.rounds),
               measure("spylls", load_spylls, max(1, args.rounds // 3))]
    a, b = results
    print(f"dictionary: {dic} ({len(WORDS)} words × rounds)")
    print(f"{'':12} {'load s':>9} {'RSS +MB':>9} {'p50 ms':>9} {'p99 ms':>9}")
    for r in results:
        print(f"{r['name']:12} {r['load_s']:9.3f} {r['mem_mb']:9.1f} {r['p50_ms']:9.3f} {r['p99_ms']:9.3f}")
    print(f"{'ratio':12} {b['load_s'] / a['load_s']:8.1f}× {b['mem_mb'] / max(a['mem_mb'], 0.1):8.1f}× "
          f"{b['p50_ms'] / a['p50_ms']:8.1f}× {b['p99_ms'] / a['p99_ms']:8.1f}×  (spylls / pyhunspell)")


if __name__ == "__main__":
    main()
