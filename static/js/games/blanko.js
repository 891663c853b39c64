// BLANKO: the score sheet, a tile keyboard for entering words, challenges, BLANKO cards,
// the final rack count, and a per-turn score chart on the table screen.

import { storage } from "../api.js";
import { h, promptAt, svg } from "../view.js";
import { confirmButton } from "../confirm.js";
import { t } from "../i18n.js";

const DIGRAPHS = ["CS", "GY", "LY", "NY", "SZ", "TY", "ZS"];
const SPLITTABLE = new Set(["CS", "SZ", "ZS"]);
const KEYS = "A Á B C CS D E É F G GY H I Í J K L LY M N NY O Ó Ö Ő P R S SZ T TY U Ú Ü Ű V Z ZS".split(" ");

// The notation of CONTRACT.md: greedy digraphs, "." to split, "?X" for a joker.
export function parseWord(text) {
  const s = text.normalize("NFC").toUpperCase().replace(/\s+/g, "");
  const tiles = [];
  for (let i = 0; i < s.length;) {
    if (s[i] === ".") { i += 1; continue; }
    const joker = s[i] === "?";
    if (joker) i += 1;
    const pair = s.slice(i, i + 2);
    if (DIGRAPHS.includes(pair)) { tiles.push({ letter: pair, joker }); i += 2; } else if (KEYS.includes(s[i])) { tiles.push({ letter: s[i], joker }); i += 1; } else return null;
  }
  return tiles;
}

export function notationOf(tiles) {
  let out = "";
  for (const tile of tiles) {
    if (out && !tile.joker && DIGRAPHS.includes(out.slice(-1) + tile.letter[0])) out += ".";
    out += (tile.joker ? "?" : "") + tile.letter;
  }
  return out;
}

const worth = (tiles, values) => tiles.reduce((sum, x) => sum + (x.joker ? 0 : values[x.letter] ?? 0), 0);

// `jokerValue`: what a joker's chip says it counts (0 in a word; on the final rack it costs 10).
// With `onMark`, each chip is a button that marks its letter as one that was on the board
// already (`onBoard`: the marked indexes), one tap each.
function tileChips(tiles, values, { split, onMark, onBoard = [], jokerValue = 0 } = {}) {
  return h("div", { class: "bk-tiles" }, tiles.map((x, i) => {
    const face = [x.letter, h("sub", { text: x.joker ? String(jokerValue) : String(values[x.letter] ?? "") })];
    const marked = onBoard.includes(i);
    return h("span", { class: `bk-tile${x.joker ? " joker" : ""}${marked ? " on-board" : ""}` },
      onMark ? h("button", { type: "button", class: "bk-mark", "aria-pressed": String(marked), "aria-label": t("bk_onBoard", { letter: x.letter }), onclick: () => onMark(i) }, face) : face,
      split && !x.joker && SPLITTABLE.has(x.letter) ? h("button", { type: "button", class: "bk-split", title: t("bk_ambiguous"), "aria-label": `${t("bk_ambiguous")} ${x.letter}`, onclick: () => split(i), text: "÷" }) : null);
  }));
}

// What typed text means: its tiles, or that it is no word of this set (no tiles at all, so
// nothing of an earlier word is left to lay). Typed CS, SZ, ZS could be one tile or two: the
// phone asks, unless the typist used "." already or answered for that tile before.
function readTyped(word, text) {
  const tiles = parseWord(text);
  word.text = text;
  word.bad = tiles === null;
  word.tiles = tiles || [];
  word.kept = (word.kept || []).filter((i) => word.tiles[i] && SPLITTABLE.has(word.tiles[i].letter));
  word.onBoard = (word.onBoard || []).filter((i) => i < word.tiles.length);
  word.ask = text.includes(".") ? [] : word.tiles.map((x, i) => (!x.joker && SPLITTABLE.has(x.letter) && !word.kept.includes(i) ? i : -1)).filter((i) => i >= 0);
}

// A word editor: typed text or tile keys. Typing redraws the phone key by key (the tiles, the
// points, the Lay button); the box itself stays the same element, so neither the caret nor a
// keyboard's composition is disturbed.
function wordEditor(word, slot, values, onChange) {
  // Only the main word's letters are marked: every tile laid this turn lies in it, so what is
  // not marked there came from the rack; a crossing word is the main word's tiles and the board's.
  const mark = (i) => {
    const on = word.onBoard || [];
    word.onBoard = on.includes(i) ? on.filter((j) => j !== i) : [...on, i];
    onChange();
  };
  const input = h("input", { class: "bk-input", value: word.text ?? notationOf(word.tiles), autocapitalize: "characters", autocomplete: "off", spellcheck: false,
    enterkeyhint: "done", "aria-label": t("bk_wordLabel", { n: slot + 1 }), "aria-describedby": "bk-hint", "aria-invalid": word.bad ? "true" : "false", dataset: { slot: String(slot) },
    oninput: (e) => { readTyped(word, e.currentTarget.value); onChange(); } });
  const split = (i) => {
    const x = word.tiles[i];
    word.tiles.splice(i, 1, { letter: x.letter[0], joker: false }, { letter: x.letter[1], joker: false });
    word.ask = (word.ask || []).filter((j) => j !== i).map((j) => (j > i ? j + 1 : j));
    word.kept = (word.kept || []).map((j) => (j > i ? j + 1 : j));
    word.onBoard = (word.onBoard || []).map((j) => (j > i ? j + 1 : j));
    word.text = notationOf(word.tiles);
    onChange();
  };
  const keep = (i) => { word.ask = word.ask.filter((j) => j !== i); word.kept = [...(word.kept || []), i]; onChange(); };
  return h("div", { class: "bk-word" }, input, h("div", { class: "bk-word-rest" }, tileChips(word.tiles, values, { split, onMark: slot === 0 ? mark : null, onBoard: word.onBoard }),
    word.bad ? h("p", { class: "bk-problem error", role: "alert", text: t("bk_invalidText") }) : null,
    (word.ask || []).map((i) => h("div", { class: "bk-ask" }, h("span", { text: `${t("bk_ambiguous")} ` }),
      h("button", { type: "button", class: "btn small", text: word.tiles[i].letter, onclick: () => keep(i) }),
      h("button", { type: "button", class: "btn small", text: `${word.tiles[i].letter[0]} + ${word.tiles[i].letter[1]}`, onclick: () => split(i) }))),
    h("span", { class: "bk-worth", text: `${worth(word.tiles, values)} ${t("bk_points")}` })));
}

// On the final rack (bareJoker) "?" is a joker tile of its own; in a word it marks the next
// letter as the one a joker stands for. That mark is kept in the draft (`keys.jokerNext`), not
// in the keyboard: a redraw between the two taps must not forget it.
function keyboard(keys, target, onChange, bareJoker = false) {
  const tapped = () => { const w = target(); w.text = undefined; w.bad = false; return w; };
  const press = (letter, bare = false) => { tapped().tiles.push({ letter, joker: bare || Boolean(keys.jokerNext) }); keys.jokerNext = false; onChange(); };
  return h("div", { class: "bk-keys" }, KEYS.map((k) => h("button", { type: "button", class: `bk-key${k.length === 2 ? " dg" : ""}`, onclick: () => press(k), text: k })),
    bareJoker ? h("button", { type: "button", class: "bk-key joker", "aria-label": t("bk_jokerTile"), onclick: () => press("?", true), text: "?" })
      : h("button", { type: "button", class: `bk-key joker${keys.jokerNext ? " on" : ""}`, "aria-label": t("bk_jokerKey"), "aria-pressed": String(Boolean(keys.jokerNext)), onclick: () => { keys.jokerNext = !keys.jokerNext; onChange(); }, text: "?" }),
    h("button", { type: "button", class: "bk-key", "aria-label": t("bk_backspace"), onclick: () => { const w = tapped(); w.tiles.pop(); w.onBoard = (w.onBoard || []).filter((i) => i < w.tiles.length); onChange(); }, text: "⌫" }));
}

// The words being put together for this turn, kept per table and seat so that a reload (or a
// phone that slept and was reopened) still holds a half-typed word.
const fresh = () => ({ words: [{ tiles: [] }], active: 0, returned: false, covered: null });
let composer = fresh();
let composerKey = null;
const rackDraft = { tiles: [] };

function composerFor(ctx) {
  const key = `tc.draft.blanko.${ctx.code}.${ctx.gameNo}.${ctx.me}`;
  if (composerKey !== key) {
    composerKey = key;
    const kept = storage.get(key);
    composer = kept && Array.isArray(kept.words) && kept.words.length ? { ...fresh(), ...kept } : fresh();
    composer.words.forEach((w) => { if (typeof w.text === "string") readTyped(w, w.text); });
    composer.active = Math.min(composer.active, composer.words.length - 1);
  }
  return composer;
}

function saveDraft() {
  const c = composer;
  if (!composerKey) return;
  if (c.words.every((w) => !w.tiles.length && !w.text)) { storage.remove(composerKey); return; }
  storage.set(composerKey, { words: c.words.map((w) => ({ tiles: w.tiles, text: w.text, kept: w.kept, onBoard: w.onBoard })), active: c.active, returned: c.returned, covered: c.covered });
}

function scoreTable(view, ctx) {
  // Seat order during play; a ranking once the game is over.
  const order = view.over ? [...view.order].sort((a, b) => view.scores[b].total - view.scores[a].total) : view.order;
  const rows = order.map((pid) => {
    const s = view.scores[pid];
    return h("tr", { class: pid === view.current && view.phase === "play" ? "current" : "", dataset: { player: pid } },
      h("th", { text: ctx.name(pid) }), h("td", { text: String(s.words) }), h("td", { text: String(s.exchanges) }),
      h("td", { text: String(s.bonus) }), h("td", { text: String(s.rack) }), h("td", { class: "total", text: String(s.total) }));
  });
  return h("table", { class: "bk-scores" }, h("thead", {}, h("tr", {}, h("th", {}), h("th", { text: t("bk_words") }), h("th", { text: t("bk_exchanges") }),
    h("th", { text: t("bk_bonus") }), h("th", { text: t("bk_rackCol") }), h("th", { text: t("bk_total") }))), h("tbody", {}, rows));
}

function verdictOf(turn) {
  if (turn.status === "unchecked") return t("bk_unchecked");
  return turn.status === "rejected" ? t("bk_invalid") : t("bk_valid");
}

function turnList(view, ctx) {
  return h("ol", { class: "bk-turns", reversed: true }, view.turns.slice().reverse().slice(0, 12).map((turn) => h("li", { class: `bk-turn ${turn.status}`, dataset: { n: String(turn.n) } },
    h("strong", { text: ctx.name(turn.player) }), " ",
    turn.kind === "lay" ? turn.words.map((w) => w.word).join(" + ") : t(turn.kind === "pass" ? "bk_pass" : "bk_exchange"),
    " ", h("span", { class: "pts", text: String(turn.points) }),
    turn.kind === "lay" ? h("span", { class: `tag ${turn.status}`, text: verdictOf(turn) }) : null,
    turn.verdicts ? h("span", { class: "muted small", text: " " + turn.verdicts.filter((v) => !v.valid).map((v) => t("bk_reasonShort", { word: v.word, reason: t(`reason.${v.reason}`) })).join(", ") }) : null,
    turn.bonus ? h("span", { class: "tag", text: `${t("bk_card")} +${turn.bonus.points ?? ""}` }) : null,
    ctx.isHost && !ctx.ended && turn.status === "rejected" ? turn.words.map((w) => h("button", { type: "button", class: "btn small ghost", text: `${t("bk_approve")}: ${w.word}`, onclick: () => ctx.send({ type: "blanko.approve_word", word: w.word }) })) : null)));
}

function chart(view, ctx) {
  // Cumulative score of each player after each of their turns (bonuses count at the end).
  const series = new Map(view.order.map((p) => [p, [0]]));
  for (const turn of view.turns) {
    const s = series.get(turn.player);
    s.push(s[s.length - 1] + (turn.status === "rejected" ? 0 : turn.points));
  }
  const all = [...series.values()].flat();
  const max = Math.max(10, ...all), min = Math.min(0, ...all), n = Math.max(2, ...[...series.values()].map((s) => s.length));
  const W = 320, H = 140, x = (i) => 24 + (i / (n - 1)) * (W - 34), y = (v) => H - 16 - ((v - min) / (max - min)) * (H - 26);
  const colours = ["#1f6f5c", "#d9822b", "#6d5bd0", "#c2416b"];
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "bk-chart", role: "img", "aria-label": t("scoreChart") },
    svg("line", { x1: 24, x2: W - 10, y1: y(0), y2: y(0), class: "axis" }),
    ...[...series.entries()].map(([, s], k) => svg("polyline", { fill: "none", stroke: colours[k % 4], "stroke-width": 2.5, points: s.map((v, i) => `${x(i)},${y(v)}`).join(" ") })),
    ...[...series.keys()].map((p, k) => svg("text", { x: 28 + k * 76, y: 12, fill: colours[k % 4], class: "legend" }, ctx.name(p))));
}

export function board(view, ctx) {
  if (!view.started) return null;
  const winners = view.over ? h("p", { class: "banner won", text: `${t("bk_winner")}: ${view.winners.map(ctx.name).join(", ")}` }) : null;
  return h("div", { class: "blanko" }, winners,
    h("p", { class: "bk-bag" }, `${t("bk_bag")}: `, h("strong", { id: "bag", text: String(view.bag) })),
    view.phase === "final" ? h("p", { class: "banner", text: t("bk_final") }) : null,
    turnOf(view) && !view.over && !ctx.ended ? h("p", { class: "turn", id: "board-turn", text: `${t("turnOf")}: ${ctx.name(view.current)}` }) : null,
    scoreTable(view, ctx), view.turns.length ? chart(view, ctx) : null, challengeBox(view, ctx), turnList(view, ctx));
}

function challengeBox(view, ctx) {
  if (view.pending === null || ctx.ended) return null;  // a game ended by the host leaves no challenge open
  const turn = view.turns[view.pending];
  if (turn.player === ctx.me) return null;
  return h("div", { class: "bk-challenge" }, h("span", { text: `${ctx.name(turn.player)}: ${turn.words.map((w) => w.word).join(", ")}` }),
    h("button", { type: "button", class: "btn danger", id: "challenge", text: t("bk_challenge"), onclick: () => ctx.send({ type: "blanko.challenge" }) }));
}

// Whose turn the phone's header names: nobody's during the final tally, when every player
// counts their rack at once.
export function turnOf(view) {
  return view.started && view.phase === "play" ? view.current : null;
}

export function phone(view, ctx) {
  if (!view.started) return null;
  const mine = view.current === ctx.me && view.phase === "play" && !ctx.ended;
  const parts = [h("p", { class: "bk-bag" }, `${t("bk_bag")}: `, h("strong", { text: String(view.bag) }), ` · ${view.racks[ctx.me] ?? 0} ${t("bk_rack")}`)];
  if (view.over) parts.push(h("p", { class: "banner won", text: `${t("bk_winner")}: ${view.winners.map(ctx.name).join(", ")}` }));
  parts.push(challengeBox(view, ctx));
  if (mine) parts.push(layForm(view, ctx));
  parts.push(bonusForm(view, ctx));
  if (view.phase === "final" && !ctx.ended && !(ctx.me in view.counted) && ctx.me in view.racks) parts.push(rackForm(view, ctx));
  parts.push(scoreTable(view, ctx), turnList(view, ctx));
  return h("div", { class: "blanko" }, parts);
}

// The tiles this lay takes from the rack: the main word's, less the letters marked as on the
// board already.
const fromRack = (c) => c.words[0].tiles.length - (c.words[0].onBoard || []).length;

// The turn in reach of one thumb: the word, its tiles (a tap marks a board letter), the keys,
// and Lay in a bar that stays at the bottom of the screen while the form is on it.
function layForm(view, ctx) {
  const c = composerFor(ctx);
  const tilesOf = () => c.words.flatMap((w) => w.tiles);
  const covered = () => c.covered ?? !view.first_laid;  // the first word of the game covers a BLANKO square
  const collected = view.scores[ctx.me].words + view.scores[ctx.me].bonus;  // the server's reading of "collected"
  const reset = () => { composer = fresh(); saveDraft(); };
  const changed = () => { saveDraft(); ctx.rerender(); };
  // Read when sent, from the draft: what the player entered last, whatever was drawn since.
  const lay = () => ctx.send({ type: "blanko.lay", words: c.words.filter((w) => w.tiles.length).map((w) => notationOf(w.tiles)), placed: fromRack(c), returned: c.returned ? 1 : 0, covered_blanko: covered() })
    .then(() => { reset(); ctx.rerender(); }, () => {});
  // The Lay button says what the words are worth, and is off while a word is no word of the
  // set, still asks one tile or two, or takes nothing from the rack.
  const total = c.words.reduce((sum, w) => sum + worth(w.tiles, view.values), 0);
  const layButton = h("button", { type: "button", class: "btn primary big", id: "lay", onclick: lay, text: `${t("bk_lay")} (${total})`,
    disabled: !tilesOf().length || fromRack(c) < 1 || c.words.some((w) => w.bad || w.ask?.length) });
  saveDraft();
  const passed = () => { reset(); ctx.rerender(); };
  return h("section", { class: "bk-lay", ...promptAt(`lay-${view.turns.length}`) }, h("h3", { text: t("bk_lay") }),
    h("p", { class: "bk-hint muted small", id: "bk-hint", text: t("bk_typeHint") }),
    c.words.map((w, i) => h("div", { class: `bk-word-slot${i === c.active ? " active" : ""}`, onclick: () => { if (c.active !== i) { c.active = i; ctx.rerender(); } } }, wordEditor(w, i, view.values, changed))),
    h("div", { class: "row bk-rack-row" }, h("p", { class: "bk-from-rack", id: "placed", "aria-live": "polite" }, `${t("bk_placed")}: `, h("strong", { text: String(fromRack(c)) })),
      c.words[0].tiles.length ? h("span", { class: "muted small", text: t("bk_markHint") }) : null),
    keyboard(c, () => c.words[c.active], changed),
    h("div", { class: "bk-lay-bar" }, layButton),
    h("label", { class: "check" }, h("input", { type: "checkbox", checked: c.returned, onchange: (e) => { c.returned = e.currentTarget.checked; changed(); } }), t("bk_returned")),
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "covered", checked: covered(), onchange: (e) => { c.covered = e.currentTarget.checked; changed(); } }), t("bk_covered")),
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn ghost small", text: t("bk_addWord"), onclick: () => { c.words.push({ tiles: [] }); c.active = c.words.length - 1; ctx.rerender(); } }),
      confirmButton({ id: "exchange", label: t("bk_exchange"), question: t("bk_exchangeConfirm"), disabled: collected < 20, onConfirm: () => ctx.send({ type: "blanko.exchange" }).then(passed, () => {}) }),
      h("button", { type: "button", class: "btn ghost", id: "pass", text: t("bk_pass"), onclick: () => ctx.send({ type: "blanko.pass" }).then(passed, () => {}) })));
}

// Which fields each BLANKO card needs (the rulebook's BLANKO cards section): a luck card its
// instruction, and for "lay again" / "draw one" the words and tiles of the second lay, for
// "lay BLANKO" whether it worked; a puzzle card the letters that count and whether every blue
// square was filled; a letter card those, the printed letter and the BLANKO squares covered.
const CARD_FIELDS = {
  luck: (d) => ["instruction", ...({ lay_again: ["words", "placed"], draw_one: ["words", "placed"], blanko_word: ["succeeded"] }[d.instruction] || [])],
  puzzle: () => ["letters", "filled"],
  letter: () => ["letters", "bonus_letter_used", "squares", "filled"],
};
let bonusDraft = null;

function bonusForm(view, ctx) {
  // A BLANKO card belongs to the turn that just ended, when its word covered a BLANKO square.
  const last = view.turns[view.turns.length - 1];
  if (view.over || ctx.ended || !last || last.kind !== "lay" || last.player !== ctx.me || !last.covered_blanko || last.bonus || last.status === "rejected") return null;
  const id = `${ctx.code}.${ctx.gameNo}.${last.n}`;
  if (bonusDraft?.id !== id) bonusDraft = { id, card: "luck", instruction: "lay_again", words: "", placed: 1, letters: 0, squares: 1, filled: false, bonus_letter_used: false, succeeded: false };
  const d = bonusDraft;
  const shown = CARD_FIELDS[d.card](d);
  const select = (name, keys) => h("select", { name, value: d[name], onchange: (e) => { d[name] = e.currentTarget.value; ctx.rerender(); } },
    keys.map((k) => h("option", { value: k, selected: d[name] === k ? true : null, text: t(`bk_${k}`) })));
  const number = (name, min, max) => h("input", { type: "number", name, min, max, value: d[name], inputmode: "numeric", oninput: (e) => { d[name] = e.currentTarget.value; ctx.rerender(); } });
  const check = (name, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name, checked: Boolean(d[name]), onchange: (e) => { d[name] = e.currentTarget.checked; ctx.rerender(); } }), label);
  const fields = {
    instruction: h("label", {}, t("bk_instruction"), select("instruction", ["lay_again", "swap_one", "draw_one", "previous_round", "blanko_word"])),
    words: h("label", {}, t("bk_cardWords"), h("input", { name: "words", value: d.words, autocapitalize: "characters", spellcheck: false, autocomplete: "off", "aria-describedby": "bk-bonus-hint", oninput: (e) => { d.words = e.currentTarget.value; ctx.rerender(); } })),
    placed: h("label", {}, t("bk_placedAgain"), number("placed", 1, 8)),
    succeeded: check("succeeded", t("bk_succeeded")),
    letters: h("label", {}, t("bk_letters"), number("letters", 0, d.card === "letter" ? 10 : 40)),
    bonus_letter_used: check("bonus_letter_used", t("bk_bonusLetter")),
    squares: h("label", {}, t("bk_squares"), number("squares", 1, 3)),
    filled: check("filled", t("bk_filled")),
  };
  const send = () => {
    const cmd = { type: "blanko.bonus", card: d.card };
    for (const name of shown) {
      if (name === "words") { if (d.words.trim()) cmd.words = d.words.trim().split(/[\s,+]+/); } else if (name === "placed") { if (cmd.words) cmd.placed = Number(d.placed); } else if (["letters", "squares"].includes(name)) cmd[name] = Number(d[name]); else cmd[name] = d[name];
    }
    ctx.send(cmd).then(() => { bonusDraft = null; }, () => {});
  };
  return h("section", { class: "bk-bonus card", ...promptAt(`bonus-${last.n}`) }, h("h3", { text: t("bk_card") }),
    h("label", {}, t("bk_cardType"), select("card", ["luck", "puzzle", "letter"])),
    shown.map((name) => fields[name]),
    shown.includes("words") ? h("p", { class: "muted small bk-hint", id: "bk-bonus-hint", text: t("bk_typeHint") }) : null,
    h("button", { type: "button", class: "btn primary", id: "record-bonus", text: t("bk_record"), onclick: send }));
}

// The final tally: the letters left on the rack, and what they will cost, as they are entered
// (a joker costs the rulebook's 10 here, though it scores 0 in a word).
function rackForm(view, ctx) {
  const held = view.racks[ctx.me];  // the server refuses any other number of letters
  const penalty = view.joker_penalty ?? 10;
  const deduction = rackDraft.tiles.reduce((sum, x) => sum + (x.joker ? penalty : view.values[x.letter] ?? 0), 0);
  return h("section", { class: "bk-rack", ...promptAt("rack") }, h("h3", { text: t("bk_final") }), tileChips(rackDraft.tiles, view.values, { jokerValue: penalty }),
    h("p", { class: "muted", id: "rack-count", text: t("bk_rackCount", { entered: rackDraft.tiles.length, held }) }),
    h("p", { class: "bk-deduction", id: "rack-deduction", "aria-live": "polite", text: t("bk_deduction", { points: deduction }) }),
    keyboard(rackDraft, () => rackDraft, ctx.rerender, true),
    h("button", { type: "button", class: "btn primary", id: "count-rack", disabled: rackDraft.tiles.length === held ? null : true, text: t("bk_countRack"), onclick: () => ctx.send({ type: "blanko.rack", letters: notationOf(rackDraft.tiles.filter((x) => !x.joker)) + "?".repeat(rackDraft.tiles.filter((x) => x.joker).length) }).then(() => { rackDraft.tiles = []; }, () => {}) }));
}

export function optionsForm() {
  const check = h("select", { name: "check" }, h("option", { value: "challenge", text: t("bk_challenge_mode") }), h("option", { value: "auto", text: t("bk_auto") }));
  const box = (name, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name }), label);
  const el = h("div", { class: "options" }, h("label", {}, t("bk_check"), check), box("judge_mode", t("bk_judge")), box("allow_names", t("bk_names")), box("auto_timer", t("bk_timer")));
  const on = (root, n) => root.querySelector(`[name=${n}]`).checked;
  return { el, read: (root) => ({ check: root.querySelector("[name=check]").value, judge_mode: on(root, "judge_mode"), allow_names: on(root, "allow_names"), auto_timer: on(root, "auto_timer") }) };
}

export function describe(e, ctx) {
  const key = `event.${e.type}`;
  switch (e.type) {
    case "StartingLettersDrawn": return t(key, { name: ctx.name(e.first) });
    case "BlankoStarted": return t(key, { bag: e.bag });
    case "WordsLaid": return t(key, { name: ctx.name(e.player), words: e.words.map((w) => w.word).join(" + "), points: e.points });
    case "LettersExchanged": return t(key, { name: ctx.name(e.player), cost: e.cost });
    case "TurnPassed": return t(key, { name: ctx.name(e.player) });
    case "BonusRecorded": return t(key, { name: ctx.name(e.player), points: e.points });
    case "WordApproved": return t(key, { word: e.word });
    case "TurnReinstated": return t(key, { n: e.n + 1 });
    case "RackCounted": return t(key, { name: ctx.name(e.player), deduction: e.deduction });
    case "ChallengeUpheld": case "ChallengeRejected": case "FinalTallyStarted": return t(key);
    default: return null;
  }
}
