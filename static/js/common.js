// Pieces both screens share: the header, the history sheet, event descriptions, results, the
// table connection wiring and the service worker registration.

import { api } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { GAMES, gameNow, loadGame } from "./games/index.js";
import { HourglassView, formatSeconds } from "./hourglass.js";
import { currentLanguage, errorText, has, nextLanguage, setLanguage, t } from "./i18n.js";
import { TableSocket } from "./socket.js";

export function registerServiceWorker() {
  // Service workers need a secure context (HTTPS or localhost); on plain HTTP over the LAN
  // the app simply works without the offline shell.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  }
}

// The header's brand and language button, and the page's title, in the current language; the
// button offers the next language, named in that language.
export function wordChrome() {
  const brand = document.querySelector(".brand");
  if (brand) brand.textContent = t("brand");
  document.title = t("brand");
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

// Connect a screen to its table: the socket, the hourglass and re-rendering on every state.
export function connectTable({ code, token, timerRoot, render, onFatal, statusEl, first = null }) {
  let current = null;
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
  const socket = new TableSocket({
    code, token,
    onState: (state) => {
      current = state;
      hourglass.update(state.timer);
      if (gameNow(state.game, () => { if (current === state) draw(state); })) draw(state);
    },
    onPresence: (online) => {
      document.body.dataset.online = online.join(" ");
      if (current) render(current);
    },
    onStatus: (now) => { status = now; wordStatus(); if (now === "offline") reveal(); },
    onFatal: (why) => { reveal(); onFatal(why); },
  });
  const send = (cmd) => socket.send(cmd).catch((err) => { toast(errorText(err)); throw err; });
  const hourglass = new HourglassView(timerRoot, { send: (c) => send(c).catch(() => {}), clock: socket.clock });
  socket.start(first);
  window.addEventListener("languagechange-app", () => { wordStatus(); if (current) render(current); });
  return { socket, send, current: () => current };
}

export function online(pid) {
  return (document.body.dataset.online || "").split(" ").includes(pid);
}

export { h, replace, toast, t, errorText, GAMES, gameNow, loadGame };
