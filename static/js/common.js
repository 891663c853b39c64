// Pieces both screens share: the header, the history sheet, event descriptions, results, the
// table connection wiring and the service worker registration.

import { ApiError, api } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { GAMES, gameNow, loadGame, untilOptions } from "./games/index.js";
import { HourglassView, formatSeconds } from "./hourglass.js";
import { currentLanguage, errorText, has, nextLanguage, setLanguage, t } from "./i18n.js";
import { forgetView, keepView, keptView } from "./kept.js";
import { TableSocket } from "./socket.js";

export function registerServiceWorker() {
  // Service workers need a secure context (HTTPS or localhost); on plain HTTP over the LAN
  // the app simply works without the offline shell.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  }
}

// The header's brand and language button, and the page's title and description, in the current
// language; the button offers the next language, named in that language.
export function wordChrome() {
  const brand = document.querySelector(".brand");
  if (brand) brand.textContent = t("brand");
  document.title = t("brand");
  document.querySelector('meta[name="description"]')?.setAttribute("content", t("description"));
  const button = document.getElementById("lang");
  if (button) {
    const next = nextLanguage();
    button.textContent = next.name;
    button.lang = next.code;
    button.setAttribute("aria-label", `${t("languageLabel")}: ${next.name}`);
  }
}

export function languageButton() {
  const button = h("button", { type: "button", class: "btn ghost small", id: "lang", onclick: () => setLanguage(nextLanguage().code).catch(() => toast(errorText("net/offline"))) });
  document.getElementById("header-actions").append(button);
  wordChrome();
  window.addEventListener("languagechange-app", wordChrome);
  return button;
}

export function names(state) {
  const map = new Map(state.players.map((p) => [p.id, p.name]));
  return (pid) => map.get(pid) ?? (pid === "host" ? t("host") : t("someone"));
}

// A finished game's result in words, from the structured data the rules give: an outcome code
// (worded per game where it says more, e.g. "blanko.final"), the winners (n of them: "won" or
// "nyertek") and the figures.
export function resultText(result, game, name) {
  if (!result) return "";
  const winners = (result.winners || []).map(name).join(", ");
  const key = [`result.${game}.${result.outcome}`, `result.${result.outcome}`].find(has);
  return key ? t(key, { ...result, winners, n: (result.winners || []).length }) : winners;
}

// The result line's colour: a game won (by players or the team) or lost. It is the one line that
// says who won: the games draw no winner banner of their own once the game is over.
export function resultTone(result) {
  if (!result || result.outcome === "unfinished" || result.outcome === "not_started") return "";
  return result.outcome === "lost" ? "lost" : result.outcome === "won" || result.winners?.length ? "won" : "";
}

export function describe(record, state) {
  const e = record.event;
  const name = names(state);
  const game = GAMES[state.game];
  const fromGame = game?.describe?.(e, { name });
  if (fromGame) return fromGame;
  const key = `event.${e.type}`;
  switch (e.type) {
    case "TableCreated": return t(key, { game: state.title });
    case "PlayerJoined": return t(key, { name: e.name });
    case "PlayerRemoved": return t(key, { name: name(e.player_id) });
    case "GameEnded": return t(key, { result: resultText(e.result, state.game, name) });
    case "RematchStarted": return t(key, { text: e.game === state.game ? state.title : t(`game.${e.game}`) });
    case "CommandUndone": return t(key, { name: name(e.by) });
    case "TimerStarted": return t(key, { time: formatSeconds(e.duration_ms) });
    default: return has(key) ? t(key, { name: name(e.player ?? e.player_id) }) : e.type;
  }
}

export async function openHistory(code, token, state) {
  const { events } = await api(`/api/tables/${code}/history`, { token });
  const dialog = h("dialog", { class: "sheet" });
  const draw = () => {
    const list = h("ol", { class: "history-list" }, events.slice().reverse().map((r) => h("li", { class: r.undone ? "undone" : "" },
      h("span", { class: "when", text: new Date(r.ts_ms).toLocaleTimeString(currentLanguage()) }),
      h("span", { class: "what", text: describe(r, state) }),
      r.undone ? h("span", { class: "tag", text: t("undone") }) : null)));
    dialog.setAttribute("aria-label", t("history"));
    replace(dialog, h("header", {}, h("h2", { text: t("history") }), h("button", { type: "button", class: "btn ghost", onclick: () => dialog.close(), text: t("close") })),
      events.length ? list : h("p", { text: t("noHistory") }));
  };
  draw();
  window.addEventListener("languagechange-app", draw);
  dialog.addEventListener("close", () => { window.removeEventListener("languagechange-app", draw); dialog.remove(); });
  document.body.append(dialog);
  dialog.showModal();
}

// The mark of a screen drawn from what this device last saw (kept.js), not from the server: a
// notice hanging below the header, over the page rather than in it, so that nothing moves when
// it comes or goes; it shows after a second, so a page whose table answers at once never
// flashes it. `markStale(on)` puts it up or takes it down.
let staleNotice = null;
export function markStale(on) {
  if (!staleNotice && !on) return;
  if (!staleNotice) {
    staleNotice = h("p", { class: "stale-notice", id: "stale", role: "status", hidden: true });
    const word = () => { staleNotice.textContent = t("notLive"); };
    word();
    window.addEventListener("languagechange-app", word);
    document.querySelector(".app-header").append(staleNotice);
  }
  staleNotice.hidden = !on;
  document.body.classList.toggle("stale", on);
}

/** What a tap on a stale screen gets instead of being sent: the words "when the table is back". */
export const staleRefusal = () => new ApiError(0, "net/stale", "not sent: the screen is not live");

// Connect a screen to its table: the socket, the hourglass and re-rendering on every state.
// `seat` names whose view this is (a player's id, or "table"): the last state is kept under it
// and drawn at once on the next load, stale until the server's own state replaces it. A stale
// screen sends nothing: its commands are refused there and then, so none can go out later.
// `onNotice`: told when the socket is ready (again) and when a device asks to be the table's
// screen.
export function connectTable({ code, token, seat, timerRoot, render, onFatal, statusEl, first = null, onNotice }) {
  let current = null;
  let live = false;
  let gone = false; // the seat is gone: a state still on its way is not kept again
  let status = "connecting";
  // Until the first state the screen is a frame of empty cards, which the state would then push
  // about (the layout shift a phone shows as a jump): it stays out of sight until drawn whole,
  // or until the table turns out to be out of reach.
  const main = document.getElementById("main");
  main.hidden = true;
  const reveal = () => { main.hidden = false; };
  const waited = setTimeout(reveal, 4000);
  const draw = (state) => { render(state); clearTimeout(waited); reveal(); };
  const wordStatus = () => { if (statusEl) { statusEl.textContent = t(status); statusEl.dataset.status = status; } };
  const kept = first ? null : keptView(code, seat);
  const show = (state) => {
    current = state;
    hourglass.update(state.timer);
    if (gameNow(state.game, () => { if (current === state) draw(state); })) draw(state);
  };
  const socket = new TableSocket({
    code, token, onNotice,
    onState: (state) => {
      if (gone) return;
      if (!live) { live = true; markStale(false); }
      // the clock's offset: its estimate once synced, till then the copy's (set below) or none
      keepView(code, seat, state, socket.clock.offset);
      show(state);
    },
    onPresence: (online) => {
      document.body.dataset.online = online.join(" ");
      if (current) render(current);
    },
    onStatus: (now) => { status = now; wordStatus(); if (now === "offline") reveal(); },
    // The seat is gone for good (removed, handed over, the table expired): its copy goes too.
    onFatal: (why) => { gone = true; forgetView(code, seat); markStale(false); reveal(); onFatal(why); },
  });
  const send = (cmd) => (live ? socket.send(cmd) : Promise.reject(staleRefusal())).catch((err) => { toast(errorText(err)); throw err; });
  // What a tap asks of the server beside commands (the history, the record, a hand-over) waits
  // for the table the same way.
  const whenLive = (fn) => (...args) => (live ? fn(...args) : toast(errorText(staleRefusal())));
  const hourglass = new HourglassView(timerRoot, { send: (c) => send(c).catch(() => {}), clock: socket.clock });
  socket.start(first);
  if (kept) {
    // The sand runs on from the deadline the server last gave, on the server's clock as this
    // device last knew it.
    socket.clock.offset = Number(kept.offset_ms) || 0;
    markStale(true);
    show(kept.state);
  }
  window.addEventListener("languagechange-app", () => { wordStatus(); if (current) render(current); });
  return { socket, send, whenLive, current: () => current };
}

export function online(pid) {
  return (document.body.dataset.online || "").split(" ").includes(pid);
}

export { h, replace, toast, t, errorText, GAMES, gameNow, loadGame, untilOptions };
