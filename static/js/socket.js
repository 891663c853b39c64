// One table's live connection: catch-up with `since`, reconnects, commands with ids. (Its
// reconnecting, LiveSocket, is the league room's screen's too: league-screen.js.)
//
// A phone that sleeps or loses Wi-Fi reconnects with the last seq it saw and receives exactly
// the events it missed (or a snapshot). Commands carry a client id (cid), so one resent after a
// timeout is applied once by the server; without an open socket they go over HTTP instead.

import { api, newCid, ApiError } from "./api.js";
import { ClockSync } from "./clock.js";

// Errors after which reconnecting cannot help, and the closes that say the same when the
// server's error frame did not arrive first.
const FATAL_CODES = new Set(["auth/removed", "auth/handed_over", "auth/bad_token", "auth/expired", "auth/missing_token", "table/unknown"]);
const FATAL_CLOSES = new Map([[4003, "auth/removed"], [4401, "auth/bad_token"], [4403, "auth/removed"], [4404, "table/unknown"]]);

// A websocket that comes back: the token rides as a subprotocol, not in the URL that proxies
// write to their access logs (the server answers with the plain "companion" one); after a drop
// it is opened again with backoff (at once when the device is back online or the page is shown
// again), until an error frame or a close says reconnecting cannot help. A subclass says where
// (path) and what its frames mean (receive), and resets the backoff once the server has said
// all is well.
export class LiveSocket {
  constructor({ token, onStatus, onFatal, fatalCloses }) {
    Object.assign(this, { token, onStatus, onFatal, fatalCloses });
    this.ws = null;
    this.backoff = 500;
    this.stopped = false;
    window.addEventListener("online", () => this.kick());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.kick();
    });
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${this.path()}`, ["companion", `companion.token.${this.token}`]);
    this.ws = ws;
    this.onStatus?.("connecting");
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onStatus?.("offline");
      if (this.fatalCloses.has(e.code)) {
        this.fatal(this.fatalCloses.get(e.code));
        return;
      }
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 5000);
    };
  }

  // The server said this token is done for (removed, handed over, unknown): stop for good. The
  // error frame is enough; a close frame may not make it through intact.
  fatal(code) {
    if (this.stopped) return;
    this.stopped = true;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.onFatal?.(code);
  }

  kick() {
    if (!this.ws && !this.stopped) {
      this.backoff = 500;
      this.connect();
    }
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}

export class TableSocket extends LiveSocket {
  constructor({ code, token, onState, onEvent, onPresence, onStatus, onFatal, onNotice }) {
    super({ token, onStatus, onFatal, fatalCloses: FATAL_CLOSES });
    Object.assign(this, { code, onState, onEvent, onPresence, onNotice });
    this.seq = null;
    this.pending = new Map();
    this.clock = new ClockSync((m) => this.raw(m));
  }

  // The first state also comes over HTTP (`first`, if the page has it already), on the page's
  // open connection, while the socket's handshake takes its round trips: the screen is drawn
  // from whichever comes first.
  start(first = null) {
    (first ? Promise.resolve(first) : api(`/api/tables/${encodeURIComponent(this.code)}/state`, { token: this.token }))
      .then((r) => this.adopt(r.state, r.seq), () => {});  // refusals come through the socket
    this.connect();
  }

  // A state that came over HTTP: shown unless the socket has brought a newer one.
  adopt(state, seq) {
    if (this.seq === null || seq >= this.seq) { this.seq = seq; this.onState(state, seq); }
  }

  path() {
    return `/ws/${encodeURIComponent(this.code)}${this.seq === null ? "" : `?since=${this.seq}`}`;
  }

  receive(msg) {
    switch (msg.type) {
      case "snapshot":
        this.seq = msg.seq;
        this.onState(msg.state, msg.seq);
        break;
      case "event":
        if (this.seq !== null && msg.seq <= this.seq) return; // already seen
        if (this.seq !== null && msg.seq > this.seq + 1) { // a gap: ask again from what we have
          this.ws?.close();
          return;
        }
        this.seq = msg.seq;
        this.onEvent?.(msg);
        if (msg.state) this.onState(msg.state, msg.seq);
        break;
      case "ready":
        this.backoff = 500;
        this.onStatus?.("online");
        this.clock.start();
        this.onNotice?.(msg);
        break;
      case "screen.asked": // a device at the table waits for the host's answer (host-phone.js)
        this.onNotice?.(msg);
        break;
      case "presence":
        this.onPresence?.(msg.online);
        break;
      case "time.pong":
        this.clock.onPong(msg);
        break;
      case "ack":
        this.settle(msg.cid, null, msg);
        break;
      case "error":
        if (msg.cid && this.pending.has(msg.cid)) this.settle(msg.cid, new ApiError(409, msg.error.code, msg.error.message, msg.error.params));
        else if (FATAL_CODES.has(msg.error?.code)) this.fatal(msg.error.code);
        break;
      default:
        break;
    }
  }

  settle(cid, error, value) {
    const p = this.pending.get(cid);
    if (!p) return;
    this.pending.delete(cid);
    clearTimeout(p.timer);
    if (error) p.reject(error); else p.resolve(value);
  }

  // Send a command; resolves on the server's ack. A socket that is not open, or an ack that
  // does not come in 4 s, falls back to HTTP with the same cid (applied once either way).
  send(command) {
    const cid = newCid();
    const body = { ...command, cid };
    const viaHttp = () => api(`/api/tables/${this.code}/commands`, { method: "POST", body, token: this.token })
      .then((r) => {
        if (r.state) this.adopt(r.state, r.seq);
        return r;
      });
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return viaHttp();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.pending.delete(cid); viaHttp().then(resolve, reject); }, 4000);
      this.pending.set(cid, { resolve, reject, timer });
      this.ws.send(JSON.stringify(body));
    });
  }
}
