"""How far apart do phones show the hourglass? Simulated phones, the page's real estimator.

Each simulated phone has a clock offset (±5 s, ±60 s), and pings over a network with jittered,
asymmetric delays (a base LAN latency, exponential jitter, and occasional Wi-Fi power-save
spikes on one direction). The samples are fed to ``estimateOffset`` from static/js/clock.js,
run in Node, so the figures are those of the code the phones run. Skew is the difference
between a phone's idea of server time and the server's real time, which is exactly the error
in the remaining time it draws. Prints p50/p95/max per scenario.

    python bench/timer_sync.py [--phones 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENARIOS = {
    "LAN, quiet": dict(base=1.5, jitter=1.0, spike_p=0.0, spike=0.0, asym=1.0),
    "LAN, busy Wi-Fi": dict(base=3.0, jitter=4.0, spike_p=0.08, spike=120.0, asym=1.0),
    "asymmetric (slow uplink)": dict(base=3.0, jitter=3.0, spike_p=0.05, spike=80.0, asym=3.0),
    "hosted server, 4G": dict(base=25.0, jitter=15.0, spike_p=0.1, spike=250.0, asym=1.5),
}
OFFSETS_MS = [5_000, -5_000, 60_000, -60_000]


def one_way(rng: random.Random, p: dict[str, float], factor: float) -> float:
    d = p["base"] * factor + rng.expovariate(1 / max(p["jitter"], 1e-9)) * factor
    if rng.random() < p["spike_p"]:
        d += rng.uniform(0.2, 1.0) * p["spike"]
    return d


def samples_for(rng: random.Random, p: dict[str, float], offset: float, count: int) -> list[dict]:
    """Ping/pong samples as the page records them: t0 and t1 on the phone's clock."""
    out = []
    true_ms = 1_700_000_000_000.0
    for _ in range(count):
        true_ms += rng.uniform(40, 5000)
        up, down = one_way(rng, p, p["asym"]), one_way(rng, p, 1.0)
        t0 = true_ms + offset
        server_ms = round(true_ms + up)  # the server answers in whole ms
        t1 = true_ms + up + down + offset
        out.append({"rtt": t1 - t0, "offset": server_ms - (t0 + t1) / 2})
    return out


def estimate(sets: list[list[dict]]) -> dict:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        sys.exit("bench/timer_sync.py needs Node.js to run static/js/clock.js")
    out = subprocess.run([node, str(HERE / "clock_estimate.mjs")], input=json.dumps(sets),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phones", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"timer sync: {args.phones} phones per scenario and offset, estimator from static/js/clock.js")
    print(f"{'scenario':28} {'after':>12} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, p in SCENARIOS.items():
        for label, count in (("join burst", 8), ("+1 minute", 8 + 12)):
            sets, truth = [], []
            for i in range(args.phones):
                off = OFFSETS_MS[i % len(OFFSETS_MS)] + rng.uniform(-500, 500)
                sets.append(samples_for(rng, p, off, count))
                truth.append(off)
            result = estimate(sets)
            # The phone computes server time as its clock minus (-offset): the error is the sum.
            skew = [abs(est + off) for est, off in zip(result["estimates"], truth, strict=True)]
            print(f"{name:28} {label:>12} {pct(skew, 50):8.2f} {pct(skew, 95):8.2f} {max(skew):8.2f}")
    print("target: within 20 ms of the server on a LAN (one 60 Hz frame is 16.7 ms)")


if __name__ == "__main__":
    main()
