// "Enter the card you drew, or let the app draw": one component for every game.
//
// The physical table is the truth. Wherever the real game draws or reveals a card, the phone
// shows this component: the player taps the card in front of them (one tap when one card is
// all the entry needs), or, in groups playing without the cards, asks the app to draw. On the
// server the command goes through companion/games/core/draws.py: it names the card
// (`{[key]: card}`) or asks `{draw: true}`, and the event records which (`source`).
//
// cardEntry({
//   id,        stable DOM id; it also keeps a half-built entry across re-renders (every state
//              update re-renders the phone) until it is sent
//   ctx,       the screen's context: the half-built entry is its table's, game's and seat's
//   title,     heading, worded by the caller from the catalogue (i18n.js)
//   palette,   the game's card catalogue: [{ key, card, group? }], every card the deck can hold;
//              consecutive items of one `group` (a stable key, styled by `data-group`) are
//              shown together under `groups[group]`, a heading worded by the caller
//   face,      the game's renderer: (card, attrs) => a <button> showing one card
//   min, max,  how many cards make one entry (default 1..1: a tap on a card sends it at once);
//              a function (choices) => n when a choice decides it (a project's size)
//   ordered,   whether the chosen cards keep the order they were tapped in (default true)
//   confirm,   a tap only chooses, even when one card is all the entry takes: the entry button
//              sends (a play, where a mis-tap costs a penalty or ends the game)
//   limit,     optional (item, others) => n: how often an item may be chosen (one physical card:
//              once; a card on the pile: never; a colour and number: as many copies as are free),
//              `others` being the items already chosen under other buttons (an effect copy beside
//              its plain twin takes a copy too); any number of times without it
//   choices,   fields of the entry that are no card: [{ name, label, options: [{ value, label }],
//              value }] shown as a row of toggles (a project's type and size)
//   enter,     (cards, choices) => Promise: send the command that names the entered card(s)
//   draw,      optional () => Promise: send the command asking the app to draw; leave it out
//              where the app has no virtual deck for that card
//   labels,    { enter, draw, clear }: button texts, worded by the caller
// }) => a view node (view.js)
//
// The card from the table comes first; the app's draw is the option below it.
//
// How BLANK uses it (static/js/games/blank.js):
// - the play picker: palette = the deck's own Game Cards (plain, illustrated, the effect copy
//   as a separate item where one exists), max = the hand's size, ordered, enter = blank.play
//   {cards}; no draw (a play is always the cards put down).
// - drawn cards (a penalty, no card to play): palette = the deck's cards, enter = the command
//   that names the card drawn, draw = the app's draw for tables without the cards.
// - setup Rule Cards: palette = the deck's Rule Cards, min = max = 3, ordered = false, enter =
//   the three turned over, draw = the app turning three from its shuffled Rule Card Pile.

import { Component, draftFor, forgetDraft, h, withClass } from "./view.js";

function draftOf(id, ctx, choices) {
  return draftFor(`entry.${id}`, ctx, () => ({ cards: [], choices: Object.fromEntries(choices.map((c) => [c.name, c.value])) }));
}

/** Forget a half-built entry (the table moved on, or the entry was sent). */
export function clearEntry(id, ctx) {
  forgetDraft(`entry.${id}`, ctx);
}

export function cardEntry(opts) {
  return h(CardEntry, opts);
}

// A component of its own, so a tap redraws the entry alone; the draft lives outside it, so a
// phone drawn again from scratch (a reload, another game's view in between) keeps it too.
class CardEntry extends Component {
  render(opts) {
    const { id, ctx, title, palette, groups = {}, face, min = 1, max = 1, ordered = true, confirm = false, choices = [], enter, draw, labels = {}, limit = () => Infinity } = opts;
    const draft = draftOf(id, ctx, choices);
    const rerender = () => this.forceUpdate();
    const lo = typeof min === "function" ? min(draft.choices) : min;
    const hi = typeof max === "function" ? max(draft.choices) : max;
    if (draft.cards.length > hi) draft.cards.length = hi;
    const single = hi === 1 && lo === 1 && choices.length === 0 && !confirm;
    const send = (promise) => {
      if (this.busy) return;
      this.busy = true;
      rerender();
      // A refusal (the server's answer, not a lost connection) starts the entry over: cards left
      // chosen were added to unseen by the next tap, and two copies went down for one.
      promise.then(() => clearEntry(id, ctx), (err) => { if (err?.status >= 400) clearEntry(id, ctx); })
        .finally(() => { this.busy = false; rerender(); });
    };
    const rank = (item) => palette.findIndex((p) => p.key === item.key);
    const faced = (card, attrs, cls) => withClass(face(card, attrs), cls);
    // an item chosen as often as it may be (one card to choose is replaced by the next tap)
    const spent = (item) => {
      const n = limit(item, hi > 1 ? draft.cards.filter((x) => x.key !== item.key) : []);
      return n === 0 || (hi > 1 && draft.cards.filter((x) => x.key === item.key).length >= n);
    };
    const tap = (item) => {
      if (single) { send(enter([item.card], draft.choices)); return; }
      if ((draft.cards.length >= hi && hi > 1) || spent(item)) return;
      if (hi === 1) draft.cards = [];  // one card to choose: another tap changes the choice
      draft.cards.push(item);
      if (!ordered) draft.cards.sort((a, b) => rank(a) - rank(b));
      rerender();
    };

    const toggles = choices.map((c) => h("div", { class: "ce-choice", role: "group", "aria-label": c.label },
      h("span", { class: "ce-choice-label", text: c.label }),
      c.options.map((o) => h("button", { type: "button", class: `chip${draft.choices[c.name] === o.value ? " chip-on" : ""}`,
        "aria-pressed": String(draft.choices[c.name] === o.value), dataset: { choice: `${c.name}-${o.value}` }, text: o.label,
        onclick: () => { draft.choices[c.name] = o.value; rerender(); } }))));

    const chosen = single ? null : h("div", { class: "ce-chosen", "aria-live": "polite" },
      draft.cards.map((item, i) => faced(item.card, { dataset: { slot: String(i) }, "aria-pressed": "true",
        onclick: () => { draft.cards.splice(i, 1); rerender(); } }, "ce-slot")),
      Array.from({ length: Math.max(0, lo - draft.cards.length) }, () => h("span", { class: "ce-slot empty", "aria-hidden": "true" })),
      h("span", { class: "ce-count", text: `${draft.cards.length}/${hi}` }));

    const runs = [];
    for (const item of palette) {
      const last = runs[runs.length - 1];
      if (last && last.name === (item.group ?? null)) last.items.push(item); else runs.push({ name: item.group ?? null, items: [item] });
    }
    const grid = runs.map((g) => h("div", { class: "ce-group", dataset: g.name ? { group: g.name } : null },
      groups[g.name] ? h("h4", { text: groups[g.name] }) : null,
      h("div", { class: "ce-palette" }, g.items.map((item) => faced(item.card, { dataset: { card: item.key },
        disabled: !single && ((hi > 1 && draft.cards.length >= hi) || spent(item)) ? true : null, onclick: () => tap(item) }, "ce-pick")))));

    const actions = single ? null : h("div", { class: "row ce-actions" },
      h("button", { type: "button", class: "btn primary", dataset: { enter: id }, text: labels.enter, disabled: draft.cards.length < lo || draft.cards.length > hi ? true : null,
        onclick: () => send(enter(draft.cards.map((item) => item.card), draft.choices)) }),
      draft.cards.length ? h("button", { type: "button", class: "btn ghost", text: labels.clear, onclick: () => { draft.cards = []; rerender(); } }) : null);

    const drawButton = draw ? h("button", { type: "button", class: "btn ghost big", dataset: { draw: id }, text: labels.draw, onclick: () => send(draw()) }) : null;
    return h("section", { class: `card-entry${this.busy ? " busy" : ""}`, id }, h("h3", { text: title }), toggles, chosen, grid, actions, drawButton);
  }
}
