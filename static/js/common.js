// Pieces both screens share: the header, the history sheet, event descriptions, the table
// connection wiring and the service worker registration.

import { api } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { GAMES } from "./games/index.js";
import { HourglassView } from "./hourglass.js";
import { t, toggleLanguage } from "./i18n.js";
import { fill } from "./record-strings.js";
import { TableSocket } from "./socket.js";

export function registerServiceWorker() {
  // Service workers need a secure context (HTTPS or localhost); on plain HTTP over the LAN
  // the app simply works without the offline shell.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  }
}

export function languageButton() {
  return h("button", { type: "button", class: "btn ghost small", id: "lang", onclick: toggleLanguage, text: t("language") });
}

export function names(state) {
  const map = new Map(state.players.map((p) => [p.id, p.name]));
  return (pid) => map.get(pid) ?? (pid === "host" ? "Host" : "?");
}

export function describe(record, state) {
  const e = record.event;
  const name = names(state);
  const game = GAMES[state.game];
  const fromGame = game?.describe?.(e, { name });
  if (fromGame) return fromGame;
  switch (e.type) {
    case "TableCreated": return `${state.title} table created`;
    case "PlayerJoined": return `${e.name} joined`;
    case "PlayerRemoved": return `${name(e.player_id)} was removed`;
    case "TableLocked": return "Table locked";
    case "TableUnlocked": return "Table unlocked";
    case "GameStarted": return "Game started";
    case "GameEnded": return `Game ended: ${e.result?.summary ?? ""}`;
    case "RematchStarted": return fill(t("ev_RematchStarted"), { text: e.game === state.game ? state.title : e.game });
    case "CommandUndone": return `Undo (by ${name(e.by)})`;
    case "TimerStarted": return `Hourglass started (${e.duration_ms / 1000} s)`;
    case "TimerFlipped": return "Hourglass flipped";
    case "TimerPaused": return "Hourglass paused";
    case "TimerResumed": return "Hourglass resumed";
    case "TimerReset": return "Hourglass reset";
    default: return e.type;
  }
}

export async function openHistory(code, token, state) {
  const { events } = await api(`/api/tables/${code}/history`, { token });
  const list = h("ol", { class: "history-list" }, events.slice().reverse().map((r) => h("li", { class: r.undone ? "undone" : "" },
    h("span", { class: "when", text: new Date(r.ts_ms).toLocaleTimeString() }),
    h("span", { class: "what", text: describe(r, state) }),
    r.undone ? h("span", { class: "tag", text: t("undone") }) : null)));
  const dialog = h("dialog", { class: "sheet", "aria-label": t("history") },
    h("header", {}, h("h2", { text: t("history") }), h("button", { type: "button", class: "btn ghost", onclick: () => dialog.close(), text: t("close") })),
    events.length ? list : h("p", { text: t("noHistory") }));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// Connect a screen to its table: the socket, the hourglass and re-rendering on every state.
export function connectTable({ code, token, timerRoot, render, onFatal, statusEl }) {
  let current = null;
  const socket = new TableSocket({
    code, token,
    onState: (state) => {
      current = state;
      hourglass.update(state.timer);
      render(state);
    },
    onPresence: (online) => {
      document.body.dataset.online = online.join(" ");
      if (current) render(current);
    },
    onStatus: (status) => {
      if (statusEl) { statusEl.textContent = t(status); statusEl.dataset.status = status; }
    },
    onFatal,
  });
  const send = (cmd) => socket.send(cmd).catch((err) => { toast(err.message); throw err; });
  const hourglass = new HourglassView(timerRoot, { send: (c) => send(c).catch(() => {}), clock: socket.clock });
  socket.connect();
  window.addEventListener("languagechange-app", () => current && render(current));
  return { socket, send, current: () => current };
}

export function online(pid) {
  return (document.body.dataset.online || "").split(" ").includes(pid);
}

export { h, replace, toast, t, GAMES };
