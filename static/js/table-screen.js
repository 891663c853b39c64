// The table's own screen (host): create a table, show its QR code, run the game.

import { api, storage } from "./api.js";
import { GAMES, connectTable, errorText, h, languageButton, loadGame, markStale, names, online, openHistory, registerServiceWorker, replace, resultText, resultTone, staleRefusal, t, toast } from "./common.js";
import { afterTap } from "./dom.js";
import { gameChooser } from "./game-form.js";
import { currentLanguage } from "./i18n.js";
import { keptAnswer } from "./kept.js";
import { confirmButton } from "./confirm.js";
import { openRecord, rematchPanel } from "./record.js";
import { h as v, patch } from "./view.js";

const main = document.getElementById("main");
const LEAGUE_TOKEN = "tc.league."; // + a league's id: its organiser's token (league-screen.js)
registerServiceWorker();
languageButton();
const statsLink = h("a", { class: "btn ghost small", href: "/stats", id: "stats-link" });
const wordStatsLink = () => { statsLink.textContent = t("st_button"); };
document.getElementById("header-actions").prepend(statsLink);
wordStatsLink();
window.addEventListener("languagechange-app", wordStatsLink);

// The screen on show re-draws itself in the new language.
let redraw = () => {};
window.addEventListener("languagechange-app", () => redraw());

function pastGames(past) {
  if (!past.length) return null;
  return h("section", { class: "card" }, h("h2", { text: t("pastGames") }),
    h("ul", { class: "past" }, past.map((g) => {
      const name = (pid) => g.names[pid] ?? t("someone");
      const scores = Object.entries(g.result?.scores || {}).sort((a, b) => b[1] - a[1]);
      const host = storage.get(`tc.host.${g.code}`);
      return h("li", { class: "past-game" },
        h("div", { class: "past-head" }, h("strong", { text: `${t(`game.${g.game}`)} · ${g.code}` }),
          h("span", { class: "muted small", text: new Date(g.ended_ms).toLocaleString(currentLanguage()) })),
        h("div", { class: "past-result", text: resultText(g.result, g.game, name) }),
        scores.length ? h("ul", { class: "past-scores" }, scores.map(([pid, s]) => h("li", {}, h("span", { text: name(pid) }), ": ", h("b", { text: String(s) })))) : null,
        host ? h("button", { type: "button", class: "btn ghost small", text: t("rec_button"), onclick: () => openRecord(g.code, host.token) }) : null);
    })));
}

// The leagues a new table can count for: those whose organiser's token this device keeps
// (league-screen.js) and the one the page's link names (`/?league=ID`, the room's screen's
// "New table for this league"), each as the server names it, with the games it counts. A
// league the server does not know (or cannot be asked about) is left out quietly, except the
// link's, whose error comes back (`error`) for the form to say under the game.
async function knownLeagues(linked) {
  const ids = new Set(storage.keys(LEAGUE_TOKEN).map((key) => key.slice(LEAGUE_TOKEN.length)));
  if (linked) ids.add(linked);
  const asked = [...ids].map((id) => api(`/api/leagues/${encodeURIComponent(id)}`).then(
    (lg) => ({ id: lg.id, name: lg.name, games: lg.games }),
    (error) => (id === linked ? { id, error } : null)));
  return (await Promise.all(asked)).filter(Boolean);
}

// "Club night / league": a new league (/league's form), or the room's screen of each league this
// device organises (whose organiser's token it keeps), named by the server, in the language's
// alphabetical order. The card is drawn with the form; the leagues come into its list.
function leaguesCard(list) {
  return h("section", { class: "card", id: "leagues-card" }, h("h2", { text: t("lg_clubNight") }), list,
    h("a", { class: "btn small", id: "lg-new-link", href: "/league", text: t("lg_new") }));
}

function organisedLeagues(list, leagues) {
  const mine = leagues.filter((lg) => !lg.error && storage.get(`${LEAGUE_TOKEN}${lg.id}`))
    .sort((a, b) => a.name.localeCompare(b.name, currentLanguage()));
  replace(list, ...mine.map((lg) => h("li", {}, h("a", { class: "btn lg-open", href: `/league#league=${encodeURIComponent(lg.id)}`, text: lg.name }))));
}

async function setupScreen() {
  // The form is drawn as soon as the games on offer and BLANK's module (its options, shown at
  // once) are here; BLANK's decks and the past games go below it when they come, so nothing
  // above them moves. The decks are fetched anew in a new language.
  const decks = h("div", { id: "decks-slot" });
  const pastSlot = h("div", { id: "past-slot" });
  const leagueList = h("ul", { class: "lg-organised" });
  const loadDecks = () => loadGame("blank").then((blank) => blank.decksPanel({ toast, reload: () => setupScreen() }))
    .then((panel) => replace(decks, panel), () => replace(decks));
  let past = [];
  // Out of the server's reach the form is drawn from the games on offer it last named, marked
  // not live, and creates nothing until the server answers again.
  const [{ answer: { games }, live: answered }] = await Promise.all([keptAnswer("/api/config"), loadGame("blank").catch(() => null)]);
  let live = answered;
  markStale(!live);
  let chosen = games[0]?.name;
  // "Counts for league": none unless the page came from a league's link; offered only for a
  // game the league counts, and kept while another game is looked at.
  const linked = new URLSearchParams(location.search).get("league");
  let leagues = [];
  let league = linked || "";
  let gameTouched = false;
  let showLeague = () => {};
  const draw = () => {
    const create = h("button", { type: "submit", class: "btn primary big", id: "create", text: t("create") });
    const chooser = gameChooser({ games, chosen, button: create, onPick: (picked) => {
      chosen = picked;
      showLeague();
      decks.hidden = picked !== "blank";  // BLANK's decks, under any other game's options, read as that game's
    } });
    const { select, optionsBox } = chooser;
    const leagueBox = h("div", { id: "league-slot" });
    let leagueSelect = null;
    showLeague = () => {
      const counting = leagues.filter((lg) => !lg.error && lg.games.includes(select.value));
      leagueSelect = counting.length ? h("select", { id: "league", name: "league", onchange: () => { league = leagueSelect.value; } },
        h("option", { value: "", text: t("lg_none") }),
        counting.map((lg) => h("option", { value: lg.id, selected: lg.id === league ? true : null, text: lg.name }))) : null;
      const failed = leagues.find((lg) => lg.error);
      replace(leagueBox, leagueSelect ? h("label", {}, t("lg_countsFor"), leagueSelect) : null,
        failed ? h("p", { class: "error", id: "league-error", text: errorText(failed.error) }) : null);
    };
    select.addEventListener("change", () => { gameTouched = true; chooser.show(); });
    chooser.show();
    const formEl = h("form", { class: "card", id: "create-form" }, h("h2", { text: t("newTable") }), h("label", {}, t("game"), select), leagueBox, optionsBox, create);
    formEl.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!live) { toast(errorText(staleRefusal())); return; }
      create.disabled = true;
      try {
        const counts = leagueSelect?.value || null;
        const options = await chooser.read();
        const table = await api("/api/tables", { method: "POST", body: { game: select.value, options: counts ? { ...options, league: counts } : options } });
        storage.set(`tc.host.${table.code}`, { token: table.host_token, join_url: table.join_url, game: select.value, league: counts });
        history.pushState({}, "", `/?table=${table.code}`);
        tableScreen(table.code);
      } catch (err) {
        toast(errorText(err));
        create.disabled = false;
      }
    });
    // A café's or club room's staff: their venue's tables and its tents (venue.js). Under the
    // form, not in the header, which has no room left for it on a phone.
    const venueLink = h("p", { class: "venue-link" }, h("span", { class: "muted", text: t("vn_linkHint") }), " ",
      h("a", { class: "btn ghost small", href: "/venue", id: "venue-link", text: t("vn_link") }));
    replace(main, formEl, leaguesCard(leagueList), venueLink, decks, pastSlot);
    replace(pastSlot, pastGames(past));
  };
  const loadPast = () => api("/api/history").then((r) => { past = r.games; replace(pastSlot, pastGames(past)); }, () => {});
  // The choice comes in under the game once the leagues are named (not under a finger that is
  // tapping the form). Opened from a league's link, the form turns to a game the league counts
  // unless the organiser has already chosen one.
  const loadLeagues = () => knownLeagues(linked).then((found) => afterTap(() => {
    leagues = found;
    organisedLeagues(leagueList, leagues);
    const wanted = leagues.find((lg) => lg.id === linked && !lg.error);
    const counted = games.find((g) => wanted?.games.includes(g.name));
    if (counted && !gameTouched && !wanted.games.includes(chosen)) { chosen = counted.name; draw(); } else showLeague();
  }));
  redraw = () => { draw(); loadDecks(); };
  draw();
  loadDecks();
  loadPast();
  loadLeagues();
  // The decks, past games and leagues come below the form once the server answers again.
  if (!live) untilServerAnswers(() => { live = true; markStale(false); loadDecks(); loadPast(); loadLeagues(); });
}

// Ask the server again (at once when the browser says it is back online, else every few
// seconds), and call `then` once it answers.
function untilServerAnswers(then) {
  let wait = 1000;
  let timer = null;
  let asking = false;
  const again = () => {
    clearTimeout(timer);
    if (asking) return;
    asking = true;
    api("/api/config").then(() => { window.removeEventListener("online", again); then(); },
      () => { asking = false; timer = setTimeout(again, wait); wait = Math.min(wait * 2, 5000); });
  };
  window.addEventListener("online", again);
  timer = setTimeout(again, wait);
}

// A seat for a new phone (the old one lost its storage, or broke): the host confirms, the
// server gives the seat a new token, and the table screen shows it as a QR code to scan.
async function handOver(code, hostToken, player) {
  let seat;
  try {
    seat = await api(`/api/tables/${code}/players/${encodeURIComponent(player.id)}/handover`, { method: "POST", token: hostToken });
  } catch (err) {
    toast(errorText(err));
    return;
  }
  const dialog = h("dialog", { class: "sheet handover", id: "handover" });
  const draw = () => {
    dialog.setAttribute("aria-label", t("handOverTitle", { name: player.name }));
    replace(dialog, h("header", {}, h("h2", { text: t("handOverTitle", { name: player.name }) }),
      h("button", { type: "button", class: "btn ghost", text: t("close"), onclick: () => dialog.close() })),
    h("img", { class: "qr", alt: t("handOverQr", { name: player.name }), src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(seat.qr_svg)}` }),
    h("p", { text: t("handOverHint") }), h("p", { class: "join-url small", text: seat.url }));
  };
  draw();
  window.addEventListener("languagechange-app", draw);
  dialog.addEventListener("close", () => { window.removeEventListener("languagechange-app", draw); dialog.remove(); });
  document.body.append(dialog);
  dialog.showModal();
}

function tableScreen(code) {
  const saved = storage.get(`tc.host.${code}`);
  if (!saved) { history.replaceState({}, "", "/"); setupScreen(); return; }
  if (saved.game) loadGame(saved.game).catch(() => {}); // while the table connects
  // The QR code is what the room needs first (and the screen's largest picture): fetched first.
  // Asked for with the host's token, it carries the table's join secret (a phone that scanned
  // it joins even where someone guessing codes spent its address's tries); the URL written
  // under it is for typing, without the secret (typed, it is a code like any other).
  const qr = h("img", { class: "qr" });
  api(`/api/tables/${code}/qr.svg`, { token: saved.token, text: true })
    .then((svg) => { qr.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`; }, () => {});
  const codeLabel = h("div", { class: "muted" });
  const joinHint = h("div", { class: "muted small" });
  const joinPanel = h("section", { class: "card join-panel" }, qr,
    h("div", { class: "code-box" }, codeLabel, h("div", { class: "table-code", id: "table-code", text: code }),
      joinHint, h("div", { class: "join-url", text: (saved.join_url || "").split("#")[0] })));
  const wordJoinPanel = () => {
    qr.alt = t("qrAlt");
    codeLabel.textContent = t("tableCode");
    joinHint.textContent = t("joinHint");
  };
  wordJoinPanel();
  const playersEl = h("section", { class: "card", id: "players" });
  const controls = h("div", { class: "controls", id: "controls" });
  const timerRoot = h("div", { id: "timer" });
  const boardEl = h("section", { class: "card board", id: "board" });
  const afterEl = h("div", { id: "after-game" });
  const status = h("span", { class: "pill", id: "status" });
  // Start game sits right under the QR code, in sight however many join: in the lobby the
  // players fill the wide column, empty until the game starts; then they go under the controls.
  const side = h("div", { class: "col side" }, joinPanel, controls);
  const wide = h("div", { class: "col wide" }, afterEl, boardEl, timerRoot);
  const layout = h("div", { class: "table-layout" }, side, wide);
  replace(main, layout);
  document.getElementById("header-extra").replaceChildren(status);
  redraw = wordJoinPanel;

  const { send, socket, current, whenLive } = connectTable({
    code, token: saved.token, seat: "table", timerRoot, statusEl: status,
    onFatal: (why) => toast(errorText(why)),
    render: function render(state) {
      const name = names(state);
      const active = state.players.filter((p) => !p.removed);
      // Once the game is under way the QR code shrinks to a corner for late joiners and the
      // game takes the room.
      layout.classList.toggle("started", state.status !== "lobby");
      if (state.status === "lobby") wide.prepend(playersEl); else side.append(playersEl);
      patch(playersEl, v("h2", {}, `${t("players")} (${active.length})`),
        active.length ? v("ul", { class: "players" }, active.map((p) => v("li", { dataset: { player: p.id } },
          v("span", { class: `dot${online(p.id) ? " on" : ""}`, role: "img", "aria-label": online(p.id) ? t("online") : t("offline") }), v("span", { class: "pname", text: p.name }),
          state.status !== "ended" ? v("span", { class: "seat-actions" },
            confirmButton({ cls: "btn ghost small", label: t("handOver"), "aria-label": `${t("handOver")}: ${p.name}`, dataset: { handOver: p.id }, question: t("handOverConfirm", { name: p.name }), onConfirm: whenLive(() => handOver(code, saved.token, p)) }),
            confirmButton({ cls: "btn ghost small", label: t("remove"), "aria-label": `${t("remove")}: ${p.name}`, dataset: { remove: p.id }, question: t("removeConfirm", { name: p.name }), onConfirm: () => send({ type: "table.remove_player", player_id: p.id }).catch(() => {}) })) : null)))
          : v("p", { class: "muted", text: t("noPlayers") }));
      // A refused command has said why (a toast): nothing is left to catch.
      const btn = (label, cmd, cls = "btn") => v("button", { type: "button", class: cls, text: label, onclick: () => send(cmd).catch(() => {}) });
      patch(controls,
        state.status === "lobby" ? btn(t("start"), { type: "table.start_game" }, "btn primary big") : null,
        state.status !== "ended" ? btn(state.locked ? t("unlock") : t("lock"), { type: state.locked ? "table.unlock" : "table.lock" }) : null,
        state.status !== "ended" ? btn(t("undo"), { type: "undo" }) : null,
        v("button", { type: "button", class: "btn ghost", text: t("history"), onclick: whenLive(() => openHistory(code, saved.token, state)) }),
        v("button", { type: "button", class: "btn ghost", id: "open-record", text: t("rec_button"), onclick: whenLive(() => openRecord(code, saved.token)) }),
        state.status !== "ended" ? confirmButton({ cls: "btn danger", id: "end-game", label: t("end"), question: t("confirmEnd"), onConfirm: () => send({ type: "table.end_game" }).catch(() => {}) }) : null,
        v("button", { type: "button", class: "btn ghost", text: t("newTable"), onclick: () => { history.pushState({}, "", saved.league ? `/?league=${encodeURIComponent(saved.league)}` : "/"); location.reload(); } }));
      const mod = GAMES[state.game];
      const ctx = { me: null, code, gameNo: state.game_no, name, send, isHost: true, toast, rerender: () => render(current()), ended: state.status === "ended", now: () => socket.clock.serverNow() };
      patch(boardEl, v("h2", {}, state.title, state.status === "ended" ? ` — ${t("ended")}` : ""),
        state.result ? v("p", { class: `banner ${resultTone(state.result)}`, id: "result", text: resultText(state.result, state.game, name) }) : null,
        mod ? mod.board(state.game_state, ctx) : null);
      boardEl.dataset.status = state.status;
      replace(afterEl, state.status === "ended" ? rematchPanel(state, send) : null);
    },
  });
}

const code = new URLSearchParams(location.search).get("table");
if (code) tableScreen(code.toUpperCase()); else setupScreen();
