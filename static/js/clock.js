// Estimating the server's clock over the websocket, NTP-style.
//
// Each time.ping carries the client's send time t0; the pong brings server_ms. With the reply
// received at t1, the round trip is t1 - t0 and the offset estimate server_ms - (t0 + t1) / 2.
// Samples with the shortest round trips have the least room for asymmetric delay, so we keep
// a window of recent samples, take the fastest third, and use their median offset. The page
// never counts ticks: the server's "now" is always clientNow() + offset.
// bench/timer_sync.py runs this very algorithm (same constants) against simulated phones.

export const WINDOW = 24;
export const KEEP_FRACTION = 1 / 3;
export const BURST = 8;
export const RESYNC_MS = 5000;

const base = Date.now() - performance.now();
export const clientNow = () => base + performance.now();

export function estimateOffset(samples) {
  if (!samples.length) return 0;
  const fastest = [...samples].sort((a, b) => a.rtt - b.rtt).slice(0, Math.max(1, Math.ceil(samples.length * KEEP_FRACTION)));
  const offsets = fastest.map((s) => s.offset).sort((a, b) => a - b);
  const mid = offsets.length >> 1;
  return offsets.length % 2 ? offsets[mid] : (offsets[mid - 1] + offsets[mid]) / 2;
}

export class ClockSync {
  constructor(send) {
    this.send = send;
    this.samples = [];
    this.offset = 0;
    this.synced = false;
    this.timer = null;
    this.listeners = new Set();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.burst();
    });
  }

  start() {
    this.burst();
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (document.visibilityState === "visible") this.ping();
    }, RESYNC_MS);
  }

  burst() {
    for (let i = 0; i < BURST; i += 1) setTimeout(() => this.ping(), i * 60);
  }

  ping() {
    this.send({ type: "time.ping", t0: clientNow() });
  }

  onPong(msg) {
    const t1 = clientNow();
    if (typeof msg.t0 !== "number") return;
    const rtt = t1 - msg.t0;
    if (rtt < 0 || rtt > 10000) return;
    this.samples.push({ rtt, offset: msg.server_ms - (msg.t0 + t1) / 2 });
    if (this.samples.length > WINDOW) this.samples.shift();
    this.offset = estimateOffset(this.samples);
    this.synced = true;
    for (const fn of this.listeners) fn(this.offset);
  }

  serverNow() {
    return clientNow() + this.offset;
  }
}
