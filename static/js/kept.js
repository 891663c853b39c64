// What this device last saw of its tables, kept to show while the server is out of reach.
//
// Without it a phone reloaded with the Wi-Fi down (the service worker still serves the page)
// showed nothing of its game until the socket was back. Each screen keeps the last state the
// server sent it, one copy per table and seat ("table" for the table's screen), in localStorage,
// which is read at once on load (IndexedDB would answer a turn later): a phone keeps only its
// own view and the table's screen the public one, which is what the server already sent them.
// The copies of the newest few tables are kept, and a seat that is gone takes its copy along.
// A screen drawn from a copy is stale (connectTable): marked not live, and nothing is sent
// from it, then or later, until the server's own state has replaced it.

import { api, storage } from "./api.js";

const PREFIX = "tc.view.";
const KEEP = 4; // tables' copies: a phone at one table, a screen that hosted a few tonight

const keyOf = (code, seat) => `${PREFIX}${code}.${seat}`;
const pruned = new Set();

/** The copy kept of `code` as `seat` saw it: `{state, offset_ms, saved_ms}`, or null. */
export function keptView(code, seat) {
  const copy = storage.get(keyOf(code, seat));
  return copy && typeof copy.state === "object" && copy.state ? copy : null;
}

/** Keep `state` (with the server clock's offset) as the copy of `code` for `seat`. */
export function keepView(code, seat, state, offsetMs) {
  const key = keyOf(code, seat);
  storage.set(key, { state, offset_ms: offsetMs, saved_ms: Date.now() });
  // The others are looked at once a page: a new table seen here pushes the oldest out.
  if (!pruned.has(key)) { pruned.add(key); prune(key); }
}

/** Forget the copy of `code` for `seat` (the seat was removed or handed over). */
export function forgetView(code, seat) {
  storage.remove(keyOf(code, seat));
}

function prune(newest) {
  const others = storage.keys(PREFIX).filter((key) => key !== newest).map((key) => [key, Number(storage.get(key)?.saved_ms) || 0]);
  others.sort((a, b) => b[1] - a[1]);
  for (const [key] of others.slice(KEEP - 1)) storage.remove(key);
}

// A server answer a page is drawn from (the start page's games on offer), kept the same way:
// the live answer when the server gives one, else the last one kept with `live` false.
export async function keptAnswer(path) {
  const key = `tc.seen.${path}`;
  try {
    const answer = await api(path);
    storage.set(key, answer);
    return { answer, live: true };
  } catch (err) {
    const answer = storage.get(key);
    if (err.code !== "net/offline" || !answer) throw err;
    return { answer, live: false };
  }
}
