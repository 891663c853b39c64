"""Loading and battery: Lighthouse's figures for the three pages, and an idle phone's CPU.

Serves the app (``companion serve``) on a throwaway database on a loopback port, opens a BLANKO
table with a game in progress (two players, a word laid), and runs Lighthouse 12.2.3 (mobile
emulation, its default simulated slow-4G throttling: 150 ms round trips, 1.6 Mbit/s, a 4x
slower CPU) on the start page, a phone in the game (opened by a seat hand-over link, as a fresh
phone would be) and the table's screen, each in a fresh Chromium profile. Each page is measured
from the server itself (HTTP/1.1, as ``make run`` serves a room) on slow 4G and on a room's
Wi-Fi (simulated the same way: 5 ms round trips, 30 Mbit/s, the same slow CPU), and behind the
nginx of docs/deploying.md on slow 4G (TLS and HTTP/2, as a hosted server meets a phone on a
mobile line), run as the tests run it (tests/reverse_proxy.py). Then it leaves a
phone in the game idle and reads Chromium's own counters (Performance.getMetrics): main-thread
time, layouts, style recalculations, frames; and again with the hourglass's sand running (a
10-minute glass started by the host). Prints each beside the goals of issues 28 and 33.

Lighthouse is installed from npm, pinned, into bench/.lighthouse (gitignored) on first use.
Debian's Chromium runs it, with the flags of the browser tests.

    python bench/pageload.py [--runs 3] [--idle 10] [--sand 6] [--source DIR] [--direct-only]
                             [--battery-only]

``--source`` serves another checkout's code (e.g. ``git archive`` of an older commit,
unpacked), to measure before and after with the same script.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from reverse_proxy import Nginx  # noqa: E402  (the tests' harness for the documented nginx)

LIGHTHOUSE = HERE / ".lighthouse"
VERSION = "12.2.3"
CHROME = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--headless=new"]
# A room's Wi-Fi between a phone and the laptop: a few ms there and back, tens of Mbit/s; the
# phone's CPU is still Lighthouse's slow phone (4x).
WIFI = {"rttMs": 5, "throughputKbps": 30 * 1024, "requestLatencyMs": 5, "downloadThroughputKbps": 30 * 1024,
        "uploadThroughputKbps": 10 * 1024}
GOALS = {"score": (">=", 95), "lcp_s": ("<=", 1.5), "cls": ("<=", 0.02)}
IDLE_GOAL_PCT = 1.0
# Running sand (issue 33): the browser moves it, the page writes the digits once a second.
SAND_GOAL_PCT, SAND_GOAL_FRAMES = 5.0, 10


def ensure_lighthouse() -> Path:
    modules = LIGHTHOUSE / "node_modules"
    if not (modules / "lighthouse" / "package.json").exists():
        LIGHTHOUSE.mkdir(exist_ok=True)
        subprocess.run(["npm", "i", "-E", f"lighthouse@{VERSION}", "--no-audit", "--no-fund"],
                       cwd=LIGHTHOUSE, check=True)
    found = json.loads((modules / "lighthouse" / "package.json").read_text())["version"]
    if found != VERSION:
        sys.exit(f"bench/.lighthouse holds lighthouse {found}, not {VERSION}: delete the folder")
    return modules


def call(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {token}"} if token else {})},
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def serve(source: Path, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = random.randint(20000, 60000)
    env = {**os.environ, "PYTHONPATH": str(source), "COMPANION_CREATIONS_PER_MINUTE": "1000",
           "COMPANION_JOINS_PER_MINUTE": "1000", "COMPANION_TRUSTED_PROXY_HOPS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", str(workdir / "bench.db")],
                            cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            call(base, "/healthz")
            return proc, base
        except OSError:
            time.sleep(0.3)
    proc.kill()
    sys.exit("the server did not start")


def game_in_progress(base: str) -> tuple[str, str, str]:
    """A BLANKO table with two players and a word on the board: its code, the host's token
    and the path of a hand-over link to Anna's seat."""
    table = call(base, "/api/tables", {"game": "blanko", "options": {"draw_start": False}})
    code, host = table["code"], table["host_token"]
    anna = call(base, f"/api/tables/{code}/players", {"name": "Anna"})
    call(base, f"/api/tables/{code}/players", {"name": "Béla"})
    call(base, f"/api/tables/{code}/commands", {"type": "table.start_game"}, host)
    call(base, f"/api/tables/{code}/commands", {"type": "blanko.lay", "words": ["ALMA"], "placed": 4},
         anna["token"])
    seat = call(base, f"/api/tables/{code}/players/{anna['player_id']}/handover", {}, host)
    return code, host, seat["url"].removeprefix(base)


def pages(site: str, code: str, host: str, seat: str, label: str) -> list[dict[str, Any]]:
    hosted = {f"tc.host.{code}": json.dumps({"token": host, "join_url": f"{site}/t/{code}",
                                             "game": "blanko"})}
    page = {"origin": site, "storage": None}
    return [{**page, "name": f"start page{label}", "url": site + "/"},
            {**page, "name": f"phone in a game{label}", "url": site + seat},
            {**page, "name": f"table screen{label}", "url": f"{site}/?table={code}", "storage": hosted}]


def verdict(key: str, value: float) -> str:
    op, goal = GOALS[key]
    return "ok" if (value >= goal if op == ">=" else value <= goal) else "MISSED"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page (the median is shown)")
    ap.add_argument("--idle", type=float, default=10, help="seconds the idle phone is watched")
    ap.add_argument("--sand", type=float, default=6, help="seconds the phone is watched with sand running")
    ap.add_argument("--battery-only", action="store_true",
                    help="only the idle and the running-sand phone, no Lighthouse")
    ap.add_argument("--source", type=Path, default=HERE.parent, help="the checkout to serve")
    ap.add_argument("--json", action="store_true", help="print the raw figures too")
    ap.add_argument("--dump", type=Path, help="a folder for Lighthouse's full reports (JSON)")
    ap.add_argument("--direct-only", action="store_true", help="not behind nginx too")
    args = ap.parse_args()
    modules = ensure_lighthouse()
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        proc, base = serve(args.source.resolve(), Path(workdir))
        nginx = None
        try:
            code, host, seat = game_in_progress(base)
            measured = [] if args.battery_only else pages(base, code, host, seat, "")
            measured += [{**p, "name": p["name"] + " (Wi-Fi)", "throttling": WIFI} for p in measured]
            if not (args.direct_only or args.battery_only):
                nginx = Nginx([base.removeprefix("http://")])
                measured += pages(f"https://127.0.0.1:{nginx.port}", code, host, seat, " (nginx)")
            job = {"modules": str(modules), "chrome": CHROME,
                   "flags": [*FLAGS, "--ignore-certificate-errors"],  # the proxy's throwaway certificate
                   "runs": args.runs, "dump": str(args.dump.resolve()) if args.dump else None,
                   "pages": measured, "idle": {"url": base + seat, "seconds": args.idle, "settle_s": 3},
                   "sand": {"url": base + seat, "seconds": args.sand, "settle_s": 2,
                            "start": {"url": f"{base}/api/tables/{code}/commands", "token": host,
                                      "command": {"type": "timer.start", "seconds": 600}}}}
            out = subprocess.run(["node", str(HERE / "pageload.mjs"), json.dumps(job)],
                                 capture_output=True, text=True, env={**os.environ, "CHROME_PATH": CHROME})
        finally:
            if nginx:
                nginx.remove()
            proc.terminate()
            proc.wait(10)
    if out.returncode:
        sys.exit(f"the Lighthouse driver failed:\n{out.stderr}")
    figures = json.loads(out.stdout)
    if args.json:
        print(json.dumps(figures, indent=1))
    if figures["pages"]:
        print(f"Lighthouse {VERSION}, mobile emulation, median of {args.runs} run(s) per page")
        print(f"{'page':<26}{'perf':>6}{'LCP s':>8}{'CLS':>8}{'TBT ms':>8}{'FCP s':>7}{'KiB':>7}")
        print(f"{'goal':<26}{'>=95':>6}{'<=1.5':>8}{'<=0.02':>8}")
    for page in figures["pages"]:
        med = {k: statistics.median(r[k] for r in page["runs"])
               for k in ("score", "lcp_s", "cls", "tbt_ms", "fcp_s", "transfer_kib")}
        missed = [k for k in GOALS if verdict(k, med[k]) != "ok"]
        print(f"{page['name']:<26}{med['score']:>6.0f}{med['lcp_s']:>8.2f}{med['cls']:>8.3f}"
              f"{med['tbt_ms']:>8.0f}{med['fcp_s']:>7.2f}{med['transfer_kib']:>7.0f}"
              f"  {'missed: ' + ', '.join(missed) if missed else 'ok'}")
    idle = figures["idle"]
    print(f"idle phone in a game, {idle['seconds']:.0f} s: main thread {idle['cpu_pct']:.2f} % of a core "
          f"(goal <= {IDLE_GOAL_PCT:g} %, {'ok' if idle['cpu_pct'] <= IDLE_GOAL_PCT else 'MISSED'}), "
          f"{idle['frames']} animation frames, {idle['layouts']:.0f} layouts, "
          f"{idle['style_recalcs']:.0f} style recalcs, script {idle['script_ms']:.0f} ms")
    sand = figures["sand"]
    met = sand["cpu_pct"] <= SAND_GOAL_PCT and sand["frames"] <= SAND_GOAL_FRAMES
    print(f"phone with sand running, {sand['seconds']:.0f} s: main thread {sand['cpu_pct']:.2f} % of a core, "
          f"{sand['frames']} animation frames (goal <= {SAND_GOAL_PCT:g} %, <= {SAND_GOAL_FRAMES} frames, "
          f"{'ok' if met else 'MISSED'}), {sand['layouts']:.0f} layouts, "
          f"{sand['style_recalcs']:.0f} style recalcs, script {sand['script_ms']:.0f} ms")


if __name__ == "__main__":
    main()
