// BLANK: the deck picker, the Rule Cards in play with what a play triggers, the phone's card
// picker, penalties and accusations, and the winner's prize for the deck. The Rule Cards turned
// at setup, the first card and every play are the table's physical cards, entered through the
// shared card entry (card-entry.js); a play names the deck's own card, so an effect copy is a
// card of its own.

import { api } from "../api.js";
import { cardEntry, clearEntry } from "../card-entry.js";
import { confirmButton } from "../confirm.js";
import { h as el } from "../dom.js";
import { currentLanguage, errorText, has, t } from "../i18n.js";
import { Component, draftFor, h, patch, promptAt, svg } from "../view.js";

const COLOURS = ["hexagon", "triangle", "square", "circle", "diamond", "shield"];
// The six symbols are drawn, never taken from a font: a phone's fonts may lack some (⛉).
const SYMBOL = {
  hexagon: () => svg("polygon", { points: "12,2 20.7,7 20.7,17 12,22 3.3,17 3.3,7" }),
  triangle: () => svg("polygon", { points: "12,3 22,20.5 2,20.5" }),
  square: () => svg("rect", { x: 3.5, y: 3.5, width: 17, height: 17 }),
  circle: () => svg("circle", { cx: 12, cy: 12, r: 9 }),
  diamond: () => svg("polygon", { points: "12,1.5 21.5,12 12,22.5 2.5,12" }),
  shield: () => svg("path", { d: "M12 2 L21 5 V11 C21 16.5 17 20.5 12 22.5 C7 20.5 3 16.5 3 11 V5 Z" }),
};
const TRIGGERS = ["card_played", "colour_played", "number_played", "two_or_more", "card_drawn", "penalty", "time_passes", "other"];
const TARGETS = ["next_player", "previous_player", "all_players", "cards_in_play", "draw_pile", "discard_pile", "this_player", "other"];
const EFFECTS = ["draw_card", "take_cards", "discard_cards", "change_cards", "say_something", "do_something", "other"];
const colourName = (colour) => t(`bl_c_${colour}`);
const cardName = (c) => t("bl_symbols", { colour: colourName(c.colour), number: c.number });

function symbol(colour) {
  return svg("svg", { viewBox: "0 0 24 24", class: "bl-symbol", "aria-hidden": "true", "data-symbol": colour }, SYMBOL[colour]());
}

function card(c, attrs = {}) {
  return h("span", { class: `bl-card c-${c.colour}`, role: "img", title: cardName(c), "aria-label": cardName(c), ...attrs }, symbol(c.colour), h("b", { text: String(c.number), "aria-hidden": "true" }));
}

// One of the deck's cards as a button of the card entry: an effect copy shows its title (and,
// at a table of mixed decks, its deck's mark).
function cardButton(c, attrs = {}) {
  const label = c.effect ? t("bl_effectCopy", { card: cardName(c), title: c.effect.title }) : cardName(c);
  return h("button", { type: "button", class: `bl-card c-${c.colour}${c.effect ? " fx" : ""}`, title: label, "aria-label": label, ...attrs },
    symbol(c.colour), h("b", { text: String(c.number), "aria-hidden": "true" }), c.effect ? h("small", { text: c.effect.title }) : null,
    c.mark ? h("i", { class: "mark", text: c.mark }) : null);
}

// The deck's own cards to enter: one per colour and number for the copies without an effect,
// and every copy with an effect separately, since only that physical card sets it off.
function deckPalette(view) {
  const items = [];
  for (const colour of COLOURS) {
    for (const number of [1, 2, 3, 4, 5, 6]) {
      const copies = view.cards.filter((c) => c.colour === colour && c.number === number);
      if (!copies.length || copies.some((c) => !c.effect)) items.push({ key: `${colour}-${number}`, card: { colour, number } });
    }
  }
  for (const c of view.cards.filter((x) => x.effect)) items.push({ key: c.id, group: "effects", card: { id: c.id, colour: c.colour, number: c.number, effect: c.effect, mark: c.mark } });
  return items;
}

// How often a card of the deck's palette may still be chosen: the deck's copies of its colour
// and number less those on the discard pile (by id, or as some copy of the face) and those
// chosen under another button of this entry; a card of the deck's own once, never from the
// pile. The server counts the same way (blank/no_copy_free).
function freeCopies(view) {
  const face = (c) => `${c.colour}-${c.number}`;
  const onPile = new Set(view.on_pile || []);
  const left = {};
  const add = (c, n) => { left[face(c)] = (left[face(c)] || 0) + n; };
  for (const c of view.cards) add(c, onPile.has(c.id) ? 0 : 1);
  for (const c of view.on_pile_faces || []) add(c, -1);
  return (item, others = []) => {
    const free = (left[face(item.card)] || 0) - others.filter((o) => face(o.card) === face(item.card)).length;
    if (item.card.id) return onPile.has(item.card.id) || free < 1 ? 0 : 1;
    return Math.max(0, free);
  };
}

const named = (c) => (c.id ? { id: c.id } : { colour: c.colour, number: c.number });

// The Rule Cards turned over at setup, entered from the table; the app's draw is the option.
function ruleEntry(view, ctx) {
  const face = (r, attrs = {}) => h("button", { type: "button", class: "bl-rule-pick", ...attrs }, h("strong", { class: "user-text", text: ruleTitle(r) }), h("span", { class: "user-text", text: ruleText(r) }));
  return cardEntry({
    id: "blank-rules", ctx, title: t("bl_turnRules"), palette: view.rule_choices.map((r) => ({ key: r.id, card: r })), face,
    min: view.rules_needed, max: view.rules_needed, ordered: false,
    enter: (rules) => ctx.send({ type: "blank.reveal_rules", rules: rules.map((r) => r.id) }),
    draw: () => ctx.send({ type: "blank.reveal_rules", draw: true }),
    labels: { enter: t("bl_rulesEntered"), draw: t("bl_rulesDraw"), clear: t("bl_clear") },
  });
}

// The rulebook's example rules, which every new deck holds, in the page's language: the deck
// names each by a stable key (deck.py). A rule somebody wrote is shown as they wrote it.
const example = (r, part) => (r.key && has(`bl_ex_${r.key}_${part}`) ? t(`bl_ex_${r.key}_${part}`) : null);
export const ruleTitle = (r) => example(r, "title") ?? r.title ?? "";

// What an action the app applies does, in words: the action is the effect's one source of
// truth (a Game Card's draw goes to the next player, a rule's to its target).
function actionWords(action, target = "next_player") {
  if (action.kind === "draw") return t(`bl_does_draw_${target}`, { n: action.count });
  return t(action.kind === "match" ? `bl_act_match_${action.by}` : `bl_act_${action.kind}`);
}

// An effect's words: its action's, then the free text, which says what the app cannot read.
const effectWords = (x, text, target) => [x.action ? actionWords(x.action, target) : "", text].filter(Boolean).join(" — ");
const ruleText = (r) => effectWords(r, example(r, "text") ?? r.text, r.target);
const cardEffectText = (e) => effectWords(e, e.text);

// What sets a rule off, as the clause of "If …": an "other" trigger is its own words.
function triggerText(tr, rule = {}) {
  const words = example(rule, "if") ?? tr.text;
  if (tr.kind === "other" && words) return words;
  const extra = [tr.colour ? colourName(tr.colour) : "", tr.number ? String(tr.number) : "", tr.seconds ? t("bl_secondsShort", { s: tr.seconds }) : ""].filter(Boolean).join(" ");
  return `${t(`bl_tr_${tr.kind}`)}${extra ? ` (${extra})` : ""}${words ? `: ${words}` : ""}`;
}

function ruleCard(r, hot, extra = null) {
  return h("li", { class: `bl-rule${hot ? " hot" : ""}`, dataset: { rule: r.id } },
    h("strong", { class: "user-text", text: ruleTitle(r) }), hot ? h("span", { class: "tag", text: t("bl_triggered") }) : null,
    h("div", { class: "muted small", text: t("bl_ruleLine", { trigger: triggerText(r.trigger, r), target: t(`bl_tg_${r.target}`), effect: t(`bl_ef_${r.effect}`) }) }),
    h("div", { class: "user-text", text: ruleText(r) }), h("div", { class: "muted small user-text", text: `— ${r.creator}` }), extra);
}

function speak(rules) {
  if (!("speechSynthesis" in window)) return;
  speechSynthesis.cancel();
  for (const r of rules) {
    const u = new SpeechSynthesisUtterance(`${ruleTitle(r)}. ${ruleText(r)}`);
    u.lang = currentLanguage() === "hu" ? "hu-HU" : "en-GB";
    speechSynthesis.speak(u);
  }
}

// The rules the last play or penalty set off (older states only knew plays).
const hotRules = (view) => view.triggered?.rules || view.last_play?.triggered || [];

function rulesPanel(view, ctx) {
  const hot = new Set(hotRules(view));
  const discard = (r) => confirmButton({ cls: "btn small ghost", label: t("bl_discardRule"), question: t("bl_discardConfirm"), onConfirm: () => ctx.send({ type: "blank.discard_rule", rule: r.id }) });
  const discarding = ctx.isHost && !ctx.ended && view.winner === null;  // nothing to discard once the game is over
  return h("section", { class: "bl-rules" }, h("h3", {}, t("bl_rules"), " ",
    h("button", { type: "button", class: "btn small ghost", text: t("bl_read"), onclick: () => speak(view.rules) })),
    h("ul", {}, view.rules.map((r) => ruleCard(r, hot.has(r.id), discarding ? discard(r) : null))),
    view.last_play?.effect ? h("p", { class: "banner" }, `${t("bl_effect")}: `, h("span", { class: "user-text", text: `${view.last_play.effect.title} — ${cardEffectText(view.last_play.effect)}` })) : null);
}

// The clock ticks on its own between redraws: the element (kept by the redraws) carries its
// one timer, which the latest render's ref restarts with the latest view.
function turnClock(view, ctx) {
  if (!view.turn_limit_s || view.winner !== null || ctx.ended) return null;  // no turn runs once the game is over
  const tick = (el) => {
    if (!el) return;
    clearTimeout(el.tick);
    if (!el.isConnected) return;
    const s = Math.floor((ctx.now() - view.turn_started_ms) / 1000);  // server time, synced
    el.textContent = s > view.turn_limit_s ? t("bl_slowFor", { s }) : t("bl_turnClock", { s, limit: view.turn_limit_s });
    el.classList.toggle("late", s > view.turn_limit_s);
    el.tick = setTimeout(() => tick(el), 250);
  };
  return h("span", { class: "bl-clock", ref: tick });
}

// The host corrects a hand the app counts wrong (a draw nobody entered, a card taken by an
// effect): the table is the truth, and a play larger than the count waits for this
// (blank/hand_count).
function handFix(view, ctx, p) {
  if (!ctx.isHost || ctx.ended || view.winner !== null) return null;
  const fix = (delta, key) => h("button", { type: "button", class: "btn ghost small bl-fix", dataset: { fix: `${p}:${delta}` },
    "aria-label": t(key, { name: ctx.name(p) }), title: t(key, { name: ctx.name(p) }), text: delta > 0 ? "+" : "−",
    disabled: view.hands[p] + delta < 0 ? true : null,
    onclick: () => ctx.send({ type: "blank.adjust", player: p, delta, note: "" }).catch(() => {}) });
  return [fix(-1, "bl_handLess"), fix(1, "bl_handMore")];
}

function status(view, ctx) {
  return h("div", { class: "bl-status" },
    view.top ? h("span", {}, `${t("bl_top")}: `, card(view.top)) : null,
    h("span", { text: ` ${t("bl_pile")}: ${view.draw_pile}` }), " ", turnClock(view, ctx),
    h("ul", { class: "bl-hands" }, view.order.map((p) => h("li", { class: p === view.current ? "current" : "" }, h("strong", { text: ctx.name(p) }), ` ${view.hands[p]}`, handFix(view, ctx, p)))));
}

// A card I drew (a penalty, no match, an effect's draw), to enter from my hand so that a rule
// naming a drawn card's colour or number can light up on every screen. Skippable: the face is
// mine (the server keeps it in my view only); the entry closes when the next card is played.
function drawnEntry(view, ctx, groups) {
  const skippedDraws = draftFor("skipped-draws", ctx, () => new Set());
  const mine = view.to_enter || [];
  if (!mine.length) skippedDraws.clear();
  const n = mine.find((x) => !skippedDraws.has(x));
  if (n === undefined) return null;
  // several cards drawn (a fine of two): the entry says which of them this is
  const title = mine.length > 1 ? t("bl_enterDrawnOf", { i: mine.indexOf(n) + 1, n: mine.length }) : t("bl_enterDrawn");
  return h("section", { class: "bl-drawn", dataset: { drawn: String(n) }, ...promptAt(`drawn-${n}`) }, cardEntry({
    id: "blank-drawn", ctx, title, palette: deckPalette(view), groups, face: cardButton, limit: freeCopies(view),
    enter: ([c]) => ctx.send({ type: "blank.draw", drawn: n, card: named(c) }),
    draw: () => ctx.send({ type: "blank.draw", drawn: n, draw: true }),
    labels: { draw: t("bl_drawnByApp") },
  }), h("button", { type: "button", class: "btn ghost", id: "skip-drawn", text: t("bl_skipDrawn"),
    onclick: () => { skippedDraws.add(n); ctx.rerender(); } }));
}

// The faces I entered since the last play: on my phone only.
function myDrawn(view) {
  if (!view.my_drawn?.length) return null;
  return h("p", { class: "bl-my-drawn", id: "my-drawn" }, `${t("bl_youDrew")} `, view.my_drawn.map((d) => card(d.card)));
}

// A last card that set off rules or an effect: the player wins once the table has followed them.
function goingOut(view, ctx) {
  if (!view.going_out) return null;
  const mayConfirm = ctx.isHost || (ctx.me && ctx.me !== view.going_out);
  return h("div", { class: "banner bl-going-out", ...promptAt(`going-out-${view.going_out}`) }, h("span", { text: t("bl_goingOut", { name: ctx.name(view.going_out) }) }), " ",
    mayConfirm ? h("button", { type: "button", class: "btn primary", id: "resolved", text: t("bl_resolved"), onclick: () => ctx.send({ type: "blank.resolved" }).catch(() => {}) }) : null);
}

// What effects in force say, on every screen: a match narrowed to number or colour, a colour
// nobody may play, a colour still to be named.
function inForce(view, ctx) {
  return [
    view.match_by ? h("p", { class: "banner bl-alert", id: "bl-match", text: t(`bl_matchOnly_${view.match_by}`) }) : null,
    view.forbidden ? h("p", { class: "banner bl-alert", id: "bl-forbidden", text: t("bl_forbidden", { colour: colourName(view.forbidden.colour), name: ctx.name(view.forbidden.player) }) }) : null,
    view.to_name && view.to_name !== ctx.me ? h("p", { class: "banner", id: "bl-to-name" }, h("span", { text: `${t("bl_waitName", { name: ctx.name(view.to_name) })} ${t("bl_heldForColour")}` }),
      ctx.isHost && !ctx.ended ? h("button", { type: "button", class: "btn small ghost", id: "skip-colour", text: t("bl_skipColour"),
        onclick: () => ctx.send({ type: "blank.name_colour", skip: true }).catch(() => {}) }) : null) : null,
  ];
}

// The player an effect lets name a colour picks it from the six symbols.
function colourNaming(view, ctx) {
  if (!ctx.me || view.to_name !== ctx.me) return null;
  return h("section", { class: "bl-name-colour", id: "name-colour" }, h("p", { text: t("bl_nameColour") }),
    h("div", { class: "bl-pick", dataset: { pick: "colour" } }, h("div", { class: "bl-pick-row" }, COLOURS.map((c) => h("button", { type: "button", class: `bl-card c-${c}`, dataset: { colour: c }, title: colourName(c),
      onclick: () => ctx.send({ type: "blank.name_colour", colour: c }).catch(() => {}) }, symbol(c), h("small", { text: colourName(c) }))))));
}

// An accusation, or a play the table is asked about (no accuser: it came after an effect the app
// cannot read). First on the table screen, with the host's buttons; the accused phone says so.
function accusation(view, ctx) {
  const acc = ctx.ended ? null : view.accusation;  // a game the host ended leaves nothing to judge
  if (!acc) return null;
  const question = !acc.accuser;
  const reason = t(`bl_${acc.reason}`);
  const words = question ? t("bl_question", { name: ctx.name(acc.accused) })
    : acc.accused === ctx.me ? t("bl_accusedYou", { accuser: ctx.name(acc.accuser), reason })
      : t("event.AccusationMade", { accuser: ctx.name(acc.accuser), accused: ctx.name(acc.accused), reason });
  const judge = (upheld) => () => ctx.send({ type: "blank.judge", upheld }).catch(() => {});
  return h("div", { class: "bk-challenge bl-accusation", id: "accusation", role: "status" }, h("span", { text: words }),
    question && acc.cards ? h("span", { class: "bl-question-cards" }, acc.cards.map((c) => card(c))) : null,
    ctx.isHost ? h("div", { class: "row" },
      h("button", { type: "button", class: "btn danger", id: "uphold", text: t(question ? "bl_penaliseOut" : "bl_uphold"), onclick: judge(true) }),
      h("button", { type: "button", class: "btn ghost", id: "reject", text: t(question ? "bl_letStand" : "bl_reject"), onclick: judge(false) }))
      : question ? h("span", { class: "muted small", text: t("bl_waitQuestion") }) : null);
}

// Whose turn it is, when an effect the app cannot read moved it: the host sets it; at a table
// that allows it, a player says it is theirs.
function turnSetter(view, ctx) {
  if (ctx.ended || view.winner !== null || !view.top) return null;
  if (ctx.isHost) {
    // read when sent: the host's choice is left alone by the redraws
    const set = (e) => ctx.send({ type: "blank.set_turn", player: e.currentTarget.parentElement.querySelector("[name=turn]").value }).catch(() => {});
    return h("div", { class: "row bl-set-turn" }, h("span", { class: "small", text: t("bl_setTurn") }),
      h("select", { name: "turn", "aria-label": t("bl_setTurn") }, view.order.map((p) => h("option", { value: p, text: ctx.name(p), selected: p === view.current }))),
      h("button", { type: "button", class: "btn small ghost", id: "set-turn", text: t("bl_setTurnBtn"), onclick: set }));
  }
  if (!view.claim_turn || !ctx.me || view.current === ctx.me) return null;
  return h("button", { type: "button", class: "btn ghost", id: "claim-turn", text: t("bl_claimTurn"), onclick: () => ctx.send({ type: "blank.set_turn", player: ctx.me }).catch(() => {}) });
}

// My own latest penalty, until the next play: the phone says why (the table screen lists
// everyone's), and the cards it refused are no longer chosen.
function myPenalty(view, ctx) {
  const p = view.penalties.at(-1);
  if (!p || !p.n || p.player !== ctx.me || p.play !== view.plays) return null;
  const cleared = draftFor("penalty", ctx, () => ({ n: 0 }));
  if (cleared.n !== p.n) { cleared.n = p.n; clearEntry("blank-play", ctx); }
  // a play out of turn that does not match either costs a card for each Penalty
  const key = p.fine > 1 ? "bl_myPenaltyFine" : [`bl_myPenalty_${p.reason}_${p.why}`, `bl_myPenalty_${p.reason}`].find(has);
  return h("p", { class: "banner bl-alert", id: "my-penalty", role: "alert", text: key ? t(key, { n: p.fine }) : t("bl_penaltyMine", { reason: t(`bl_${p.reason}`) }) });
}

// Nobody is to play once someone has won, while the prize waits for the owner.
export function turnOf(view) {
  return view.winner ? null : view.current;
}

function prizePanel(view, ctx) {
  const p = view.prize;
  if (view.winner === null) return goingOut(view, ctx);
  // the winner while the prize waits; once the game is over, the page's result line says it
  const banner = ctx.ended ? null : h("p", { class: "banner won", text: `${t("bl_winner")}: ${ctx.name(view.winner)}` });
  if (p && p.status === "proposed") {
    const what = p.kind === "rule" ? `${ruleText(p.rule)} (${triggerText(p.rule.trigger)})` : `${p.effect.title}: ${cardEffectText(p.effect)}`;
    return h("section", {}, banner, h("p", { text: what }), ctx.isHost
      ? h("div", { class: "row" }, h("button", { type: "button", class: "btn primary", id: "approve-prize", text: t("bl_approve"), onclick: () => ctx.send({ type: "blank.decide_prize", approved: true }) }),
        h("button", { type: "button", class: "btn ghost", text: t("bl_refuse"), onclick: () => ctx.send({ type: "blank.decide_prize", approved: false }) }))
      : h("p", { class: "muted", text: t("bl_waitOwner") }));
  }
  return banner;
}

export function board(view, ctx) {
  if (!view.started) return h("p", { class: "muted", text: `${t("bl_deck")}: ${view.deck.name}` });
  return h("div", { class: "blank" }, accusation(view, ctx), prizePanel(view, ctx), status(view, ctx), inForce(view, ctx), turnSetter(view, ctx),
    view.rules_needed && !ctx.ended ? ruleEntry(view, ctx) : null, rulesPanel(view, ctx),
    view.penalties.length ? h("p", { class: "muted small", text: `${t("bl_penalties")}: ${view.penalties.map((x) => `${ctx.name(x.player)} (${t(`bl_${x.reason}`)})`).join(", ")}` }) : null);
}

// Which card attributes a trigger names, as the server's trigger model takes them: a colour
// played names its colour, a number played its number, a card drawn either, both or neither.
const NAMES = { colour_played: ["colour"], number_played: ["number"], card_drawn: ["colour", "number"] };

// A Rule Card's trigger, as both rule forms ask for it (the winner's new Rule Card, the owner's
// rule of their copy): the kind, then for a trigger naming a card's attribute the six symbols
// (drawn, named from the catalogue) and 1-6 as buttons, sent as the structured fields the server
// checks, so nobody types a symbol's English name. Free text is left for an "other" trigger's own
// wording. `draft` holds the choice (it outlives the redraws); `onChange` draws the picker again.
function triggerPicker(draft, onChange) {
  const kind = draft.kind || TRIGGERS[0];
  const names = NAMES[kind] || [];
  const toggle = (attr, value) => { draft[attr] = draft[attr] === value ? undefined : value; onChange(); };
  const pick = (attr, label, buttons) => h("div", { class: "bl-pick", role: "group", "aria-label": label, dataset: { pick: attr }, hidden: !names.includes(attr) },
    h("span", { class: "small muted", text: label }), h("div", { class: "bl-pick-row" }, buttons));
  const typed = (attr) => (e) => { draft[attr] = e.currentTarget.value; };
  return h("div", { class: "bl-trigger" },
      h("select", { name: "trigger", "aria-label": t("bl_trigger"), value: kind, onchange: (e) => { draft.kind = e.currentTarget.value; onChange(); } },
        TRIGGERS.map((o) => h("option", { value: o, text: t(`bl_tr_${o}`) }))),
      pick("colour", t("bl_pickColour"), COLOURS.map((c) => h("button", { type: "button", class: `bl-card c-${c}`, dataset: { colour: c }, title: colourName(c), "aria-pressed": String(draft.colour === c), onclick: () => toggle("colour", c) },
        symbol(c), h("small", { text: colourName(c) })))),
      pick("number", t("bl_pickNumber"), [1, 2, 3, 4, 5, 6].map((n) => h("button", { type: "button", class: "bl-card", dataset: { number: String(n) }, "aria-pressed": String(draft.number === n), onclick: () => toggle("number", n) },
        h("b", { text: String(n) })))),
      h("p", { class: "small muted", text: t("bl_pickEither"), hidden: names.length < 2 }),
      h("label", { hidden: kind !== "time_passes" }, t("bl_seconds"), h("input", { type: "number", name: "seconds", min: 1, max: 600, inputmode: "numeric", value: draft.seconds ?? "", oninput: typed("seconds") })),
      h("label", { hidden: kind !== "other" }, t("bl_triggerText"), h("input", { name: "trigger_text", maxlength: 200, value: draft.text ?? "", oninput: typed("text") })));
}

// The trigger a picker's draft describes, as the server takes it.
function triggerOf(draft) {
  const kind = draft.kind || TRIGGERS[0];
  const out = { kind };
  for (const attr of NAMES[kind] || []) if (draft[attr] !== undefined) out[attr] = draft[attr];
  if (kind === "time_passes") out.seconds = draft.seconds === undefined || draft.seconds === "" ? null : Number(draft.seconds);
  if (kind === "other") out.text = draft.text ?? "";
  return out;
}

// An effect's optional action, from the server's vocabulary (CONTRACT.md "BLANK effects the
// referee applies"): "none" leaves the effect to the players, as any effect was before.
const ACTIONS = ["none", "skip", "reverse", "again", "draw", "match_number", "match_colour", "forbid_colour"];

// An effect's free text, named as its action leaves it: with an action, what the players do
// besides (the action's own words are the catalogue's).
const freeTextName = (action) => t(action ? "bl_textBesides" : "bl_text");

// A deck form's free text box, named so.
function freeText(box, draft) {
  box.placeholder = freeTextName(actionOf(draft).action);
  box.setAttribute("aria-label", box.placeholder);
}

// The picker of an effect's action, drawn from its form's draft ({kind, count}) and drawn again
// by `onChange` when the kind changes (a draw's count shows only for a draw).
function actionPicker(draft, onChange, prefix = "") {
  const kind = draft.kind ?? ACTIONS[0];
  return h("div", { class: "bl-field bl-action" }, h("span", { text: t("bl_action") }),
    h("select", { name: `${prefix}action`, "aria-label": t("bl_action"), value: kind, onchange: (e) => { draft.kind = e.currentTarget.value; onChange(); } },
      ACTIONS.map((a) => h("option", { value: a, text: t(`bl_act_${a}`) }))),
    h("label", { hidden: kind !== "draw" }, t("bl_actCount"), h("input", { type: "number", name: `${prefix}action_count`, min: 1, max: 10, inputmode: "numeric",
      value: draft.count ?? 1, oninput: (e) => { draft.count = e.currentTarget.value; }, onchange: onChange })));
}

// A picker's draft for an action the server sent (none: "none").
const actionDraft = (a) => ({ kind: !a ? "none" : a.kind === "match" ? `match_${a.by}` : a.kind, count: a?.count ?? 1 });

// The action a picker's draft names, as the server takes it.
function actionOf({ kind = "none", count = 1 }) {
  if (kind === "none") return {};
  if (kind === "draw") return { action: { kind: "draw", count: Number(count) } };
  return { action: kind.startsWith("match_") ? { kind: "match", by: kind.slice("match_".length) } : { kind } };
}

function prizeForm(view, ctx) {
  // The winner's Rule Card (or card) as typed so far, kept while the phone re-renders.
  const prizeDraft = draftFor("prize", ctx, () => ({ trigger: {}, fields: {}, action: {}, caction: {} }));
  const f = prizeDraft.fields;
  const decks = [...new Set(view.cards.map((c) => c.deck ?? 0))];  // a table of mixed decks: whose copy gains the rule
  const markOf = (i) => view.cards.find((c) => (c.deck ?? 0) === i)?.mark || String(i + 1);
  const start = { target: TARGETS[0], effect: EFFECTS[0], creator: ctx.name(ctx.me), card: view.cards[0]?.id, deck: String(decks[0]) };
  const val = (name) => f[name] ?? start[name] ?? "";
  const bound = (name, attrs = {}) => ({ ...attrs, name, value: val(name), oninput: (e) => { f[name] = e.currentTarget.value; } });
  const sel = (opts, name, prefix) => h("select", { ...bound(name), onchange: ctx.rerender }, opts.map((o) => h("option", { value: o, text: t(`${prefix}${o}`) })));
  const cardSel = h("select", bound("card", { "aria-label": t("bl_customCard") }), view.cards.map((c) => h("option", { value: c.id,
    text: t("bl_cardOfKind", { mark: c.mark || "", card: cardName(c), kind: t(`bl_k_${c.kind || "plain"}`), effect: c.effect ? c.effect.title : "" }).trim() })));
  const deckSel = decks.length > 1 ? h("select", bound("deck"), decks.map((i) => h("option", { value: String(i), text: markOf(i) }))) : null;
  const proposeRule = () => ctx.send({ type: "blank.propose_rule", rule: { title: val("title"), trigger: triggerOf(prizeDraft.trigger), target: val("target"), effect: val("effect"), text: val("text"), creator: val("creator"), ...actionOf(prizeDraft.action) },
    ...(deckSel ? { deck: Number(val("deck")) } : {}) }).catch(() => {});
  const proposeCard = () => ctx.send({ type: "blank.propose_card", card_id: val("card"), effect: { title: val("ctitle"), text: val("ctext"), creator: val("creator"), ...actionOf(prizeDraft.caction) } }).catch(() => {});
  // The action first: what it does is the effect's words, and the free text says what the
  // players do besides, which the app cannot read (so the two cannot say different things).
  const effectFields = (draft, name, target) => {
    const { action } = actionOf(draft);
    const named = freeTextName(action);
    return [actionPicker(draft, ctx.rerender, name === "ctext" ? "c" : ""),
      action ? h("p", { class: "small bl-does", text: actionWords(action, target) }) : null,
      h("label", {}, named, h("input", bound(name, { maxlength: 200, placeholder: named })))];
  };
  return h("section", { class: "bl-prize", ...promptAt("prize") }, h("h3", { text: t("bl_prize") }),
    h("details", { open: true }, h("summary", { text: t("bl_newRule") }), h("label", {}, t("bl_title"), h("input", bound("title", { maxlength: 200, placeholder: t("bl_title") }))),
      h("div", { class: "bl-field" }, h("span", { text: t("bl_trigger") }), triggerPicker(prizeDraft.trigger, ctx.rerender)),
      h("label", {}, t("bl_target"), sel(TARGETS, "target", "bl_tg_")), h("label", {}, t("bl_effectKind"), sel(EFFECTS, "effect", "bl_ef_")),
      effectFields(prizeDraft.action, "text", val("target")), h("label", {}, t("bl_creator"), h("input", bound("creator", { maxlength: 200 }))),
      deckSel ? h("label", {}, t("bl_forDeck"), deckSel) : null,
      h("button", { type: "button", class: "btn primary", id: "propose-rule", text: t("bl_propose"), onclick: proposeRule })),
    h("details", {}, h("summary", { text: t("bl_customCard") }), cardSel, h("label", {}, t("bl_title"), h("input", bound("ctitle", { maxlength: 200 }))),
      effectFields(prizeDraft.caction, "ctext"),
      h("button", { type: "button", class: "btn primary", id: "propose-card", text: t("bl_propose"), onclick: proposeCard })));
}

export function phone(view, ctx) {
  if (!view.started) return null;
  const parts = [accusation(view, ctx), ctx.ended ? null : myPenalty(view, ctx)];
  if (view.winner === ctx.me && (!view.prize || view.prize.status === "rejected")) parts.push(prizeForm(view, ctx));
  else parts.push(prizePanel(view, ctx));
  const hot = view.rules.filter((r) => hotRules(view).includes(r.id));
  if (hot.length) parts.push(h("p", { class: "banner bl-alert" }, `${t("bl_triggered")} `, h("span", { class: "user-text", text: hot.map(ruleText).join(" · ") })));
  parts.push(inForce(view, ctx), status(view, ctx));
  if (view.winner === null && !ctx.ended) parts.push(colourNaming(view, ctx), turnSetter(view, ctx));
  const groups = { effects: t("bl_effectCards") };
  if (view.winner === null && !ctx.ended) parts.push(drawnEntry(view, ctx, groups), myDrawn(view));
  if (ctx.ended) {
    // the host ended the game: nothing is left to enter or play (a winner's prize still is)
  } else if (view.rules_needed) {
    parts.push(h("div", promptAt("rules"), ruleEntry(view, ctx)));
  } else if (!view.top) {
    parts.push(h("div", promptAt("first-card"), cardEntry({ id: "blank-first", ctx, title: t("bl_turnFirst"), palette: deckPalette(view), groups, face: cardButton,
      enter: ([c]) => ctx.send({ type: "blank.first_card", card: named(c) }) })));
  } else if (view.winner === null) {
    // Nothing is played while the table follows a last card's effects; accusing still is.
    if (view.going_out) clearEntry("blank-play", ctx);
    else parts.push(h("section", { class: "bl-play" }, cardEntry({
      id: "blank-play", ctx, title: t("bl_playCards"), palette: deckPalette(view), groups, face: cardButton, max: Math.max(1, view.hands[ctx.me] ?? 1), confirm: true,
      limit: freeCopies(view),
      enter: (cards) => ctx.send({ type: "blank.play", cards: cards.map(named) }),
      labels: { enter: t("bl_play"), clear: t("bl_clear") },
    }), h("div", { class: "row" },
      view.current === ctx.me ? h("button", { type: "button", class: "btn", id: "draw", text: t("bl_draw"), onclick: () => ctx.send({ type: "blank.draw" }).catch(() => {}) }) : null,
      // a Rule Card or Game Card effect tells me to draw: no penalty, and my turn goes on
      h("button", { type: "button", class: "btn ghost", id: "effect-draw", text: t("bl_effectDraw"), onclick: () => ctx.send({ type: "blank.draw", effect: true }).catch(() => {}) }))));
    // Read when sent: the choices are the player's own (the redraws leave them alone).
    const accuse = (e) => {
      const form = e.currentTarget.closest(".bl-accuse");
      ctx.send({ type: "blank.accuse", player: form.querySelector("[name=accused]").value, reason: form.querySelector("[name=reason]").value }).catch(() => {});
    };
    parts.push(h("details", { class: "bl-accuse" }, h("summary", { text: t("bl_accuse") }),
      h("select", { name: "accused" }, view.order.filter((p) => p !== ctx.me).map((p) => h("option", { value: p, text: ctx.name(p) }))),
      h("select", { name: "reason", "aria-label": t("bl_reason") }, ["out_of_turn", "illegal_play", "missed_rule"].map((r) => h("option", { value: r, text: t(`bl_${r}`) }))),
      h("button", { type: "button", class: "btn danger", text: t("bl_accuse"), onclick: accuse })));
  }
  parts.push(rulesPanel(view, ctx));
  return h("div", { class: "blank" }, parts);
}

// The decks on the server arrive after the form is shown: a component of its own draws them
// then. What was chosen is read from the form when the table is created.
class DeckOptions extends Component {
  componentDidMount() {
    api("/api/decks").then(({ decks }) => this.setState({ decks }), () => {});
  }

  render() {
    const decks = this.state.decks || [];
    const label = (d) => `${d.name}${d.mark ? ` ${d.mark}` : ""} (${d.rules})`;
    const radio = (group, value, text, checked) => h("label", { class: "check" }, h("input", { type: "radio", name: group, value, checked: checked || null }), text);
    return h("div", { class: "options" },
      h("label", {}, t("bl_deck"), h("select", { name: "deck", id: "deck" }, h("option", { value: "", text: t("bl_newDeck") }), decks.map((d) => h("option", { value: d.id, text: label(d) })))),
      h("input", { name: "deck_name", id: "deck-name", placeholder: t("bl_newDeck"), "aria-label": t("bl_newDeck"), maxlength: 60 }),
      // offered once there are decks to mix in (a new server has none: an empty box says nothing)
      decks.length ? h("fieldset", { class: "bl-mix", id: "deck-mix" }, h("legend", { text: t("bl_mix") }),
        decks.map((d) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "mix", value: d.id }), label(d)))) : null,
      h("fieldset", {}, h("legend", { text: t("bl_ruleCards") }), radio("rule_cards", "table", t("bl_ruleCardsTable"), true), radio("rule_cards", "app", t("bl_ruleCardsApp"))),
      h("fieldset", {}, h("legend", { text: t("bl_multiPlay") }), radio("multi_play", "top", t("bl_multiTop"), true), radio("multi_play", "shared", t("bl_multiShared"))),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "claim_turn" }), t("bl_claimTurnOption")));
  }
}

export function optionsForm() {
  return {
    el: h(DeckOptions),
    read: async (root) => {
      const picked = (group) => root.querySelector(`[name=${group}]:checked`).value;
      let first = root.querySelector("[name=deck]").value;
      if (!first) {
        const made = await api("/api/decks", { method: "POST", body: { name: root.querySelector("[name=deck_name]").value || "BLANK", mark: "" } });
        try { localStorage.setItem(`tc.deck.${made.id}`, made.owner_token); } catch { /* the owner token is only for editing */ }
        first = made.id;
      }
      const others = [...root.querySelectorAll("[name=mix]:checked")].map((box) => box.value).filter((id) => id !== first);
      const decks = others.length ? { deck_ids: [first, ...others] } : { deck_id: first };
      return { ...decks, rule_cards: picked("rule_cards"), multi_play: picked("multi_play"), claim_turn: root.querySelector("[name=claim_turn]").checked };
    },
  };
}

export function describe(e, ctx) {
  const key = `event.${e.type}`;
  switch (e.type) {
    case "RulesRevealed": return t(key, { n: e.revealed.length });
    case "FirstCardTurned": return t(key, { card: cardName(e.card) });
    case "CardsPlayed": return t(key, { name: ctx.name(e.player), cards: e.cards.map(cardName).join(", ") });
    case "PenaltyTaken": return t(e.drawn === false ? "event.PenaltyNoCard" : key, { name: ctx.name(e.player), reason: t(`bl_${e.reason}`) });
    case "CardDrawn": return t(key, { name: ctx.name(e.player) });
    // the face is in the drawer's own copy of the event only
    case "DrawnCardEntered": return e.card ? t("event.DrawnCardEnteredMine", { card: cardName(e.card) }) : t(key, { name: ctx.name(e.player) });
    case "RuleCardsTurned": return t(key, { n: e.rules.length, source: t(`bl_source_${e.source}`) });
    case "EffectsResolved": return t(key, { name: ctx.name(e.player) });
    case "AccusationMade": return e.accuser ? t(key, { accuser: ctx.name(e.accuser), accused: ctx.name(e.accused), reason: t(`bl_${e.reason}`) })
      : t("event.PlayQuestioned", { name: ctx.name(e.accused) });
    case "TurnChanged": return t(key, { name: ctx.name(e.player), cause: t(`bl_cause_${e.cause}`, { by: ctx.name(e.by) }) });
    case "MatchRestricted": return t(key, { by: t(`bl_by_${e.by}`) });
    case "ColourToName": return t(key, { name: ctx.name(e.player) });
    case "ColourForbidden": return t(key, { name: ctx.name(e.player), colour: colourName(e.colour) });
    case "ColourSkipped": return t(key, { name: ctx.name(e.player) });
    case "AccusationJudged": return t(key, { verdict: t(e.upheld ? "bl_upheld" : "bl_rejected") });
    case "RuleDiscarded": return t(key);
    case "HandAdjusted": return t(key, { name: ctx.name(e.player), delta: e.delta > 0 ? `+${e.delta}` : String(e.delta) });
    case "PrizeProposed": return t(key, { name: ctx.name(e.winner), kind: t(`bl_kind_${e.kind}`) });
    case "PrizeDecided": return t(key, { verdict: t(e.approved ? "bl_approved" : "bl_refused") });
    default: return null;
  }
}

// The decks on this server, on the table's start screen: history, wins, export, import, and
// (for the device that made a deck) typing in the rules of the physical copy.
export async function decksPanel(ctx) {
  const { decks } = await api("/api/decks");
  const file = el("input", { type: "file", accept: "application/json", id: "deck-import" });
  file.addEventListener("change", async () => {
    const text = await file.files[0].text();
    try { await api("/api/decks/import", { method: "POST", body: JSON.parse(text) }); ctx.reload(); } catch (err) { ctx.toast(errorText(err.code ? err : "blank/bad_deck")); }
  });
  const sel = (opts, prefix, what) => el("select", { "aria-label": what }, opts.map((o) => el("option", { value: o, text: t(`${prefix}${o}`) })));
  return el("section", { class: "card", id: "decks" }, el("h2", { text: t("bl_decks") }),
    el("ul", { class: "past" }, decks.map((d) => {
      const token = (() => { try { return localStorage.getItem(`tc.deck.${d.id}`); } catch { return null; } })();
      const wins = Object.entries(d.wins).map(([n, w]) => `${n}: ${w}`).join(", ");
      const item = el("li", {}, el("strong", { text: d.name }), ` · ${d.rules} · ${t("bl_wins")}: ${wins || "—"} · `,
        el("a", { href: `/api/decks/${d.id}/export`, download: `blank-${d.id}.json`, text: t("bl_export") }));
      const hist = el("details", {}, el("summary", { text: t("bl_history") }));
      hist.addEventListener("toggle", async () => {
        if (hist.dataset.loaded) return;
        hist.dataset.loaded = "1";
        const deck = await api(`/api/decks/${d.id}`);
        hist.append(el("ol", {}, deck.history.map((x) => el("li", { text: `${new Date(x.ts_ms).toLocaleDateString()} ${x.who} ${x.what}` }))));
      });
      item.append(hist);
      if (token) {
        const target = sel(TARGETS, "bl_tg_", t("bl_target")), effect = sel(EFFECTS, "bl_ef_", t("bl_effectKind"));
        const trigger = {}, triggerBox = el("div");
        const drawTrigger = () => patch(triggerBox, triggerPicker(trigger, drawTrigger));
        drawTrigger();
        const body = el("input", { maxlength: 200, placeholder: t("bl_text"), "aria-label": t("bl_text") });
        const title = el("input", { maxlength: 200, placeholder: t("bl_title"), "aria-label": t("bl_title") });
        const action = {}, actionBox = el("div");
        const drawAction = () => { patch(actionBox, actionPicker(action, drawAction)); freeText(body, action); };
        drawAction();
        item.append(el("details", { class: "bl-add-rule" }, el("summary", { text: t("bl_addRule") }), title, el("div", { class: "bl-field" }, el("span", { text: t("bl_trigger") }), triggerBox), target, effect, actionBox, body,
          el("button", { type: "button", class: "btn small", text: t("bl_propose"), onclick: () => api(`/api/decks/${d.id}/rules`, { method: "POST", token,
            body: { title: title.value, trigger: triggerOf(trigger), target: target.value, effect: effect.value, text: body.value, creator: d.name, ...actionOf(action) } })
            .then(() => ctx.reload(), (err) => ctx.toast(errorText(err))) })), cardsForm(d, token, ctx));
      }
      return item;
    })), el("label", { class: "btn file-pick" }, t("bl_import"), file));  // the browser's own "Choose file" words are in its language, not the page's
}

// The owner enters their physical Game Cards: which are illustrated, and the effect printed on a
// card (the rulebook's examples are offered; the box's own cards may say anything).
function cardsForm(d, token, ctx) {
  const box = el("details", { class: "bl-describe" }, el("summary", { text: t("bl_describeCards") }));
  box.addEventListener("toggle", async () => {
    if (box.dataset.loaded) return;
    box.dataset.loaded = "1";
    const [deck, { effects }] = await Promise.all([api(`/api/decks/${d.id}`), api("/api/decks/examples")]);
    const option = (c) => el("option", { value: c.id, text: `${cardName(c)}${c.illustrated ? ` (${t("bl_k_illustrated")})` : ""}${c.effect ? `: ${c.effect.title}` : ""}` });
    const which = el("select", { name: "card", "aria-label": t("bl_describeCards") }, deck.cards.map(option));
    const illustrated = el("input", { type: "checkbox", name: "illustrated" });
    const title = el("input", { name: "etitle", maxlength: 200, placeholder: t("bl_title"), "aria-label": t("bl_title"), list: `bl-examples-${d.id}` });
    const body = el("input", { name: "etext", maxlength: 200, placeholder: t("bl_text"), "aria-label": t("bl_text") });
    const creator = el("input", { name: "ecreator", maxlength: 200, placeholder: t("bl_creator"), "aria-label": t("bl_creator") });
    const none = el("input", { type: "checkbox", name: "none" });
    // the rulebook's examples, in the page's language: once picked, they are the owner's words
    const worded = effects.map((x) => ({ ...x, title: t(`bl_exfx_${x.key}_title`), text: t(`bl_exfx_${x.key}_text`) }));
    const examples = el("datalist", { id: `bl-examples-${d.id}` }, worded.map((x) => el("option", { value: x.title })));
    let action = {};
    const actionBox = el("div");
    const drawAction = () => { patch(actionBox, actionPicker(action, drawAction)); freeText(body, action); };
    const show = () => {
      const c = deck.cards.find((x) => x.id === which.value);
      illustrated.checked = c.illustrated;
      none.checked = !c.effect;
      title.value = c.effect?.title || ""; body.value = c.effect?.text || ""; creator.value = c.effect?.creator || "";
      action = actionDraft(c.effect?.action);
      drawAction();
    };
    which.addEventListener("change", show);
    title.addEventListener("change", () => {  // an example picked by its title fills in the rest
      const x = worded.find((e) => e.title === title.value);
      if (x) { body.value = x.text; creator.value = x.creator; none.checked = false; }
    });
    const save = () => api(`/api/decks/${d.id}/cards/${which.value}`, { method: "POST", token,
      body: { illustrated: illustrated.checked, effect: none.checked ? null : { title: title.value, text: body.value, creator: creator.value, ...actionOf(action) } } })
      .then((c) => { Object.assign(deck.cards.find((x) => x.id === c.id), c); which.selectedOptions[0].replaceWith(option(c)); which.value = c.id; }, (err) => ctx.toast(errorText(err)));
    box.append(which, el("label", { class: "check" }, illustrated, t("bl_isIllustrated")), el("label", { class: "check" }, none, t("bl_noEffect")),
      title, examples, actionBox, body, creator, el("button", { type: "button", class: "btn small", text: t("bl_save"), onclick: save }));
    show();
  });
  return box;
}
