// Runs the page's own offset estimator (static/js/clock.js) on sample sets read from stdin:
// [[{rtt, offset}, ...], ...] -> [estimate, ...]. Used by bench/timer_sync.py.
import { readFileSync } from "node:fs";
import { estimateOffset, WINDOW, BURST, RESYNC_MS } from "../static/js/clock.js";

const sets = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify({ WINDOW, BURST, RESYNC_MS, estimates: sets.map((s) => estimateOffset(s.slice(-WINDOW))) }));
