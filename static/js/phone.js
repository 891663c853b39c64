// A player's phone at /t/CODE: join with a name, then play. The token is kept in
// localStorage, so a reload, a sleep or a lost Wi-Fi brings back the same player.

import { api, storage } from "./api.js";
import { GAMES, connectTable, errorText, h, languageButton, loadGame, names, openHistory, registerServiceWorker, replace, resultText, resultTone, t, toast } from "./common.js";
import { HostPhone, askToBeScreen } from "./host-phone.js";
import { h as v, patch, promptWatcher } from "./view.js";

const main = document.getElementById("main");
const code = decodeURIComponent(location.pathname.split("/").pop() || "").toUpperCase();
const key = `tc.player.${code}`;
// The record sheet is opened on demand: its module is not among what the game screen waits for.
const openRecord = (...args) => import("./record.js").then((m) => m.openRecord(...args));
registerServiceWorker();
languageButton();

// The screen on show re-draws itself in the new language; what was typed stays.
let redraw = () => {};
window.addEventListener("languagechange-app", () => redraw());

async function joinScreen(problem = null) {
  // The player's identity (identity.js) is needed to join, not to play: fetched with the table.
  let info, joiner, identity;
  // The join secret of the QR code's link, if this phone came by it (kept below): with it the
  // table is found and joined whatever others at this address guessed.
  const joinSecret = storage.get(key)?.join_secret;
  // The secret of the tent this phone scanned (tent.js), if it came by one: the join carries it.
  const tent = storage.get(key)?.tent;
  const headers = joinSecret ? { "X-Companion-Join-Secret": joinSecret } : tent ? { "X-Companion-Tent": tent.secret } : {};
  try {
    [info, { joiner, identity }] = await Promise.all([api(`/api/tables/${encodeURIComponent(code)}`, { headers }), import("./identity.js")]);
  } catch (err) {
    redraw = () => replace(main, h("section", { class: "card" }, h("h2", { text: code }), h("p", { class: "error", text: errorText(err) })));
    redraw();
    return;
  }
  loadGame(info.game).catch(() => {}); // fetched while the player types a name
  const input = h("input", { id: "name", name: "name", autocomplete: "nickname", maxlength: 24, required: true, enterkeyhint: "go", value: identity()?.name || null });
  const button = h("button", { type: "submit", class: "btn primary big", id: "join" });
  const label = h("span");
  const form = h("form", { class: "card", id: "join-form" });
  let busy = false;
  const join = joiner(code);
  // Come by the tent, this device may be the table's screen instead, if the host allows it.
  const offer = tent ? h("section", { class: "card", id: "screen-offer" }) : null;
  let asking = null; // what the request says: null before it, then its state's words
  const drawOffer = () => offer && replace(offer, h("p", { class: "muted", text: t("vn_screenOffer") }),
    asking ? h("p", { id: "screen-status", role: "status", text: asking }) : null,
    h("button", { type: "button", class: "btn", id: "be-screen", disabled: asking === t("vn_screenWaiting") ? true : null, text: t("vn_beScreen"),
      onclick: () => askToBeScreen(code, { "X-Companion-Tent": tent.secret }, (words) => { asking = words; drawOffer(); }) }));
  redraw = () => {
    drawOffer();
    input.placeholder = t("yourName");
    label.textContent = t("yourName");
    button.textContent = busy ? t("joining") : t("join");
    replace(form,
      h("h2", { text: `${t(`game.${info.game}`)} · ${info.code}` }),
      problem ? h("p", { class: "error", role: "alert", text: errorText(problem) }) : null,
      info.players.length ? h("p", { class: "muted", text: `${t("players")}: ${info.players.join(", ")}` }) : null,
      info.locked ? h("p", { class: "error", text: t("locked") }) : null,
      h("label", {}, label, input), button);
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    busy = true;
    button.disabled = true;
    redraw();
    try {
      const joined = await join(input.value, { join_secret: joinSecret, tent: tent?.secret });
      const seat = { ...joined, game: info.game, league: info.league || null };
      storage.set(key, seat);
      playScreen(seat);
    } catch (err) {
      toast(errorText(err));
      busy = false;
      button.disabled = false;
      redraw();
    }
  });
  redraw();
  replace(main, form, offer);
  input.focus();
}

function playScreen(me, first = null) {
  const top = h("section", { class: "card me", id: "me" });
  const gameEl = h("section", { class: "card game", id: "game" });
  const timerRoot = h("div", { id: "timer" });
  const actions = h("div", { class: "controls" });
  const status = h("span", { class: "pill", id: "status" });
  // This phone is the table's host too (it started the game at a tent): the table's part.
  const hostEl = h("div", { id: "host-slot" });
  document.getElementById("header-extra").replaceChildren(status);
  replace(main, top, gameEl, timerRoot, actions);
  let last = null;
  const rerender = () => last && render(last);
  const kept = storage.get(`tc.host.${code}`);
  const host = kept?.token ? new HostPhone(code, kept, rerender) : null;
  const bringPrompt = promptWatcher();
  redraw = rerender;
  const { send, socket, whenLive } = connectTable({
    code, token: me.token, seat: me.player_id, timerRoot, statusEl: status, first,
    onNotice: host ? (msg) => host.notice(msg) : undefined,
    onFatal: (why) => {
      storage.remove(key);
      redraw = () => replace(main, h("section", { class: "card" }, h("p", { class: "error", role: "alert", text: why ? errorText(why) : t("removedMsg") }),
        h("button", { type: "button", class: "btn primary", text: t("join"), onclick: () => joinScreen() })));
      redraw();
    },
    render: (state) => { last = state; render(state); },
  });
  function render(state) {
    const name = names(state);
    const gs = state.game_state;
    // Nobody is to play once the game is over, whatever seat the game's state still points at;
    // a game may say whose turn it is itself (BLANKO's final tally is nobody's turn).
    const mod = GAMES[state.game];
    if (me.game !== state.game) { me.game = state.game; storage.set(key, me); } // the next visit's hint
    const current = gs && (mod?.turnOf ? mod.turnOf(gs) : gs.current);
    const playing = state.status === "playing" && current && !gs.over;
    const turn = playing ? (current === me.player_id ? t("yourTurn") : `${t("turnOf")}: ${name(current)}`) : null;
    patch(top, v("div", { class: "me-line" }, v("strong", { id: "my-name", text: name(me.player_id) }), v("span", { class: "muted", text: ` · ${state.title} · ${state.code}` })),
      state.status === "lobby" && !host ? v("p", { class: "muted", id: "lobby", text: lobbyText(state.board) }) : null,
      state.status === "ended" ? v("p", { class: `banner ${resultTone(state.result)}`, id: "result", text: [t("ended"), resultText(state.result, state.game, name)].filter(Boolean).join(". ") }) : null,
      turn ? v("p", { class: `turn${current === me.player_id ? " mine" : ""}`, id: "turn", text: turn }) : null);
    const ctx = { me: me.player_id, code, gameNo: state.game_no, name, send, isHost: false, toast, rerender, ended: state.status === "ended", now: () => socket.clock.serverNow() };
    patch(gameEl, mod ? mod.phone(gs, ctx) : null);
    bringPrompt(gameEl);
    if (host) {
      // In the lobby the QR code comes first (the others are still to join); then the game does.
      const after = state.status === "lobby" ? top : timerRoot;
      if (hostEl.previousElementSibling !== after) after.after(hostEl);
      const board = mod && state.status !== "lobby" ? mod.board(gs, { ...ctx, me: null, isHost: true, send: (c) => host.send(c) }) : null;
      patch(hostEl, host.view(state, board));
    }
    patch(actions,
      state.status !== "ended" ? v("button", { type: "button", class: "btn", id: "undo", text: t("undo"), onclick: () => send({ type: "undo" }).catch(() => {}) }) : null,
      v("button", { type: "button", class: "btn ghost", id: "history", text: t("history"), onclick: whenLive(() => openHistory(code, me.token, state)) }),
      v("button", { type: "button", class: "btn ghost", id: "open-record", text: t("rec_button"), onclick: whenLive(() => openRecord(code, me.token)) }),
      v("a", { class: "btn ghost", id: "stats-link", href: "/stats", text: t("st_button") }),
      // At a league's table: the player's own row of its standings.
      me.league ? v("a", { class: "btn ghost", id: "league-link", href: `/league#league=${encodeURIComponent(me.league)}&me=${encodeURIComponent(name(me.player_id))}`, text: t("lg_myRow") }) : null);
  }
}

// A league round's board starts by itself once its two players sit: the phone says so, and
// whom it still waits for (the server names them as the league does); any other table waits
// for its host.
function lobbyText(board) {
  if (!board) return t("lobby");
  const waits = board.waiting_for.length ? t("lg_boardWaitsFor", { names: board.waiting_for.join(", ") }) : null;
  return [t("lg_boardLobby", { n: board.round }), waits].filter(Boolean).join(" ");
}

// A seat handed over by the host arrives as /t/CODE#seat=TOKEN&game=GAME (the fragment never
// reaches a server log): keep it as this phone's seat, and drop it from the address bar.
async function takeSeat(token, game) {
  history.replaceState({}, "", location.pathname);
  if (game) loadGame(game).catch(() => {}); // fetched while the state is asked for
  try {
    const first = await api(`/api/tables/${encodeURIComponent(code)}/state`, { token });
    const { state } = first;
    loadGame(state.game).catch(() => {});
    const me = { player_id: state.me.player_id, token, game: state.game };
    storage.set(key, me);
    playScreen(me, first);
    toast(t("seatMoved"), "ok");
  } catch (err) {
    joinScreen(err);
  }
}

// The table screen's QR code links to /t/CODE#k=SECRET: the table's join secret, which the
// fragment keeps out of every server's log. It is kept with the seat to be (a retry, a reload
// of the join screen still has it), replaced by the seat once joined, and dropped from the
// address bar at once (a screenshot, a shared link, the history do not carry it).
function keepJoinSecret(secret) {
  history.replaceState({}, "", location.pathname);
  if (!storage.get(key)?.token) storage.set(key, { join_secret: secret });
}

const fragmentOf = (hash) => new URLSearchParams(hash.slice(1));
// The link opened in a tab already on this table changes only the fragment: the page starts
// again with it (the seat it showed, its socket and its hourglass are let go with the page).
window.addEventListener("hashchange", () => { const f = fragmentOf(location.hash); if (f.get("seat") || f.get("k")) location.reload(); });

const handed = fragmentOf(location.hash);
if (handed.get("k")) keepJoinSecret(handed.get("k"));
const saved = storage.get(key);
if (handed.get("seat")) takeSeat(handed.get("seat"), handed.get("game"));
else if (saved && saved.token) {
  if (saved.game) loadGame(saved.game).catch(() => {}); // fetched while the state is asked for
  playScreen(saved);
} else joinScreen();
