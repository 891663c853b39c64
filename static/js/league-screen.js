// /league: a club's league. With the organiser's token (in the #fragment of the link the
// league was made with) it is the room's screen for a projector: standings, the rating chart,
// the round's pairings with each table's QR code, and every table still playing, read anew
// whenever a table of the league moves (the room's socket tells). Without it, the standings
// anyone may read (a player's own row marked: #me=NAME). With no league at all, the form that
// starts one. The director keeps the roster there too: renames, merges, withdraws and brings
// back players, and is told when a known name sits down on a new phone. A round is seen (and
// two players swapped) before its tables are made, taken back while nobody has begun it, and
// its boards started all at once.

import { api, storage } from "./api.js";
import { afterTap, h, replace, saveFile, toast } from "./dom.js";
import { gameNow, languageButton, registerServiceWorker, untilOptions } from "./common.js";
import { currentLanguage, errorText, t } from "./i18n.js";
import { ratingChart } from "./league-chart.js";
import { tapBoards } from "./league-qr.js";
import { printButton, printedPairings } from "./league-print.js";
import { LiveSocket } from "./socket.js";
import { confirmButton } from "./confirm.js";
import { patch } from "./view.js";
import { sandText, throttledReads } from "./rooms.js";

const main = document.getElementById("main");
// The room is read when its socket says something changed; this slow poll is only the safety
// net while the socket is down (it comes back by itself, and says "changed" when it does).
const SAFETY_POLL_MS = 30000;
registerServiceWorker();
languageButton();

const params = new URLSearchParams(location.hash.slice(1));
const leagueId = params.get("league");
const me = params.get("me");
if (leagueId && params.get("token")) {
  // The token is kept on this device and taken out of the address bar, where a screenshot
  // of the projector or a shared link would carry it.
  storage.set(`tc.league.${leagueId}`, params.get("token"));
  params.delete("token");
  history.replaceState(null, "", `/league#${params}`);
}
const token = leagueId ? storage.get(`tc.league.${leagueId}`) : null;
let last = null;
let offsetMs = 0; // the server's clock minus this device's, for the sand between two answers

function newLeagueForm() {
  const name = h("input", { id: "league-name", maxlength: 60, required: true, autocomplete: "off" });
  const form = h("form", { class: "card", id: "league-form" }, h("h2", { text: t("lg_new") }),
    h("label", {}, t("lg_name"), name), h("button", { type: "submit", class: "btn primary big", id: "league-create", text: t("lg_create") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const made = await api("/api/leagues", { method: "POST", body: { name: name.value } });
      location.hash = `league=${made.id}&token=${made.token}`;
      location.reload();
    } catch (err) { toast(errorText(err)); }
  });
  replace(main, form);
}

// Wins count a shared first place as a share (a tie: 0.5); the spread has its sign.
const winsText = (w) => String(Math.round(w * 100) / 100);
const spreadText = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

function standingsTable(rows) {
  if (!rows.length) return h("p", { class: "muted", id: "lg-empty", text: t("lg_empty") });
  const head = [t("lg_player"), t("lg_games"), t("lg_wins"), t("lg_spread"), t("lg_rating")];
  return h("table", { class: "stats lg-standings", id: "lg-standings" },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col", text: x })))),
    h("tbody", {}, rows.map((r) => h("tr", { class: [r.name === me ? "me" : "", r.withdrawn ? "lg-out" : ""].join(" ").trim() },
      h("th", { scope: "row" }, h("span", { class: "lg-rank", text: `${r.rank}.` }), r.name,
        r.withdrawn ? h("span", { class: "lg-withdrawn", text: ` · ${t("lg_withdrawn")}` }) : null),
      h("td", { text: String(r.games) }), h("td", { text: winsText(r.wins) }),
      h("td", { class: "lg-spread", text: spreadText(r.spread) }), h("td", { text: r.rating.toFixed(1) })))));
}

function liveTables(tables) {
  if (!tables.length) return h("p", { class: "muted", id: "lg-no-live", text: t("lg_noLive") });
  return h("div", { class: "lg-live", id: "lg-live" }, tables.map((tb) => h("article", { class: "lg-table", dataset: { code: tb.code } },
    h("div", { class: "lg-table-head" }, h("strong", { text: `${t(`game.${tb.game}`)} · ${tb.code}` }),
      tb.status === "lobby" ? h("span", { class: "lg-gathering" }, h("span", { class: "pill", text: t("lg_lobby") }), closeButton(tb.code))
        : h("span", { class: "lg-sand", dataset: { code: tb.code }, text: sandText(tb.timer, offsetMs) || "" })),
    h("ul", { class: "lg-players" }, tb.players.map((p) => h("li", { class: p.name === tb.turn ? "lg-turn" : "" },
      h("span", { text: p.name === tb.turn ? `▶ ${p.name}` : p.name }), p.score === null ? null : h("b", { text: String(p.score) })))))));
}

// A table still gathering that nobody is coming to (#43): the organiser closes it, and it
// leaves this list; a game that has started is ended at its own table.
function closeButton(code) {
  const close = h("button", { type: "button", class: "btn small lg-close", dataset: { code }, text: t("lg_closeTable"), onclick: async () => {
    close.disabled = true;
    try {
      await api(`/api/leagues/${leagueId}/tables/${code}/close`, { method: "POST", token, body: {} });
      await refresh();
    } catch (err) { toast(errorText(err)); close.disabled = false; }
  } });
  return close;
}

// Each board's QR code, asked for once with the organiser's token (in a header: its link
// carries the table's join secret, and a URL would put the token in logs) and kept while the
// page is open: the room is read again at every move at a table, a board's code never changes.
// A code that could not be had is asked for again at the next drawing.
const boardQrs = new Map(); // table code -> Promise of its data: URL
function boardQr(code, alt) {
  if (!boardQrs.has(code)) {
    boardQrs.set(code, api(`/api/leagues/${leagueId}/tables/${code}/qr.svg`, { token, text: true })
      .then((svg) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
        () => { boardQrs.delete(code); return null; }));
  }
  const img = h("img", { class: "qr", alt, width: 104, height: 104 });
  boardQrs.get(code).then((url) => { if (url) img.src = url; });
  // Too small to scan from a seat: a tap shows it big (league-qr.js).
  return h("button", { type: "button", class: "lg-qr-open", "aria-label": t("lg_boardQr", { code }) }, img);
}

function roundCard(round) {
  if (!round) return h("p", { class: "muted", id: "lg-no-round", text: t("lg_noRound") });
  return h("div", { id: "lg-round" }, h("h3", { text: t("lg_round", { n: round.no }) }),
    h("div", { class: "lg-boards" }, round.tables.map((tb, i) => h("div", { class: "lg-board", dataset: { code: tb.code } },
      boardQr(tb.code, tb.join_url.split("#")[0]),
      h("div", {}, storage.get(`tc.host.${tb.code}`)
        ? h("a", { class: "lg-host", href: `/?table=${tb.code}`, target: "_blank", text: tb.code })
        : h("strong", { text: tb.code }),
        // a round at a venue's tables (#44): where the pair sits, as its tent says
        tb.place ? h("div", { class: "lg-place", text: t("lg_place", { label: tb.place }) }) : null,
        h("div", { class: "lg-pair", text: round.pairs[i].join(" – ") }))))),
    round.bye ? h("p", { class: "lg-bye", text: t("lg_bye", { name: round.bye }) }) : null);
}

// The game the round's tables play and its options (the start page's form for the game,
// js/games/*.js: a BLANK round needs its deck), kept through the screen's redraws, which put
// the same form back with what the organiser chose in it: BLANKO (the league's first round
// game) until the organiser chooses another of the league's rated games.
let roundGame = null;
const roundForms = {};
window.addEventListener("languagechange-app", () => { for (const g of Object.keys(roundForms)) delete roundForms[g]; });

// `{box, read}`: the game's options drawn in a box of their own (moved from one drawing of
// the screen to the next) and what they say; null until the game's module is here, and
// `whenLoaded` is called then.
function roundForm(game, whenLoaded) {
  if (!roundForms[game]) {
    const mod = gameNow(game, whenLoaded);
    if (!mod) return null;
    const form = mod.optionsForm ? mod.optionsForm() : null;
    const box = h("div", { class: "lg-round-options", dataset: { game } });
    patch(box, form ? form.el : null);
    roundForms[game] = { box, read: async () => (form ? form.read(box) : {}) };
  }
  return roundForms[game];
}

// The round as the director runs it (#43 items 10, 11), kept through the room's redraws: who
// is ticked present, the pairing seen before the tables are made (two players tapped in turn
// swap places), the question the server asks before a round is made over one still on, and
// what "Start all" answered.
const present = { added: [], unticked: new Set() };
let preview = null; // {pairs, bye}: the Swiss system's pairing, as the director swapped it
let tapped = null; // the player tapped first, swapped with the next one tapped
let unfinished = null; // {round, tables}: the round before is still on at these boards
let startSaid = null; // what "Start all" answered (its round's number in it)
let openNext = false; // "Pair again": the next drawing opens "Next round" on the round's players

function swapWith(name) {
  if (tapped === null || tapped === name) { tapped = tapped === name ? null : name; return; }
  const other = tapped;
  const swap = (n) => (n === other ? name : n === name ? other : n);
  preview = { pairs: preview.pairs.map((p) => p.map(swap)), bye: preview.bye && swap(preview.bye) };
  tapped = null;
}

// The organiser ticks who is here, chooses the game, sees the pairing (and swaps two players
// if they will) and makes the round's tables (folded away on the projector).
function nextRound(rows, gamesOnOffer) {
  const offered = [...new Set([...rows.filter((r) => !r.withdrawn).map((r) => r.name), ...present.added])];
  const previewBox = h("div", { class: "lg-preview", id: "lg-preview" });
  const seen = (changed) => { if (changed) { preview = null; tapped = null; } drawPreview(); };
  const tick = (name) => h("label", { class: "check" }, h("input", { type: "checkbox", checked: !present.unticked.has(name), value: name,
    onchange: (e) => { present.unticked[e.target.checked ? "delete" : "add"](name); seen(true); } }), name);
  const box = h("div", { class: "lg-present" }, offered.map(tick));
  const ticked = () => [...box.querySelectorAll("input:checked")].map((i) => i.value);
  const extra = h("input", { id: "lg-add-name", maxlength: 24, placeholder: t("lg_addPlayer"), enterkeyhint: "done" });
  const addName = () => {
    const name = extra.value.trim();
    if (!name) return;
    present.unticked.delete(name);
    if (!present.added.includes(name)) present.added.push(name);
    if (!offered.includes(name)) { offered.push(name); box.append(tick(name)); }
    extra.value = "";
    seen(true);
  };
  extra.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); addName(); } });
  const add = h("button", { type: "button", class: "btn small", text: t("lg_add"), onclick: addName });
  if (!gamesOnOffer.includes(roundGame)) roundGame = gamesOnOffer[0] ?? null;
  const optionsBox = h("div");
  const asking = h("div", { id: "lg-unfinished" });
  const send = async (over = {}) => {
    make.disabled = true;
    try {
      const form = roundGame ? roundForm(roundGame, () => {}) : null;
      const chosen = roundGame ? { game: roundGame, options: form ? await form.read() : {} } : {};
      const edited = preview ? { pairs: preview.pairs, bye: preview.bye } : {};
      const made = await api(`/api/leagues/${leagueId}/rounds`, { method: "POST", token, body: { present: ticked(), ...chosen, ...edited, ...over } });
      // Each table's host token is kept as the table's screen keeps its own (table-screen.js),
      // so a board's code opens that table's screen on this device.
      for (const tb of made.tables) storage.set(`tc.host.${tb.code}`, { token: tb.host_token, join_url: tb.join_url, game: made.game, league: leagueId });
      preview = null; tapped = null; unfinished = null; startSaid = null;
      document.getElementById("lg-next").open = false; // folded away again, the round on show
      document.activeElement?.blur();
      await refresh();
    } catch (err) {
      // Asked, not refused: the round before is still on at some boards. Made only if the director says so.
      if (err.code === "league/round_unfinished") { unfinished = err.params; ask(); } else toast(errorText(err));
    } finally { make.disabled = false; }
  };
  const ask = () => patch(asking, unfinished ? confirmButton({ id: "lg-over", cls: "btn small", asked: true, label: t("lg_makeAnyway"),
    question: t("lg_unfinishedQ", { n: unfinished.round, tables: unfinished.tables.join(", ") }),
    onConfirm: () => send({ over_unfinished: true }), onCancel: () => { unfinished = null; ask(); } }) : null);
  const make = h("button", { type: "button", class: "btn primary", id: "lg-make-round", onclick: () => send() });
  const look = h("button", { type: "button", class: "btn small", id: "lg-see-pairs", text: t("lg_preview"), onclick: async () => {
    try {
      preview = await api(`/api/leagues/${leagueId}/pairings`, { method: "POST", token, body: { present: ticked() } });
      seen(false);
    } catch (err) { toast(errorText(err)); }
  } });
  function drawPreview() {
    make.textContent = t(preview ? "lg_makeAsShown" : "lg_makeRound");
    if (!preview) { replace(previewBox); return; }
    const chip = (name) => h("button", { type: "button", class: name === tapped ? "btn small lg-swap tapped" : "btn small lg-swap",
      "aria-pressed": String(name === tapped), dataset: { name }, text: name, onclick: () => { swapWith(name); drawPreview(); } });
    replace(previewBox, h("p", { class: "muted", text: t("lg_swapHint") }),
      h("ol", { class: "lg-preview-pairs" }, preview.pairs.map(([a, b]) => h("li", {}, chip(a), " – ", chip(b)))),
      preview.bye ? h("p", { class: "lg-preview-bye" }, `${t("lg_byeShort")} `, chip(preview.bye)) : null);
  }
  const showOptions = () => {
    const picked = roundGame;
    const form = picked ? roundForm(picked, showOptions) : null;
    replace(optionsBox, form?.box ?? null);
    if (picked) untilOptions(make, picked, form, () => roundGame === picked);
  };
  const game = gamesOnOffer.length ? h("select", { id: "lg-round-game", onchange: () => { roundGame = game.value; showOptions(); } },
    gamesOnOffer.map((g) => h("option", { value: g, selected: g === roundGame ? true : null, text: t(`game.${g}`) }))) : null;
  showOptions();
  drawPreview();
  ask();
  return h("details", { class: "lg-next", id: "lg-next" }, h("summary", { text: t("lg_nextRound") }), box, h("div", { class: "row" }, extra, add),
    game ? h("label", { class: "lg-round-game" }, t("game"), game) : null, optionsBox, look, previewBox, make, asking,
    h("div", { class: "row lg-downloads" }, h("button", { type: "button", class: "btn small", id: "lg-standings-csv", text: `${t("rec_download")}: ${t("lg_standings")}`, onclick: () => download(`/api/leagues/${leagueId}?format=csv`) }),
      ["csv", "bgstats", "tsh"].map((f) => h("button", { type: "button", class: "btn small", dataset: { format: f }, text: `${t("rec_download")}: ${t(`rec_${f}`)}`,
        onclick: () => download(`/api/leagues/${leagueId}/record?format=${f}&tz=${-new Date().getTimezoneOffset()}&lang=${currentLanguage()}`) }))));
}

// The latest round's own controls: "Start all" while a board is gathering (each starts by
// itself once its two players sit; this starts those where they sit with someone else too,
// and says which wait for whom), and, while no game has begun at any board, delete it or pair
// it again (deleted, then "Next round" opens on its players with the new pairing to see).
function roundActions(round) {
  if (!round) return null;
  const row = h("div", { class: "row lg-round-actions", id: "lg-round-actions" });
  if (round.tables.some((tb) => tb.status === "lobby")) {
    row.append(h("button", { type: "button", class: "btn small", id: "lg-start-all", text: t("lg_startAll"), onclick: async () => {
      try {
        startSaid = await api(`/api/leagues/${leagueId}/rounds/${round.no}/start`, { method: "POST", token, body: {} });
        document.activeElement?.blur(); // the room is drawn again, with what it said
        await refresh();
      } catch (err) { toast(errorText(err)); }
    } }));
  }
  if (!round.tables.some((tb) => tb.started)) {
    for (const [id, key, again] of [["lg-repair", "lg_repair", true], ["lg-delete-round", "lg_deleteRound", false]]) {
      const box = h("span");
      patch(box, confirmButton({ id, cls: "btn small", label: t(key), question: t(`${key}Q`, { n: round.no }), onConfirm: () => takeBack(round, again) }));
      row.append(box);
    }
  }
  const said = startSaid?.round === round.no ? startSaid : null;
  return h("div", {}, row.childElementCount ? row : null, said ? h("ul", { class: "lg-start-said", id: "lg-start-said" },
    said.started.length ? h("li", { text: t("lg_started", { tables: said.started.join(", ") }) }) : null,
    said.waiting.map((w) => h("li", { text: t("lg_waitsFor", { table: w.table, names: w.for.join(", ") }) })),
    said.refused.map((r) => h("li", { text: t("lg_notStarted", { table: r.table, why: errorText(r.error) }) }))) : null);
}

async function takeBack(round, again) {
  try {
    await api(`/api/leagues/${leagueId}/rounds/${round.no}`, { method: "DELETE", token, body: {} });
    startSaid = null;
    if (again) {
      const players = [...round.pairs.flat(), ...(round.bye ? [round.bye] : [])];
      const offered = [...(last?.standings || []).map((r) => r.name), ...present.added];
      present.added = [...new Set([...present.added, ...players])];
      present.unticked = new Set(offered.filter((n) => !players.includes(n)));
      preview = await api(`/api/leagues/${leagueId}/pairings`, { method: "POST", token, body: { present: players } });
      tapped = null;
      openNext = true;
    }
    document.activeElement?.blur();
    await refresh();
  } catch (err) { toast(errorText(err)); }
}

// The league's games and the organiser's rulings on them (void, correct, restore; each with its
// reason), read only while "Games and corrections" is open: a season's games would be most of
// the room's answer, which is read at every move. Newest first.
let results = null; // the last list, while the fold is open
async function readResults() {
  try {
    results = (await api(`/api/leagues/${leagueId}/results`, { token })).results;
    const fold = document.getElementById("lg-results");
    // Drawn in the fold (the rest of the screen is as it was), unless the organiser is typing a ruling.
    if (fold?.open && !fold.querySelector(".lg-result :focus")) replace(fold, fold.querySelector("summary"), ...resultRows());
  } catch (err) { toast(errorText(err)); }
}

const resultRows = () => (results || []).slice().reverse().map(resultRow);

function resultsFold() {
  const fold = h("details", { class: "lg-results", id: "lg-results" }, h("summary", { text: t("lg_results") }), ...resultRows());
  fold.addEventListener("toggle", () => {
    if (!fold.open) results = null;
    else if (!results) readResults();
  });
  return fold;
}

const RULED = { void: "lg_rulingVoid", correct: "lg_rulingCorrect", restore: "lg_rulingRestore" };
function resultRow(g) {
  const ruled = g.rulings.at(-1);
  const reason = h("input", { class: "lg-reason", maxlength: 200, placeholder: t("lg_reason"), "aria-label": t("lg_reason") });
  // BLANKO is corrected by its scores, BLANK and BLDNG by their winner; Rank & File is voided or restored.
  const scores = g.game === "blanko" ? g.players.map((p) => h("input", { type: "number", class: "lg-score", value: String(p.score ?? 0), "aria-label": p.name, dataset: { name: p.name } })) : [];
  const winner = g.game === "blank" || g.game === "bldng"
    ? h("select", { class: "lg-winner", "aria-label": t("lg_correct") }, g.players.map((p) => h("option", { value: p.name, selected: g.winners.includes(p.name) ? true : null, text: p.name }))) : null;
  const rule = async (action) => {
    const ruling = { table: g.table, no: g.no, action, reason: reason.value };
    if (action === "correct" && scores.length) ruling.scores = Object.fromEntries(scores.map((i) => [i.dataset.name, Number(i.value)]));
    if (action === "correct" && winner) ruling.winners = [winner.value];
    try {
      await api(`/api/leagues/${leagueId}/corrections`, { method: "POST", token, body: ruling });
      document.activeElement?.blur();
      await Promise.all([readResults(), refresh()]);
    } catch (err) { toast(errorText(err)); }
  };
  const button = (action, key) => h("button", { type: "button", class: "btn small", dataset: { action }, text: t(key), onclick: () => rule(action) });
  const line = g.players.map((p) => (p.score === null ? p.name : `${p.name} ${p.score}`)).join(" – ");
  return h("div", { class: "lg-result", dataset: { table: g.table, no: String(g.no) } },
    h("div", {}, h("strong", { text: `${t(`game.${g.game}`)} · ${g.table} #${g.no}` }), ` ${line} `,
      g.counted ? null : h("span", { class: "pill", text: t("lg_notCounted") })),
    ruled ? h("div", { class: "muted lg-ruled", text: t(RULED[ruled.action], { reason: ruled.reason }) }) : null,
    h("div", { class: "row lg-rule" }, reason, ...scores, winner,
      scores.length || winner ? button("correct", "lg_correct") : null, button("void", "lg_void"), button("restore", "lg_restore")));
}

// The director keeps the roster: a player of the standings renamed, merged into another row
// (one person under two names: asked first, as it cannot be taken back), withdrawn from the
// pairings or brought back. The player chosen stays chosen through the room's redraws.
let rosterPick = null;
function rosterForm(rows) {
  if (!rows.length) return null;
  const names = rows.map((r) => r.name);
  if (!names.includes(rosterPick)) rosterPick = names[0];
  const options = (picked) => names.map((n) => h("option", { value: n, text: n, selected: n === picked ? true : null }));
  const who = h("select", { id: "lg-roster-player" }, options(rosterPick));
  const newName = h("input", { id: "lg-rename-to", maxlength: 24, placeholder: t("lg_newName"), autocomplete: "off" });
  const into = h("select", { id: "lg-merge-into" }, options(names.find((n) => n !== rosterPick)));
  const send = async (action, fields = {}) => {
    try {
      await api(`/api/leagues/${leagueId}/players/${action}`, { method: "POST", token, body: { player: who.value, ...fields } });
      if (action === "rename") rosterPick = newName.value.trim();
      document.activeElement?.blur();
      await refresh();
    } catch (err) { toast(errorText(err)); }
  };
  const rename = h("button", { type: "button", class: "btn small", id: "lg-rename", text: t("lg_rename"), onclick: () => send("rename", { name: newName.value }) });
  const mergeBox = h("span");
  const out = h("button", { type: "button", class: "btn small", id: "lg-withdraw" });
  const redraw = () => {
    rosterPick = who.value;
    const withdrawn = rows.find((r) => r.name === who.value)?.withdrawn;
    out.textContent = t(withdrawn ? "lg_bringBack" : "lg_withdraw");
    out.onclick = () => send(withdrawn ? "bring_back" : "withdraw");
    patch(mergeBox, confirmButton({ id: "lg-merge", cls: "btn small", label: t("lg_merge"), key: `${who.value}\n${into.value}`,
      question: t("lg_mergeQ", { name: who.value, into: into.value }), onConfirm: () => send("merge", { into: into.value }) }));
  };
  who.addEventListener("change", redraw);
  into.addEventListener("change", redraw);
  redraw();
  return h("details", { class: "lg-roster", id: "lg-roster" }, h("summary", { text: t("lg_roster") }),
    h("label", {}, t("lg_player"), who), h("div", { class: "row" }, newName, rename),
    h("div", { class: "row" }, h("label", {}, t("lg_mergeInto"), into), mergeBox), out);
}

// A known name sat down on a phone its player has not used before: theirs, or someone else's
// in their name, for the director to look at while the table is on.
function newPhones(seen) {
  return seen.length ? h("ul", { class: "lg-new-phones", id: "lg-new-phones" },
    seen.map((s) => h("li", { text: t("lg_newPhone", { name: s.name, table: s.table }) }))) : null;
}

// A file of the league's, fetched with the organiser's token and handed to the browser to save.
async function download(path) {
  try {
    const r = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
    if (!r.ok) throw new Error(String(r.status));
    const name = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "")?.[1] || "league";
    saveFile(await r.blob(), name);
  } catch { toast(errorText("net/offline")); }
}

function draw() {
  const doc = last;
  if (!doc) return;
  // Each column stays where the director scrolled it: drawn anew at every move of the tables,
  // it jumped back to its top, and a tap aimed below landed on what was there now (#43). Read
  // first: the next round's options box moves into the new drawing, and the old column shrinks.
  const scrolled = [...main.querySelectorAll(".lg-room > .lg-col")].map((col) => col.scrollTop);
  document.title = `${doc.name} · ${t("lg_title")}`;
  const standings = h("section", { class: "card lg-col" }, h("h2", { text: `${doc.name} · ${t("lg_standings")}` }),
    standingsTable(doc.standings), ratingChart(doc.chart, doc.standings));
  if (!token) { replace(main, standings); return; }
  const rosterOpen = document.getElementById("lg-roster")?.open;
  const roster = rosterForm(doc.standings);
  if (roster) { roster.open = Boolean(rosterOpen); standings.append(roster); }
  const keepOpen = document.getElementById("lg-next")?.open || openNext;
  openNext = false;
  const next = nextRound(doc.standings, doc.round_games);
  next.open = Boolean(keepOpen);
  const ruling = resultsFold();
  ruling.open = results !== null;
  // A table of any game the league counts (BLANK or BLDNG four at a table), made on the start
  // page in a new tab: the projector keeps the room's screen.
  const newTable = h("a", { class: "btn small", id: "lg-new-table", href: `/?league=${encodeURIComponent(leagueId)}`, target: "_blank", text: t("lg_newTable") });
  replace(main, printedPairings(doc.name, doc.round), h("div", { class: "lg-room", id: "lg-room" }, standings,
    h("section", { class: "card lg-col" }, h("h2", { text: t("lg_pairings") }), roundCard(doc.round), roundActions(doc.round), newTable, next, ruling),
    h("section", { class: "card lg-col" }, h("h2", { text: t("lg_live") }), newPhones(doc.new_phones || []), liveTables(doc.tables))));
  main.querySelectorAll(".lg-room > .lg-col").forEach((col, i) => { col.scrollTop = scrolled[i] ?? 0; });
}

let undrawn = false; // a read not drawn yet, the organiser busy with a form of the room's or a ruling
function drawUnlessTyping() {
  const busy = ["lg-next", "lg-results", "lg-roster", "lg-round-actions"].some((id) => document.getElementById(id)?.contains(document.activeElement));
  if (!undrawn || busy) return;
  // Nor under a finger: the room is drawn anew at every move of its tables, and a drawing
  // between a press and its release put the release on another element, so the tap was no
  // click (a swap's chip, "Start all": lost now and then in WebKit, #43).
  afterTap(() => {
    if (!undrawn) return;
    undrawn = false;
    draw();
  });
}

async function read() {
  try {
    last = await api(token ? `/api/leagues/${leagueId}/room` : `/api/leagues/${leagueId}`, { token });
    if (results) readResults(); // a game ended or was ruled on: the open list follows
    if (last.server_ms) offsetMs = last.server_ms - Date.now();
    // Not while the organiser is typing a name or ticking players: their form would be redrawn
    // away. The sand's tick draws it once they are done.
    undrawn = true;
    drawUnlessTyping();
  } catch (err) {
    if (!last) replace(main, h("p", { class: "error", text: errorText(err) }));
    else toast(errorText(err));
  }
}

const refresh = throttledReads(read);

// The organiser's room socket: "room.changed" when it opens and whenever a table of the league
// moves or a table or round is added. Refused (not the organiser's token, no such league), it
// stops, and the read that follows says why.
const ROOM_FATAL = new Set(["auth/bad_token", "auth/missing_token", "league/unknown"]);
class RoomSocket extends LiveSocket {
  path() { return `/ws/league/${encodeURIComponent(leagueId)}`; }

  receive(msg) {
    if (msg.type === "room.changed") {
      this.backoff = 500;
      this.onStatus("online");
      refresh();
    } else if (msg.type === "error" && ROOM_FATAL.has(msg.error?.code)) this.fatal(msg.error.code);
  }
}

let safetyNet = null;
function roomStatus(now) {
  document.body.dataset.room = now;
  if (now === "online") { clearInterval(safetyNet); safetyNet = null; }
  else if (now === "offline" && !safetyNet) safetyNet = setInterval(refresh, SAFETY_POLL_MS);
}

window.addEventListener("languagechange-app", draw);
if (!leagueId) newLeagueForm();
else {
  refresh();
  printButton();
  tapBoards(main, (code) => boardQrs.get(code) ?? Promise.resolve(null));
  if (token) new RoomSocket({ token, onStatus: roomStatus, fatalCloses: new Map([[4401, "auth/bad_token"], [4404, "league/unknown"]]),
    onFatal: () => { clearInterval(safetyNet); safetyNet = null; refresh(); } }).connect();
  // The sand between two answers: only the digits change (and a read kept from the organiser's
  // form is drawn, once they are done with it).
  if (token) setInterval(() => {
    drawUnlessTyping();
    for (const tb of last?.tables || []) {
      const el = main.querySelector(`.lg-sand[data-code="${tb.code}"]`);
      if (el) el.textContent = sandText(tb.timer, offsetMs) || "";
    }
  }, 1000);
}
