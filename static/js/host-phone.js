// The host's own phone at a table with no screen (a game started from a tent, tent.js): one
// phone is enough, so what the table's screen would show is on it too, under the player's own
// view. In the lobby the table's QR code (with its join secret: it is this host's) and who has
// joined, and Start; then the table's board with the scores (the shared glass and the history
// the phone has already), and End game; and the devices at the tent asking to be the table's
// screen, to allow or refuse (web/screen_requests_api.py). The host's commands go with the
// host's token over HTTP: the phone's socket is its player's seat.

import { api, newCid, storage } from "./api.js";
import { errorText, t, toast } from "./common.js";
import { confirmButton } from "./confirm.js";
import { h as v } from "./view.js";

export class HostPhone {
  /** `host`: what this device keeps of the table's host ({token}); `rerender`: draw again. */
  constructor(code, host, rerender) {
    Object.assign(this, { code, host, rerender });
    this.base = `/api/tables/${encodeURIComponent(code)}`;
    this.qr = null;
    this.requests = [];
    api(`${this.base}/qr.svg`, { token: host.token, text: true })
      .then((svg) => { this.qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`; rerender(); }, () => {});
  }

  send(command) {
    return api(`${this.base}/commands`, { method: "POST", token: this.host.token, body: { ...command, cid: newCid() } })
      .catch((err) => { toast(errorText(err)); throw err; });
  }

  /** The table's socket said it is ready (again), or that a device asks: who waits is read. */
  notice(msg) {
    if (msg.type === "ready" || msg.type === "screen.asked") this.readRequests();
  }

  async readRequests() {
    try {
      this.requests = (await api(`${this.base}/screens`, { token: this.host.token })).requests;
      this.rerender();
    } catch { /* asked again at the next notice */ }
  }

  async answer(id, allow) {
    try {
      await api(`${this.base}/screens/${encodeURIComponent(id)}`, { method: "POST", token: this.host.token, body: { allow } });
      toast(t(allow ? "vn_screenAllowed" : "vn_screenRefused"), "ok");
    } catch (err) { toast(errorText(err)); }
    this.readRequests();
  }

  /** The host's part of the phone's screen for `state`; `board`: the game's board, drawn. */
  view(state, board) {
    const lobby = state.status === "lobby";
    const active = state.players.filter((p) => !p.removed);
    return v("section", { class: "card host", id: "host" },
      v("h2", { text: t("vn_yourTable") }),
      this.requests.map((r) => v("div", { class: "host-request", role: "alert", key: r.id, dataset: { request: r.id } },
        v("p", { text: t("vn_screenAsks") }),
        v("div", { class: "row" },
          v("button", { type: "button", class: "btn primary", id: "screen-allow", text: t("vn_allow"), onclick: () => this.answer(r.id, true) }),
          v("button", { type: "button", class: "btn ghost", id: "screen-refuse", text: t("vn_refuse"), onclick: () => this.answer(r.id, false) })))),
      lobby ? v("div", { class: "host-join" },
        this.qr ? v("img", { class: "qr", id: "host-qr", alt: t("qrAlt"), src: this.qr }) : null,
        v("div", {}, v("div", { class: "muted small", text: t("tableCode") }), v("div", { class: "table-code", id: "table-code", text: state.code }),
          v("p", { class: "muted small", text: t("vn_othersScan") }))) : null,
      lobby ? v("p", { id: "host-players", text: `${t("players")} (${active.length}): ${active.map((p) => p.name).join(", ")}` }) : null,
      lobby ? v("button", { type: "button", class: "btn primary big", id: "host-start", text: t("start"), onclick: () => this.send({ type: "table.start_game" }).catch(() => {}) }) : null,
      !lobby && board ? v("details", { class: "host-board", id: "host-board", open: true }, v("summary", { text: t("vn_board") }), board) : null,
      state.status !== "ended" ? confirmButton({ cls: "btn danger", id: "host-end", label: t("end"), question: t("confirmEnd"), onConfirm: () => this.send({ type: "table.end_game" }).catch(() => {}) }) : null);
  }
}

const ASK_AGAIN_MS = 1500;

/** This device asks to be table `code`'s screen (`headers`: the tent's secret it came by),
 * waits for the host's answer, and once allowed is the table's screen (table-screen.js) with the
 * host's token. `say(words)` tells how the request stands. */
export async function askToBeScreen(code, headers, say) {
  const base = `/api/tables/${encodeURIComponent(code)}/screens`;
  let asked;
  try {
    asked = await api(base, { method: "POST", headers, body: {} });
  } catch (err) { say(errorText(err)); return; }
  say(t("vn_screenWaiting"));
  for (;;) {
    await new Promise((go) => setTimeout(go, ASK_AGAIN_MS));
    let got;
    try {
      got = await api(`${base}/${encodeURIComponent(asked.id)}`, { headers: { "X-Companion-Screen": asked.secret } });
    } catch (err) {
      if (err.code === "net/offline") continue;
      say(errorText(err)); // lapsed: the host did not answer in time
      return;
    }
    if (got.status === "refused") { say(t("vn_screenRefusedHere")); return; }
    if (got.status === "allowed") {
      storage.set(`tc.host.${got.code}`, { token: got.host_token, join_url: got.join_url, game: got.game });
      storage.remove(`tc.player.${got.code}`); // the seat it was to take: it is the screen instead
      location.replace(`/?table=${got.code}`);
      return;
    }
  }
}
