// BLDNG: my hidden project and what it still needs, everyone's shapes on the table, and the
// card picker for what I drew, with the steps of the What happens cards. Project cards and
// drawn cards are entered through the shared card entry (card-entry.js).

import { storage } from "../api.js";
import { cardEntry } from "../card-entry.js";
import { h, promptAt, svg } from "../view.js";
import { t } from "../i18n.js";

const COLOURS = { yellow: "#e9b949", green: "#3f9b5a", red: "#cf4c3e", blue: "#3c6fd1" };
const SHAPES = ["triangle", "circle", "square", "rectangle"];
const EFFECTS = ["take_three", "take_one_each", "steal_circle", "steal_square", "steal_triangle", "steal_rectangle", "shift_projects", "change_project", "reverse", "give_five", "skip", "up_to_15"];

function glyph(shape, colour) {
  const paint = { fill: colour ? COLOURS[colour] : "transparent", stroke: "currentColor", "stroke-width": "1.2" };
  const paths = {
    triangle: () => svg("polygon", { points: "12,3 22,21 2,21", ...paint }),
    circle: () => svg("circle", { cx: 12, cy: 12, r: 9.5, ...paint }),
    square: () => svg("rect", { x: 3, y: 3, width: 18, height: 18, ...paint }),
    rectangle: () => svg("rect", { x: 1, y: 6, width: 22, height: 12, ...paint }),
    any: () => svg("path", { d: "M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z", ...paint }),
  };
  return svg("svg", { viewBox: "0 0 24 24", class: "bd-glyph", "aria-hidden": "true" }, (paths[shape] || paths.any)());
}

const elementLabel = (shape, colour) => `${t(`bd_${colour}`)} ${t(`bd_${shape}`)}`;

function cardLabel(card) {
  if (card.kind === "shape") return elementLabel(card.shape, card.colour);
  if (card.kind === "jolly_colours") return `${t("bd_jollyColours")}: ${t(`bd_${card.shape}`)}`;
  if (card.kind === "jolly_shapes") return `${t("bd_jollyShapes")}: ${t(`bd_${card.colour}`)}`;
  if (card.kind === "what_happens") return t(`bd_${card.effect}`);
  return t("bd_jollyAll");
}

// One card as a button: the shape in its colour (a jolly shows what it stands for, and says
// it is a jolly in words), or the What happens card's name.
function cardFace(card, attrs = {}) {
  if (card.kind === "what_happens") return h("button", { type: "button", class: "bd-card bd-wh", text: cardLabel(card), ...attrs });
  const colour = card.kind === "shape" || card.kind === "jolly_shapes" ? card.colour : null;
  return h("button", { type: "button", class: `bd-card ${card.kind}`, title: cardLabel(card), "aria-label": cardLabel(card), ...attrs },
    glyph(card.shape || "any", colour), card.kind.startsWith("jolly") ? h("span", { class: "bd-jolly", "aria-hidden": "true", text: t("bd_jolly") }) : null);
}

function elementFace(element, done) {
  const what = elementLabel(element[0], element[1]);
  return h("span", { class: `bd-el${done ? " done" : ""}`, title: what, role: "img", "aria-label": what }, glyph(element[0], element[1]));
}

// A project element to pick, drawn like the element on the project card.
function elementButton(element, attrs = {}) {
  return h("button", { type: "button", class: "bd-el pick", title: elementLabel(element[0], element[1]), "aria-label": elementLabel(element[0], element[1]), ...attrs },
    glyph(element[0], element[1]));
}

// The deck's catalogue, for the card picker: every card a draw can show.
const DECK = [
  ...Object.keys(COLOURS).flatMap((colour) => SHAPES.map((shape) => ({ key: `${colour}-${shape}`, card: { kind: "shape", shape, colour }, group: "shapes" }))),
  ...SHAPES.map((shape) => ({ key: `jolly-${shape}`, card: { kind: "jolly_colours", shape }, group: "jollies" })),
  ...Object.keys(COLOURS).map((colour) => ({ key: `jolly-${colour}`, card: { kind: "jolly_shapes", colour }, group: "jollies" })),
  { key: "jolly-all", card: { kind: "jolly_all" }, group: "jollies" },
  ...EFFECTS.map((effect) => ({ key: effect, card: { kind: "what_happens", effect }, group: "whatHappens" })),
];
const ELEMENTS = Object.keys(COLOURS).flatMap((colour) => SHAPES.map((shape) => ({ key: `${colour}-${shape}`, card: [shape, colour], group: "elements" })));

export function optionsForm() {
  const direction = h("select", { name: "direction" }, h("option", { value: "clockwise", text: t("bd_clockwise") }), h("option", { value: "anticlockwise", text: t("bd_anticlockwise") }));
  return { el: h("div", { class: "options" }, h("label", {}, t("bd_direction"), direction)), read: (root) => ({ direction: root.querySelector("[name=direction]").value }) };
}

// `takeable`: the player may take the last discard instead of drawing (the server says when).
export function stepText(step, takeable = false) {
  const key = step.kind === "draw" && takeable ? "bd_step_draw_discard" : `bd_step_${step.kind}`;
  return t(key, { n: step.count, shape: step.shape ? t(`bd_${step.shape}`) : "" });
}

function stepLine(view) {
  const waiting = (view.resume || []).slice().reverse().map((s) => t("bd_then", { step: stepText(s) }));
  return [stepText(view.step, view.discard_takeable), ...waiting].join(" · ");
}

function table(view, ctx, pick) {
  return h("div", { class: "bd-players" }, view.order.map((pid) => h("div", { class: `bd-player${pid === view.current ? " current" : ""}`, dataset: { player: pid } },
    h("div", { class: "bd-name" }, h("strong", { text: ctx.name(pid) }), ` ${view.hands[pid].length}/${view.limits[pid]} ${t("bd_cards")}`,
      view.big_hand === pid ? h("span", { class: "tag", text: "15" }) : null, view.has_project[pid] ? null : h("span", { class: "tag", text: "…" })),
    h("div", { class: "bd-hand" }, view.hands[pid].map((card, i) => cardFace(card, pick ? pick(pid, i, card) : { disabled: true }))))));
}

export function board(view, ctx) {
  if (!view.started) return null;
  return h("div", { class: "bldng" },
    h("p", { class: "bd-piles" }, `${view.direction > 0 ? "↻" : "↺"} · ${t("bd_pile")}: `, h("strong", { id: "draw-pile", text: String(view.draw_pile) }),
      ` · ${t("bd_discards")}: ${view.discard_pile}`, view.last_discard ? [" · ", cardFace(view.last_discard.card, { disabled: true })] : null),
    h("p", { class: "muted", id: "board-step", text: `${ctx.name(view.current)}: ${stepLine(view)}` }),
    table(view, ctx, null),
    view.recent.length ? h("ul", { class: "bd-recent" }, view.recent.slice().reverse().map((r) => h("li", { text: `${ctx.name(r.player)}: ${t(`bd_${r.effect}`)}` }))) : null);
}

// The project card a player took from the Project deck, at the start or after Change project:
// the same entry both times (bldng.set_project), the app's draw as the option below it.
function projectEntry(view, ctx, changing) {
  return cardEntry({
    id: "project-entry", ctx, title: t(changing ? "bd_newProject" : "bd_projectCard"), palette: ELEMENTS, face: elementButton,
    min: (c) => Number(c.size), max: (c) => Number(c.size),
    choices: [{ name: "type", label: t("bd_type"), value: "ordered", options: ["ordered", "sculpture"].map((v) => ({ value: v, label: t(`bd_${v}`) })) },
      { name: "size", label: t("bd_size"), value: "8", options: ["8", "10"].map((v) => ({ value: v, label: v })) }],
    enter: (elements, c) => ctx.send({ type: "bldng.set_project", project: { type: c.type, elements } }),
    draw: () => ctx.send({ type: "bldng.set_project", draw: true }),
    labels: { enter: t("bd_save"), draw: t("bd_drawProject"), clear: t("bd_clear") },
  });
}

// Every shape in place is a win only where the turn ends (docs/bldng.md): until then the
// phone says what is still to do, a discard the turn owes first.
function missingLine(view, ctx) {
  const missing = view.my_project.missing.length;
  if (view.winner === ctx.me) return h("p", { class: "banner won", id: "complete", text: t("bd_complete") });
  if (missing || view.over || ctx.ended) return h("p", { class: "muted", id: "missing", text: `${t("bd_missing")}: ${missing}` });
  const owed = view.current === ctx.me && view.step.kind === "discard";
  return h("p", { class: "banner notice", id: "complete", text: t(owed ? "bd_completeDiscard" : "bd_completeTurn") });
}

function myProject(view, ctx) {
  const p = view.my_project;
  const done = p.assigned.map((a) => a !== null);
  return h("section", { class: "bd-project", id: "my-project" }, h("h3", {}, `${t("bd_project")} (${t(`bd_${p.type}`)})`),
    h("div", { class: "bd-elements" }, p.elements.map((el, i) => elementFace(el, done[i]))),
    missingLine(view, ctx));
}

// The card I drew from the deck: one tap on it, as it looks.
function picker(view, ctx) {
  return [cardEntry({
    id: "draw-entry", ctx, title: t("bd_drew"), palette: DECK, face: cardFace,
    groups: { shapes: t("bd_shapes"), jollies: t("bd_jollies"), whatHappens: t("bd_whatHappens") },
    enter: ([card]) => ctx.send({ type: "bldng.draw", card }),
    draw: () => ctx.send({ type: "bldng.draw", draw: true }),
    labels: { draw: t("bd_drawCard") },
  }), view.discard_takeable ? h("button", { type: "button", class: "btn ghost", id: "take-discard", text: t("bd_takeDiscard"), onclick: () => ctx.send({ type: "bldng.take_discard" }).catch(() => {}) }) : null];
}

// What my project is now, in words: "Ordered, 8 cards".
function projectText(project) {
  return project ? t("bd_projectIs", { type: t(`bd_${project.type}`), n: project.elements.length }) : "";
}

// News of my project changing hands, shown until I tap OK (once per change, across reloads):
// what happened, and what my project is now.
function news(view, ctx) {
  const item = view.news;
  const key = `tc.bldng.news.${ctx.me}`;
  const seen = Number(storage.get(key) || 0);
  if (!item || item.n <= seen) return null;
  return h("div", { class: "banner notice", id: "project-news", role: "alert" },
    h("span", { text: t(`bd_news_${item.code}`, { by: ctx.name(item.by), from: item.came_from ? ctx.name(item.came_from) : "", project: projectText(view.my_project) }) }),
    h("button", { type: "button", class: "btn small", text: t("bd_ok"), onclick: () => { storage.set(key, item.n); ctx.rerender(); } }));
}

// What the app drew for me, where a table without the cards cannot see it.
function appDrew(view, ctx) {
  const last = view.last_drawn;
  if (!last || last.player !== ctx.me || last.source !== "drawn") return null;
  return h("p", { class: "bd-drew", id: "app-drew" }, `${t("bd_appDrew")} `, cardFace(last.card, { disabled: true }), ` ${cardLabel(last.card)}`);
}

// Take one card from each player, or Steal: the cards are taken in the other players' rows,
// where only those the server says may be taken (view.take) can be tapped; "nothing to take"
// is offered only where it may be said: per player for Take one, and for a Steal once,
// when nobody else holds its shape.
function takeStep(view, ctx) {
  const take = view.take || { cards: {}, nothing: [] };
  const steal = view.step.kind === "steal";
  const shape = steal ? t(`bd_${view.step.shape}`) : "";
  const send = (from) => ctx.send({ type: "bldng.take", from, index: null }).catch(() => {});
  const hint = steal ? (take.nothing.length ? "bd_stealNone" : "bd_tapSteal") : "bd_tapTake";
  const buttons = steal ? take.nothing.slice(0, 1).map((p) => h("button", { type: "button", class: "btn ghost small", id: "take-nothing", text: t("bd_nothing"), onclick: () => send(p) }))
    : take.nothing.map((p) => h("button", { type: "button", class: "btn ghost small", dataset: { nothing: p }, text: `${t("bd_nothing")}: ${ctx.name(p)}`, onclick: () => send(p) }));
  return [h("p", { class: "muted", id: "take-hint", text: t(hint, { shape }) }), buttons.length ? h("div", { class: "row" }, buttons) : null];
}

function takePick(view, ctx) {
  const cards = view.take?.cards || {};
  return (pid, i) => ((cards[pid] || []).includes(i) ? { onclick: () => ctx.send({ type: "bldng.take", from: pid, index: i }).catch(() => {}) } : { disabled: true });
}

export function phone(view, ctx) {
  if (!view.started) return null;
  const me = ctx.me;
  const over = view.over || ctx.ended;  // by the rules, or because the host ended the game
  const mine = view.current === me && !over;
  const parts = [news(view, ctx), appDrew(view, ctx)];
  const changing = mine && view.step.kind === "project";
  if (view.my_project) parts.push(myProject(view, ctx));
  else if (!over) {
    // Change project: the old card goes under the Project deck and the table deals the top one
    if (changing) parts.push(h("p", { class: "banner notice", id: "project-change", role: "alert", text: t("bd_changePrompt"), ...promptAt(`change-${view.draw_pile}`) }));
    parts.push(projectEntry(view, ctx, changing));
  }
  let pick = null;
  if (mine) {
    // a new step, or the same kind of step again after cards moved, is a new prompt
    parts.push(h("p", { class: "prompt", id: "step", text: stepLine(view), ...promptAt(`${view.step.kind}-${(view.resume || []).length}-${view.draw_pile}-${view.discard_pile}`) }));
    if (view.step.kind === "draw" || view.step.kind === "draw_more") {
      if (Object.values(view.has_project).every(Boolean)) parts.push(picker(view, ctx)); else parts.push(h("p", { class: "muted", text: t("bd_waiting") }));
    } else if (view.step.kind === "discard") {
      parts.push(h("p", { class: "muted", text: t("bd_tapDiscard") }));
      pick = (pid, i) => (pid === me ? { onclick: () => ctx.send({ type: "bldng.discard", index: i }).catch(() => {}) } : { disabled: true });
    } else if (view.step.kind === "take_each" || view.step.kind === "steal") {
      parts.push(takeStep(view, ctx));
      pick = takePick(view, ctx);
    }
  }
  parts.push(h("p", { class: "bd-piles" }, `${view.direction > 0 ? "↻" : "↺"} ${t("bd_pile")}: ${view.draw_pile} · ${t("bd_discards")}: ${view.discard_pile}`));
  parts.push(table(view, ctx, pick));
  return h("div", { class: "bldng" }, parts);
}

export function describe(e, ctx) {
  const key = `event.${e.type}`;
  switch (e.type) {
    case "BuildingStarted": case "ProjectsShifted": case "PileReshuffled": return t(key);
    case "ProjectSet": {
      const what = t(e.reason === "change_project" || e.reason === "changed" ? "bd_projectChanged" : "bd_projectStart");
      return t(key, { name: ctx.name(e.player), how: `${what}${e.source === "drawn" || e.reason === "drawn" ? ` (${t("bd_byApp")})` : ""}` });
    }
    // Every card drawn is public in BLDNG: Shapes go on the table, What happens cards are played.
    case "CardDrawn": return t("event.bd_CardDrawn", { name: ctx.name(e.player), card: cardLabel(e.card) });
    case "CardDiscarded": case "DiscardTaken": return t(key, { name: ctx.name(e.player), card: cardLabel(e.card) });
    case "CardTaken": return t(key, { name: ctx.name(e.player), source: ctx.name(e.source), card: cardLabel(e.card) });
    case "NothingTaken": return t(key, { name: ctx.name(e.player), source: ctx.name(e.source) });
    default: return null;
  }
}
