"""Time's up in a hidden Firefox tab: how late the alarm comes when nobody is looking.

Serves the app (``companion serve``) on a throwaway database, opens a BLANKO phone in Firefox
(Debian's firefox-esr over WebDriver BiDi, as tests/browser/engines.py drives it), hides it
behind a second tab of its window, and has the host run the glass for a few seconds, several
times. The page notes the moment its hourglass turns to time's up (a MutationObserver, which a
hidden page runs as soon as the page changes); the figure is that moment minus the glass's
deadline, both on this machine's clock.

Firefox is the engine issue 33 measured late (1.0–1.1 s, with a 250 ms timer that Firefox
stretches to 1 s in a background tab). Chromium's headless mode has no background tab to hide a
page behind, and WebKitGTK's MiniBrowser is driven one window per phone: docs/timer.md says
what those engines do.

    python bench/hidden_tab.py [--runs 5] [--source DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from browser.engines import PHONE_SIZE, Firefox, wait_for  # noqa: E402  (the tests' Firefox driver)
from pageload import call, game_in_progress, serve  # noqa: E402

# Notes when the glass turns to time's up, and whether the page was hidden then.
RECORDER = """
window.__timeUp = null;
new MutationObserver(() => {
  if (!window.__timeUp && document.querySelector('.hourglass[data-phase="done"]'))
    window.__timeUp = { at: Date.now(), hidden: document.hidden };
}).observe(document.body, { attributes: true, subtree: true, attributeFilter: ["data-phase"] });
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="glasses run while the tab is hidden")
    ap.add_argument("--source", type=Path, default=HERE.parent, help="the checkout to serve")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        proc, base = serve(args.source.resolve(), Path(workdir))
        firefox = Firefox(Path(workdir) / "firefox")
        try:
            late = measure(firefox, base, args.runs)
        finally:
            firefox.close()
            proc.kill()
    print(f"Firefox ESR, hidden tab, time's up after the deadline over {len(late)} glasses: "
          f"median {statistics.median(late):.0f} ms, worst {max(late):.0f} ms, "
          f"best {min(late):.0f} ms ({', '.join(f'{x:.0f}' for x in late)})")


def measure(firefox: Firefox, base: str, runs: int) -> list[float]:
    code, host, seat = game_in_progress(base)
    phone = firefox.device(PHONE_SIZE, True)
    phone.goto(base + seat)
    wait_for("the phone's hourglass",
             lambda: (phone.evaluate("!!document.querySelector('.hourglass')"), None))
    # A second tab in the phone's window, in front: the phone's page is now a background tab.
    firefox.bidi.call("browsingContext.create", type="tab", referenceContext=phone.context,
                      userContext=phone.user_context)
    wait_for("the phone's tab to be hidden", lambda: (phone.evaluate("document.hidden"), None))
    late = []
    for i in range(runs):
        phone.run(RECORDER)
        seconds = 3 + i % 3  # whole seconds (the glass's unit), from whatever millisecond it is now
        call(base, f"/api/tables/{code}/commands", {"type": "timer.start", "seconds": seconds}, host)
        ends_at = call(base, f"/api/tables/{code}/state", token=host)["state"]["timer"]["ends_at_ms"]
        seen = wait_for("time's up on the hidden phone", timeout=seconds + 30,
                        check=lambda: ((r := phone.evaluate("window.__timeUp")) is not None, r))
        if not seen["hidden"]:
            sys.exit("the phone's tab was shown: the figure would not be a hidden tab's")
        late.append(seen["at"] - ends_at)
        print(f"  glass {i + 1}: {seconds} s, time's up {late[-1]:+.0f} ms after its deadline")
        call(base, f"/api/tables/{code}/commands", {"type": "timer.reset"}, host)
        time.sleep(0.5)
    return late


if __name__ == "__main__":
    main()
