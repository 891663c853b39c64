// What the screens of many tables share (the league room's, league-screen.js, and the venue's
// counter, venue.js): the sand of a table as a room's answer gave it, and the reads of a room,
// throttled.

/** The sand left in `timer` (hourglass.view's) as m:ss, on the server's clock (`offsetMs`:
 * the server's minus this device's); null while the glass is not turning or paused. */
export function sandText(timer, offsetMs) {
  if (!timer || timer.phase === "stopped" || timer.phase === "ready") return null;
  const left = timer.running ? Math.max(0, timer.ends_at_ms - (Date.now() + offsetMs)) : timer.remaining_ms;
  const s = Math.ceil(left / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A read of the room, at most one at a time: asked for while one is on its way, one more comes
// after it (for every notice of a burst, the last read is the one that saw them all), and not
// sooner than READ_GAP_MS after the one before: a busy evening's moves at every table cost the
// server two reads a second at most, not one per move.
const READ_GAP_MS = 500;

/** `refresh()`: `read()` now or as soon as the rule above allows; a promise of that read. */
export function throttledReads(read) {
  let reading = null;
  let queued = null;
  let lastRead = 0;
  const refresh = () => {
    if (!reading) {
      lastRead = Date.now();
      reading = read().finally(() => { reading = null; });
      return reading;
    }
    if (!queued) {
      queued = reading.then(() => new Promise((go) => setTimeout(go, Math.max(0, lastRead + READ_GAP_MS - Date.now()))))
        .then(() => { queued = null; return refresh(); });
    }
    return queued;
  };
  return refresh;
}
