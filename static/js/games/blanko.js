// BLANKO: the score sheet, a tile keyboard for entering words, challenges, BLANKO cards,
// the final rack count, and a per-turn score chart on the table screen.

import { api, storage } from "../api.js";
import { confirmButton } from "../confirm.js";
import { t } from "../i18n.js";
import { PALETTE } from "../palette.js";
import { draftFor, h, promptAt, svg } from "../view.js";

const DIGRAPHS = ["CS", "GY", "LY", "NY", "SZ", "TY", "ZS"];
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

// A tile as the server writes it: "?L" is a joker standing for L.
const tileOf = (s) => (s.startsWith("?") ? { letter: s.slice(1), joker: true } : { letter: s, joker: false });
// A laid word as it went down, the split shown: MÉZ.SÖR when Z and S were two tiles.
const laidAs = (w) => (w.tiles ? notationOf(w.tiles.map(tileOf)) : w.word);
const pairAt = (tiles, p) => DIGRAPHS.includes(tiles.map((x) => x.letter).join("").slice(p, p + 2));

// Whether a reading has a two-letter tile beginning at letter p.
function joinedAt(tiles, p) {
  let at = 0;
  for (const x of tiles) {
    if (at === p) return x.letter.length === 2;
    if (at > p) return false;
    at += x.letter.length;
  }
  return false;
}

// Letters a phone keyboard may give for ő and ű (a font or layout without the double acute).
const LOOKALIKES = { Õ: "Ő", Ô: "Ő", Û: "Ű", Ũ: "Ű" };

// Why typed text is no word of the set, naming the first character that is no tile of it.
function invalidText(text) {
  const char = [...text.normalize("NFC").toUpperCase().replace(/[\s.?]/g, "")].find((c) => !KEYS.includes(c)) ?? "?";
  return char in LOOKALIKES ? t("bk_lookalike", { char, like: LOOKALIKES[char] }) : t("bk_invalidText", { char });
}

const worth = (tiles, values) => tiles.reduce((sum, x) => sum + (x.joker ? 0 : values[x.letter] ?? 0), 0);

// `jokerValue`: what a joker's chip says it counts (0 in a word; on the final rack it costs 10).
// With `onMark`, each chip is a button that marks its letter as one that was on the board
// already (`onBoard`: the marked indexes), one tap each.
function tileChips(tiles, values, { split, onMark, onBoard = [], jokerValue = 0 } = {}) {
  return h("div", { class: "bk-tiles" }, tiles.map((x, i) => {
    const face = [x.letter, h("sub", { text: x.undecided ? "?" : x.joker ? String(jokerValue) : String(values[x.letter] ?? "") })];
    const marked = onBoard.includes(i);
    return h("span", { class: `bk-tile${x.joker ? " joker" : ""}${marked ? " on-board" : ""}${x.undecided ? " undecided" : ""}` },
      onMark ? h("button", { type: "button", class: "bk-mark", "aria-pressed": String(marked), "aria-label": t("bk_onBoard", { letter: x.letter }), onclick: () => onMark(i) }, face) : face,
      split && !x.joker && x.letter.length === 2 ? h("button", { type: "button", class: "bk-split", title: t("bk_splitTile"), "aria-label": `${t("bk_splitTile")}: ${x.letter}`, onclick: () => split(i), text: "÷" }) : null);
  }));
}

// What typed text means: its tiles, or that it is no word of this set (no tiles at all, so
// nothing of an earlier word is left to lay). An answer "one tile" stays while the text still
// has that tile (no dot typed into it since).
function readTyped(word, text) {
  const tiles = parseWord(text);
  word.text = text;
  word.bad = tiles === null;
  word.tiles = tiles || [];
  word.ones = (word.ones || []).filter((p) => joinedAt(word.tiles, p));
  word.onBoard = (word.onBoard || []).filter((i) => i < word.tiles.length);
}

// Which tiles a word was laid with is the dictionary's to say (CONTRACT.md): a letter pair is
// two tiles where the word's parts meet (KÖZ.SÉG). The server's evaluate answers with the
// readings that are words; only a word with a two-letter tile typed without a dot can have
// more than one. A joker typed before a letter pair (KÖ?ZSÉG) is one tile too: the reading
// says whether it stands for the pair or for its first letter. Kept by notation for the
// session; a failed request leaves the reading to the server at the lay.
const readingsOf = new Map();
const needsReading = (word) => word.tiles.some((x) => x.letter.length === 2);

function consult(word) {
  const key = notationOf(word.tiles);
  if (!needsReading(word) || readingsOf.has(key)) return;
  readingsOf.set(key, null);  // asked, no answer yet
  api("/api/blanko/evaluate", { method: "POST", body: { words: [key] } })
    .then((r) => r.words[0].readings.map((x) => x.map(tileOf)), () => [])
    .then((readings) => { readingsOf.set(key, readings); word.refresh?.(); });
}

// The word as the phone shows and lays it: the best of the dictionary's readings the player's
// answers allow; the tiles as entered while the dictionary has not answered or has no reading.
// `ask`: the letter pairs that are one tile in one reading and two in another.
function readingOf(word) {
  const known = needsReading(word) ? readingsOf.get(notationOf(word.tiles)) : [];
  const ones = word.ones || [];
  const fits = (known || []).filter((r) => ones.every((p) => joinedAt(r, p)));
  const ask = [];
  for (let p = 0; p + 1 < word.tiles.reduce((n, x) => n + x.letter.length, 0); p += 1) {
    const joined = fits.filter((r) => joinedAt(r, p)).length;
    if (pairAt(word.tiles, p) && !ones.includes(p) && joined && joined < fits.length) ask.push(p);
  }
  const tiles = fits[0] || word.tiles;
  return { pending: !Array.isArray(known), tiles, fits, ask, shown: undecided(tiles, ask) };
}

// The tiles as the phone shows them while it asks: no reading is preselected, so the letters
// of an asked pair stand apart, undecided, until the player says what the table laid (a player
// who tapped through took the reading with the most two-letter tiles: TŰ-ZSEBESEK for TŰZ-SEBESEK).
function undecided(tiles, ask) {
  if (!ask.length) return tiles;
  const out = [];
  let at = 0;
  for (const x of tiles) {
    const asked = x.letter.length === 2 ? ask.includes(at) : ask.includes(at) || ask.includes(at - 1);
    if (!asked) out.push(x);
    else [...x.letter].forEach((letter, i) => out.push({ letter, joker: x.joker && i === 0, undecided: true }));
    at += x.letter.length;
  }
  return out;
}

// The pair at letter p as its two letters, and as the one tile.
function pairOf(tiles, p) {
  const pair = tiles.map((x) => x.letter).join("").slice(p, p + 2);
  return { tile: pair, first: pair[0], second: pair[1] };
}

// A word editor: typed text or tile keys. Typing redraws the phone key by key (the tiles, the
// points, the Lay button); the box itself stays the same element, so neither the caret nor a
// keyboard's composition is disturbed.
function wordEditor(word, slot, values, onChange) {
  word.ones = word.ones || [];
  word.refresh = onChange;  // the dictionary's reading came
  consult(word);
  const read = readingOf(word);
  const retile = (tiles) => {
    word.tiles = tiles.map((x) => ({ ...x }));
    word.text = notationOf(word.tiles);
    word.ones = word.ones.filter((p) => joinedAt(word.tiles, p));
    word.onBoard = (word.onBoard || []).filter((i) => i < word.tiles.length);
    onChange();
  };
  // ÷ on a tile: the player laid two tiles there, whatever the dictionary reads.
  const split = (i) => {
    const tiles = read.tiles.slice();
    tiles.splice(i, 1, { letter: tiles[i].letter[0], joker: false }, { letter: tiles[i].letter[1], joker: false });
    word.onBoard = (word.onBoard || []).map((j) => (j > i ? j + 1 : j));
    retile(tiles);
  };
  const one = (p) => { word.ones.push(p); onChange(); };
  const two = (p) => retile(read.fits.find((r) => !joinedAt(r, p)));
  // Only the main word's letters are marked: every tile laid this turn lies in it, so what is
  // not marked there came from the rack; a crossing word is the main word's tiles and the board's.
  const mark = (i) => {
    const on = word.onBoard || [];
    word.onBoard = on.includes(i) ? on.filter((j) => j !== i) : [...on, i];
    onChange();
  };
  return h("div", { class: "bk-word" },
    h("input", { class: "bk-input", value: word.text ?? notationOf(word.tiles), autocapitalize: "characters", autocomplete: "off", spellcheck: false,
      enterkeyhint: "done", "aria-label": t("bk_wordLabel", { n: slot + 1 }), "aria-describedby": "bk-hint", "aria-invalid": word.bad ? "true" : "false", dataset: { slot: String(slot) },
      oninput: (e) => { readTyped(word, e.currentTarget.value); consult(word); onChange(); } }),
    // while a pair is asked its letters are undecided: nothing to split or mark until answered
    h("div", { class: "bk-word-rest" }, read.ask.length ? tileChips(read.shown, values)
      : tileChips(read.tiles, values, { split, onMark: slot === 0 ? mark : null, onBoard: word.onBoard }),
      read.tiles.filter((x) => x.joker).map((x) => h("p", { class: "bk-joker", text: t("bk_jokerIs", { letter: x.letter }) })),
      word.bad ? h("p", { class: "bk-problem error", role: "alert", text: invalidText(word.text) }) : null,
      read.tiles.length === 1 ? h("p", { class: "bk-problem error", role: "alert", text: t("bk_tooShort") }) : null,
      read.ask.map((p) => {
        const pair = pairOf(read.tiles, p);
        return h("div", { class: "bk-ask" }, h("span", { text: `${t("bk_oneOrTwo", pair)} ` }),
          h("button", { type: "button", class: "btn small", text: pair.tile, onclick: () => one(p) }),
          h("button", { type: "button", class: "btn small", text: `${pair.first} + ${pair.second}`, onclick: () => two(p) }));
      }),
      h("span", { class: "bk-worth", text: read.ask.length ? t("bk_pickTiles") : t("bk_points", { n: worth(read.tiles, values) }) })));
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
const noTiles = () => ({ tiles: [] });  // the starting draw's and the final rack's drafts

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
  storage.set(composerKey, { words: c.words.map((w) => ({ tiles: w.tiles, text: w.text, ones: w.ones, onBoard: w.onBoard })), active: c.active, returned: c.returned, covered: c.covered });
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

// What a turn scored, as the score sheet counts it: a rejected word nothing, an exchange its
// cost, with a minus sign rather than a hyphen.
const scored = (turn) => (turn.status === "rejected" ? "0" : String(turn.points).replace("-", "−"));

// Whether the BLANKO card of `turn` is still to be entered (view.cards_open: {player: [n]}).
const cardOpen = (view, turn) => (view.cards_open?.[turn.player] || []).includes(turn.n);

// The last 12 turns, newest first, each under its own number in the game; an older turn whose
// BLANKO card is still to enter stays in the list, so the host can enter it until the end.
function turnList(view, ctx) {
  const shown = view.turns.slice().reverse().filter((turn, i) => i < 12 || (ctx.isHost && cardOpen(view, turn)));
  return h("ol", { class: "bk-turns", reversed: true }, shown.map((turn) => h("li", { class: `bk-turn ${turn.status}`, value: turn.n + 1, dataset: { n: String(turn.n) } },
    h("strong", { text: ctx.name(turn.player) }), " ",
    turn.kind === "lay" ? turn.words.map(laidAs).join(" + ") : t(turn.kind === "pass" ? "bk_passed" : "bk_exchanged"),
    " ", h("span", { class: "pts", text: scored(turn) }),
    turn.kind === "lay" ? h("span", { class: `tag ${turn.status}`, text: verdictOf(turn) }) : null,
    turn.verdicts ? h("span", { class: "muted small", text: " " + turn.verdicts.filter((v) => !v.valid).map((v) => t("bk_reasonShort", { word: v.word, reason: t(`reason.${v.reason}`) })).join(", ") }) : null,
    turn.bonus ? h("span", { class: "tag", text: `${t("bk_card")} +${turn.bonus.points ?? ""}` }) : null,
    lateCardButton(view, ctx, turn),
    // accepted as the word was laid (MÉZ.SÁRGA), so the table sees the tiles it stands with
    ctx.isHost && !ctx.ended && turn.status === "rejected" ? turn.words.map((w) => h("button", { type: "button", class: "btn small ghost approve", text: `${t("bk_approve")}: ${laidAs(w)}`, onclick: () => ctx.send({ type: "blanko.approve_word", word: laidAs(w) }) })) : null)));
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
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "bk-chart", role: "img", "aria-label": t("scoreChart") },
    svg("line", { x1: 24, x2: W - 10, y1: y(0), y2: y(0), class: "axis" }),
    ...[...series.entries()].map(([, s], k) => svg("polyline", { fill: "none", stroke: PALETTE[k % PALETTE.length], "stroke-width": 2.5, points: s.map((v, i) => `${x(i)},${y(v)}`).join(" ") })),
    ...[...series.keys()].map((p, k) => svg("text", { x: 28 + k * 76, y: 12, fill: PALETTE[k % PALETTE.length], class: "legend" }, ctx.name(p))));
}

// The start as the rulebook has it: each player draws a letter from the bank and enters it on
// their phone; the highest value begins, and a tie draws again (only the tied players). Every
// screen sees the letters come in; a phone still to draw gets the tile keys and one button.
function startSection(view, ctx) {
  const draw = view.start_draw;
  const round = draw.rounds[draw.rounds.length - 1];
  const names = (ids) => ids.map(ctx.name).join(", ");
  const waiting = draw.candidates.filter((p) => !(p in round));
  const parts = [h("h3", { text: t("bk_startTitle") }),
    draw.rounds.length > 1 ? h("p", { class: "banner notice", id: "start-again", role: "alert", text: t("bk_startAgain", {
      names: names(draw.candidates), letters: draw.candidates.map((p) => `${ctx.name(p)} ${draw.rounds[draw.rounds.length - 2][p]}`).join(", ") }) }) : null,
    h("ul", { class: "bk-start-letters" }, Object.entries(round).map(([p, tile]) => h("li", { dataset: { player: p } }, h("strong", { text: ctx.name(p) }), ` ${tile}`))),
    h("p", { class: "muted", id: "start-waiting", text: t("bk_startWaiting", { names: names(waiting) }) })];
  if (!ctx.ended && waiting.includes(ctx.me)) {
    const startDraft = draftFor("start", ctx, noTiles);
    const tile = startDraft.tiles[0];
    const letter = tile ? (tile.joker ? "?" : tile.letter) : "";
    const one = () => { startDraft.tiles = startDraft.tiles.slice(-1); ctx.rerender(); };  // a key replaces the letter
    parts.push(h("p", { class: "prompt", text: t("bk_startPrompt") }), tileChips(startDraft.tiles, view.values),
      keyboard(startDraft, () => startDraft, one, true),
      h("button", { type: "button", class: "btn primary", id: "enter-start", disabled: tile ? null : true, text: tile ? t("bk_startEnter", { letter }) : t("bk_startPick"),
        onclick: () => ctx.send({ type: "blanko.start_letter", letter }).then(() => { startDraft.tiles = []; ctx.rerender(); }, () => {}) }));
  }
  return h("section", { class: "bk-start card", id: "start-letters" }, parts);
}

export function board(view, ctx) {
  if (!view.started) return null;
  return h("div", { class: "blanko" }, view.phase === "start" ? startSection(view, ctx) : null,
    h("p", { class: "bk-bag" }, `${t("bk_bag")}: `, h("strong", { id: "bag", text: String(view.bag) })),
    view.phase === "final" && !ctx.ended ? h("p", { class: "banner", text: t("bk_finalTable") }) : null,  // everyone's screen: no "your rack"
    turnOf(view) && !view.over && !ctx.ended ? h("p", { class: "turn", id: "board-turn", text: `${t("turnOf")}: ${ctx.name(view.current)}` }) : null,
    scoreTable(view, ctx), view.turns.length ? chart(view, ctx) : null, challengeBox(view, ctx), lateCardForm(view, ctx), turnList(view, ctx));
}

// A BLANKO card nobody entered in its turn: the rulebook adds its points at the end, so the
// host (the referee) can enter it later, for any lay of the player's that covered a BLANKO
// square and has no card yet (view.cards_open), naming its turn. In the turn itself the
// player's phone asks for it.
let lateCard = null;  // the turn the host is entering a card for: {id, player, n}
const lateId = (ctx, player, n) => `${ctx.code}.${ctx.gameNo}.${player}.${n}`;

function lateCardButton(view, ctx, turn) {
  const last = view.turns[view.turns.length - 1];
  if (!ctx.isHost || ctx.ended || view.over || turn === last || !cardOpen(view, turn)) return null;
  return h("button", { type: "button", class: "btn small ghost late-card", dataset: { n: String(turn.n) }, text: t("bk_lateCard"),
    onclick: () => { lateCard = { id: lateId(ctx, turn.player, turn.n), player: turn.player, n: turn.n }; ctx.rerender(); } });
}

function lateCardForm(view, ctx) {
  const open = lateCard && !ctx.ended && !view.over && lateCard.id === lateId(ctx, lateCard.player, lateCard.n)
    && cardOpen(view, view.turns[lateCard.n]);
  if (!open) return null;
  const close = () => { lateCard = null; ctx.rerender(); };
  return bonusForm(view, ctx, view.turns[lateCard.n], { player: lateCard.player, close });
}

function challengeBox(view, ctx) {
  if (view.pending === null || ctx.ended) return null;  // a game ended by the host leaves no challenge open
  const turn = view.turns[view.pending];
  if (turn.player === ctx.me) return null;
  return h("div", { class: "bk-challenge" }, h("span", { text: `${ctx.name(turn.player)}: ${turn.words.map(laidAs).join(", ")}` }),
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
  if (view.phase === "start") parts.push(startSection(view, ctx));
  parts.push(challengeBox(view, ctx));
  if (mine) parts.push(layForm(view, ctx));
  parts.push(myCard(view, ctx));
  if (view.phase === "final" && !ctx.ended && !(ctx.me in view.counted) && ctx.me in view.racks) parts.push(rackForm(view, ctx));
  parts.push(scoreTable(view, ctx), turnList(view, ctx));
  return h("div", { class: "blanko" }, parts);
}

// The tiles this lay takes from the rack: the main word's (as read), less the letters marked
// as on the board already.
const fromRack = (c) => readingOf(c.words[0]).tiles.length - (c.words[0].onBoard || []).length;

// The turn in reach of one thumb: the word, its tiles (a tap marks a board letter), the keys,
// and Lay in a bar that stays at the bottom of the screen while the form is on it.
function layForm(view, ctx) {
  const c = composerFor(ctx);
  const entered = () => c.words.filter((w) => w.tiles.length).map(readingOf);
  const covered = () => c.covered ?? !view.first_laid;  // the first word of the game covers a BLANKO square
  const collected = view.scores[ctx.me].words + view.scores[ctx.me].bonus;  // the server's reading of "collected"
  const reset = () => { composer = fresh(); saveDraft(); };
  const changed = () => { saveDraft(); ctx.rerender(); };
  // Read when sent, from the draft: what the player entered last, whatever was drawn since.
  const lay = () => ctx.send({ type: "blanko.lay", words: entered().map((r) => notationOf(r.tiles)), placed: fromRack(c), returned: c.returned ? 1 : 0, covered_blanko: covered() })
    .then(() => { reset(); ctx.rerender(); }, () => {});
  // The Lay button says what the words are worth, and is off while a word is no word of the
  // set, is a single tile, waits for the dictionary's reading, still asks one tile or two, or
  // takes nothing from the rack.
  const read = entered();
  const asking = read.some((r) => r.ask.length);  // no points before the player picks the tiles
  const layButton = h("button", { type: "button", class: "btn primary big", id: "lay", onclick: lay, text: asking ? t("bk_layPick") : t("bk_layButton", { n: read.reduce((s, r) => s + worth(r.tiles, view.values), 0) }),
    disabled: !read.length || fromRack(c) < 1 || c.words.some((w) => w.bad) || read.some((r) => r.pending || r.ask.length || r.tiles.length < 2) });
  saveDraft();
  const passed = () => { reset(); ctx.rerender(); };
  return h("section", { class: "bk-lay", ...promptAt(`lay-${view.turns.length}`) }, h("h3", { text: t("bk_lay") }),
    // once the main word has tiles, the hint is the next thing to do: mark its board letters
    h("p", { class: "bk-hint muted small", id: "bk-hint", text: t(c.words[0].tiles.length ? "bk_markHint" : "bk_typeHint") }),
    c.words.map((w, i) => h("div", { class: `bk-word-slot${i === c.active ? " active" : ""}`, onclick: () => { if (c.active !== i) { c.active = i; ctx.rerender(); } } }, wordEditor(w, i, view.values, changed))),
    h("p", { class: "bk-from-rack", id: "placed", "aria-live": "polite" }, `${t("bk_fromRack")}: `, h("strong", { text: asking ? "?" : String(fromRack(c)) })),
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
// "lay BLANKO" whether it worked; a puzzle card its blue squares, the letters that count, the
// BLANKO squares covered and whether every blue square was filled; a letter card the same, with
// the printed letter for the blue squares (its eight empty squares are known).
const CARD_FIELDS = {
  luck: (d) => ["instruction", ...({ lay_again: ["words", "placed"], draw_one: ["words", "placed"], blanko_word: ["succeeded"] }[d.instruction] || [])],
  puzzle: () => ["blue_squares", "letters", "squares", "filled"],
  letter: () => ["letters", "bonus_letter_used", "squares", "filled"],
};
let bonusDraft = null;

// A BLANKO card belongs to the turn that just ended, when its word covered a BLANKO square:
// the player's card still to enter (view.cards_open) is that turn's.
function myCard(view, ctx) {
  const last = view.turns[view.turns.length - 1];
  if (view.over || ctx.ended || !last || last.player !== ctx.me || !cardOpen(view, last)) return null;
  return bonusForm(view, ctx, last);
}

// The card form for `turn`'s card; `late` is the host entering it for `late.player`.
function bonusForm(view, ctx, turn, late = null) {
  const id = `${ctx.code}.${ctx.gameNo}.${turn.n}`;
  if (bonusDraft?.id !== id) bonusDraft = { id, card: "luck", instruction: "lay_again", words: "", placed: 1, letters: 0, blue_squares: 8, squares: 1, filled: false, bonus_letter_used: false, succeeded: false };
  const d = bonusDraft;
  const shown = CARD_FIELDS[d.card](d);
  const select = (name, keys) => h("select", { name, value: d[name], onchange: (e) => { d[name] = e.currentTarget.value; ctx.rerender(); } },
    keys.map((k) => h("option", { value: k, selected: d[name] === k ? true : null, text: t(`bk_${k}`) })));
  const number = (name, min, max) => h("input", { type: "number", name, min, max, value: d[name], inputmode: "numeric", oninput: (e) => { d[name] = e.currentTarget.value; ctx.rerender(); } });
  const check = (name, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name, checked: Boolean(d[name]), onchange: (e) => { d[name] = e.currentTarget.checked; ctx.rerender(); } }), label);
  const fields = {
    instruction: h("label", {}, t("bk_instruction"), select("instruction", ["lay_again", "swap_one", "draw_one", "previous_round", "blanko_word"])),
    // typed only: the card form has no tile keys
    words: [h("label", {}, t("bk_cardWords"), h("input", { name: "words", value: d.words, autocapitalize: "characters", spellcheck: false, autocomplete: "off", "aria-describedby": "bk-bonus-hint", oninput: (e) => { d.words = e.currentTarget.value; ctx.rerender(); } })),
      h("p", { class: "muted small bk-hint", id: "bk-bonus-hint", text: t("bk_cardWordsHint") })],
    placed: h("label", {}, t("bk_placedAgain"), number("placed", 1, 8)),
    succeeded: check("succeeded", t("bk_succeeded")),
    blue_squares: h("label", {}, t("bk_blueSquares"), number("blue_squares", 1, 40)),
    letters: h("label", {}, t("bk_letters"), number("letters", 0, d.card === "letter" ? 8 : Number(d.blue_squares) || 40)),
    bonus_letter_used: check("bonus_letter_used", t("bk_bonusLetter")),
    squares: h("label", {}, t("bk_squares"), number("squares", 1, 3)),
    filled: check("filled", t("bk_filled")),
  };
  const send = () => {
    const cmd = { type: "blanko.bonus", card: d.card, ...(late ? { player: late.player, n: turn.n } : {}) };
    for (const name of shown) {
      if (name === "words") { if (d.words.trim()) cmd.words = d.words.trim().split(/[\s,+]+/); } else if (name === "placed") { if (cmd.words) cmd.placed = Number(d.placed); } else if (["letters", "squares", "blue_squares"].includes(name)) cmd[name] = Number(d[name]); else cmd[name] = d[name];
    }
    ctx.send(cmd).then(() => { bonusDraft = null; late?.close(); }, () => {});
  };
  return h("section", { class: "bk-bonus card", id: late ? "late-card" : null, ...(late ? {} : promptAt(`bonus-${turn.n}`)) },
    h("h3", { text: late ? t("bk_lateCardTitle", { name: ctx.name(late.player), n: turn.n + 1 }) : t("bk_card") }),
    h("label", {}, t("bk_cardType"), select("card", ["luck", "puzzle", "letter"])),
    shown.map((name) => fields[name]),
    h("button", { type: "button", class: "btn primary", id: "record-bonus", text: t("bk_record"), onclick: send }),
    late ? h("button", { type: "button", class: "btn ghost", text: t("confirmNo"), onclick: late.close }) : null);
}

// The final tally: the letters left on the rack, and what they will cost, as they are entered
// (a joker costs the rulebook's 10 here, though it scores 0 in a word).
function rackForm(view, ctx) {
  const held = view.racks[ctx.me];  // the server refuses any other number of letters
  const penalty = view.joker_penalty ?? 10;
  const rackDraft = draftFor("rack", ctx, noTiles);
  const deduction = rackDraft.tiles.reduce((sum, x) => sum + (x.joker ? penalty : view.values[x.letter] ?? 0), 0);
  return h("section", { class: "bk-rack", ...promptAt("rack") }, h("h3", { text: t("bk_final") }), tileChips(rackDraft.tiles, view.values, { jokerValue: penalty }),
    h("p", { class: "muted", id: "rack-count", text: t("bk_rackCount", { entered: rackDraft.tiles.length, held }) }),
    h("p", { class: "bk-deduction", id: "rack-deduction", "aria-live": "polite", text: t("bk_deduction", { points: deduction }) }),
    keyboard(rackDraft, () => rackDraft, ctx.rerender, true),
    h("button", { type: "button", class: "btn primary", id: "count-rack", disabled: rackDraft.tiles.length === held ? null : true, text: t("bk_countRack"), onclick: () => ctx.send({ type: "blanko.rack", letters: notationOf(rackDraft.tiles.filter((x) => !x.joker)) + "?".repeat(rackDraft.tiles.filter((x) => x.joker).length) }).then(() => { rackDraft.tiles = []; }, () => {}) }));
}

export function optionsForm() {
  const check = h("select", { name: "check" }, h("option", { value: "challenge", text: t("bk_challenge_mode") }), h("option", { value: "auto", text: t("bk_auto") }));
  // Who begins: the letters the players really draw, unless the table lets the app draw or seats decide.
  const start = h("select", { name: "start" }, ["entered", "drawn", "seated"].map((v) => h("option", { value: v, text: t(`bk_start_${v}`) })));
  const box = (name, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name }), label);
  const el = h("div", { class: "options" }, h("label", {}, t("bk_check"), check), h("label", {}, t("bk_start"), start),
    box("judge_mode", t("bk_judge")), box("allow_names", t("bk_names")), box("auto_timer", t("bk_timer")));
  const on = (root, n) => root.querySelector(`[name=${n}]`).checked;
  const value = (root, n) => root.querySelector(`[name=${n}]`).value;
  return { el, read: (root) => ({ check: value(root, "check"), start: value(root, "start"), judge_mode: on(root, "judge_mode"), allow_names: on(root, "allow_names"), auto_timer: on(root, "auto_timer") }) };
}

export function describe(e, ctx) {
  const key = `event.${e.type}`;
  switch (e.type) {
    case "StartingLettersDrawn": return t(key, { name: ctx.name(e.first) });
    case "StartingLetterEntered": return t(key, { name: ctx.name(e.player), tile: e.tile });
    case "BlankoStarted": return t(key, { bag: e.bag });
    case "WordsLaid": return t(key, { name: ctx.name(e.player), words: e.words.map(laidAs).join(" + "), points: e.points });
    case "LettersExchanged": return t(key, { name: ctx.name(e.player), cost: e.cost });
    case "TurnPassed": return t(key, { name: ctx.name(e.player) });
    // a card the host entered after its turn says so, and for which turn
    case "BonusRecorded": return t(e.by === "host" ? "event.BonusRecordedByHost" : key, { name: ctx.name(e.player), points: e.points, n: e.n + 1 });
    case "WordApproved": return t(key, { word: laidAs(e) });  // with the tiles it was accepted with
    case "TurnReinstated": return t(key, { n: e.n + 1 });
    case "RackCounted": return t(key, { name: ctx.name(e.player), deduction: e.deduction });
    case "ChallengeUpheld": case "ChallengeRejected": case "FinalTallyStarted": return t(key);
    default: return null;
  }
}
