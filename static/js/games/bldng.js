// BLDNG: my hidden project and what it still needs, everyone's shapes on the table, and the
// card picker for what I drew, with the steps of the What happens cards.

import { h, svg } from "../dom.js";
import { addStrings, t } from "../i18n.js";

addStrings({
  en: {
    bd_direction: "Direction", bd_clockwise: "Clockwise", bd_anticlockwise: "Anticlockwise", bd_project: "My project",
    bd_drawProject: "Let the app draw my project", bd_enterProject: "Enter my project card", bd_type: "Type",
    bd_ordered: "Ordered", bd_sculpture: "Sculpture", bd_size: "Elements", bd_save: "Save project", bd_missing: "Still missing",
    bd_complete: "Complete — you are a builder!", bd_drew: "I drew", bd_jollyColours: "Jolly 4 colours", bd_jollyShapes: "Jolly 4 shapes",
    bd_jollyAll: "Jolly 4×4", bd_whatHappens: "What happens", bd_takeDiscard: "Take the last discard", bd_tapDiscard: "Tap a card to discard it",
    bd_nothing: "Nothing to take", bd_pile: "Draw pile", bd_discards: "Discards", bd_winner: "Builder", bd_cards: "cards",
    bd_waiting: "Waiting for every project", bd_take_three: "Take three cards", bd_take_one_each: "Take one card from each player",
    bd_steal_circle: "Steal a circle", bd_steal_square: "Steal a square", bd_steal_triangle: "Steal a triangle", bd_steal_rectangle: "Steal a rectangle",
    bd_shift_projects: "Shift all projects right", bd_change_project: "Change project", bd_reverse: "Reverse", bd_give_five: "Give 5 cards back",
    bd_skip: "Skip your turn", bd_up_to_15: "You can have up to 15 cards", bd_play: "Play it",
  },
  hu: {
    bd_direction: "Irány", bd_clockwise: "Óramutató szerint", bd_anticlockwise: "Óramutatóval szemben", bd_project: "A projektem",
    bd_drawProject: "Húzzon nekem projektet az app", bd_enterProject: "Projektkártyám beírása", bd_type: "Típus",
    bd_ordered: "Rendezett", bd_sculpture: "Szobor", bd_size: "Elemek", bd_save: "Projekt mentése", bd_missing: "Még hiányzik",
    bd_complete: "Kész — építő vagy!", bd_drew: "Ezt húztam", bd_jollyColours: "Joker 4 szín", bd_jollyShapes: "Joker 4 forma",
    bd_jollyAll: "Joker 4×4", bd_whatHappens: "Mi történik", bd_takeDiscard: "Az utolsó eldobott lap elvétele", bd_tapDiscard: "Koppints egy lapra az eldobáshoz",
    bd_nothing: "Nincs mit elvenni", bd_pile: "Húzópakli", bd_discards: "Dobott lapok", bd_winner: "Építő", bd_cards: "lap",
    bd_waiting: "Várakozás a projektekre", bd_take_three: "Húzz három lapot", bd_take_one_each: "Vegyél el egy lapot mindenkitől",
    bd_steal_circle: "Lopj egy kört", bd_steal_square: "Lopj egy négyzetet", bd_steal_triangle: "Lopj egy háromszöget", bd_steal_rectangle: "Lopj egy téglalapot",
    bd_shift_projects: "Minden projekt jobbra", bd_change_project: "Projektcsere", bd_reverse: "Irányváltás", bd_give_five: "Adj vissza 5 lapot",
    bd_skip: "Kimaradsz", bd_up_to_15: "Legfeljebb 15 lapod lehet", bd_play: "Kijátszom",
  },
});

const COLOURS = { yellow: "#e9b949", green: "#3f9b5a", red: "#cf4c3e", blue: "#3c6fd1" };
const SHAPES = ["triangle", "circle", "square", "rectangle"];
const EFFECTS = ["take_three", "take_one_each", "steal_circle", "steal_square", "steal_triangle", "steal_rectangle", "shift_projects", "change_project", "reverse", "give_five", "skip", "up_to_15"];

function glyph(shape, fill) {
  const paths = {
    triangle: () => svg("polygon", { points: "12,3 22,21 2,21" }),
    circle: () => svg("circle", { cx: 12, cy: 12, r: 9.5 }),
    square: () => svg("rect", { x: 3, y: 3, width: 18, height: 18 }),
    rectangle: () => svg("rect", { x: 1, y: 6, width: 22, height: 12 }),
    any: () => svg("path", { d: "M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z" }),
  };
  const el = (paths[shape] || paths.any)();
  el.setAttribute("fill", fill);
  el.setAttribute("stroke", "currentColor");
  el.setAttribute("stroke-width", "1.2");
  return svg("svg", { viewBox: "0 0 24 24", class: "bd-glyph", "aria-hidden": "true" }, el);
}

function cardLabel(card) {
  if (card.kind === "shape") return `${card.colour} ${card.shape}`;
  if (card.kind === "jolly_colours") return `${t("bd_jollyColours")}: ${card.shape}`;
  if (card.kind === "jolly_shapes") return `${t("bd_jollyShapes")}: ${card.colour}`;
  return t("bd_jollyAll");
}

function cardFace(card, attrs = {}) {
  const fill = card.colour ? COLOURS[card.colour] : "url(#none)";
  const shape = card.shape || "any";
  return h("button", { type: "button", class: `bd-card ${card.kind}`, title: cardLabel(card), "aria-label": cardLabel(card), ...attrs },
    glyph(shape, card.kind === "jolly_colours" || card.kind === "jolly_all" ? "transparent" : fill));
}

function elementFace(element, done) {
  return h("span", { class: `bd-el${done ? " done" : ""}`, title: `${element[1]} ${element[0]}` }, glyph(element[0], COLOURS[element[1]]));
}

export function optionsForm() {
  const direction = h("select", { name: "direction" }, h("option", { value: "clockwise", text: t("bd_clockwise") }), h("option", { value: "anticlockwise", text: t("bd_anticlockwise") }));
  return { el: h("div", { class: "options" }, h("label", {}, t("bd_direction"), direction)), read: () => ({ direction: direction.value }) };
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
    view.winner ? h("p", { class: "banner won", text: `${t("bd_winner")}: ${ctx.name(view.winner)}!` }) : null,
    h("p", { class: "bd-piles" }, `${view.direction > 0 ? "↻" : "↺"} · ${t("bd_pile")}: `, h("strong", { id: "draw-pile", text: String(view.draw_pile) }),
      ` · ${t("bd_discards")}: ${view.discard_pile}`, view.last_discard ? [" · ", cardFace(view.last_discard.card, { disabled: true })] : null),
    h("p", { class: "muted", text: `${ctx.name(view.current)}: ${view.step_text}` }),
    table(view, ctx, null),
    view.recent.length ? h("ul", { class: "bd-recent" }, view.recent.slice().reverse().map((r) => h("li", { text: `${ctx.name(r.player)}: ${t(`bd_${r.effect}`)}` }))) : null);
}

const draft = { type: "ordered", size: 8, elements: [] };

function projectForm(ctx) {
  while (draft.elements.length < draft.size) draft.elements.push(["circle", "red"]);
  draft.elements.length = draft.size;
  const select = (options, value, onchange) => h("select", { onchange }, options.map((o) => h("option", { value: o, selected: o === value ? true : null, text: o })));
  return h("section", { class: "bd-project-form" },
    h("button", { type: "button", class: "btn primary big", id: "draw-project", text: t("bd_drawProject"), onclick: () => ctx.send({ type: "bldng.draw_project" }).catch(() => {}) }),
    h("details", {}, h("summary", { text: t("bd_enterProject") }),
      h("label", {}, t("bd_type"), select(["ordered", "sculpture"], draft.type, (e) => { draft.type = e.target.value; })),
      h("label", {}, t("bd_size"), select(["8", "10"], String(draft.size), (e) => { draft.size = Number(e.target.value); ctx.rerender(); })),
      h("div", { class: "bd-el-grid" }, draft.elements.map((el, i) => h("div", { class: "row" },
        select(SHAPES, el[0], (e) => { el[0] = e.target.value; }), select(Object.keys(COLOURS), el[1], (e) => { el[1] = e.target.value; })))),
      h("button", { type: "button", class: "btn", text: t("bd_save"), onclick: () => ctx.send({ type: "bldng.set_project", project: { type: draft.type, elements: draft.elements } }).catch(() => {}) })));
}

function myProject(view) {
  const p = view.my_project;
  const done = p.assigned.map((a) => a !== null);
  return h("section", { class: "bd-project", id: "my-project" }, h("h3", {}, `${t("bd_project")} (${t(`bd_${p.type}`)})`),
    h("div", { class: "bd-elements" }, p.elements.map((el, i) => elementFace(el, done[i]))),
    p.missing.length ? h("p", { class: "muted", id: "missing", text: `${t("bd_missing")}: ${p.missing.length}` }) : h("p", { class: "banner won", text: t("bd_complete") }));
}

function picker(view, ctx) {
  const draw = (card) => ctx.send({ type: "bldng.draw", card }).catch(() => {});
  const effect = h("select", { id: "effect" }, EFFECTS.map((e) => h("option", { value: e, text: t(`bd_${e}`) })));
  return h("section", { class: "bd-picker" }, h("h3", { text: t("bd_drew") }),
    h("div", { class: "bd-grid" }, Object.keys(COLOURS).flatMap((colour) => SHAPES.map((shape) => cardFace({ kind: "shape", shape, colour }, { onclick: () => draw({ kind: "shape", shape, colour }), dataset: { pick: `${colour}-${shape}` } })))),
    h("div", { class: "bd-grid" }, SHAPES.map((shape) => cardFace({ kind: "jolly_colours", shape }, { onclick: () => draw({ kind: "jolly_colours", shape }) })),
      Object.keys(COLOURS).map((colour) => cardFace({ kind: "jolly_shapes", colour }, { onclick: () => draw({ kind: "jolly_shapes", colour }) })),
      cardFace({ kind: "jolly_all" }, { onclick: () => draw({ kind: "jolly_all" }) })),
    view.step.kind === "draw" ? h("div", { class: "row" }, h("label", {}, t("bd_whatHappens"), effect),
      h("button", { type: "button", class: "btn", id: "play-effect", text: t("bd_play"), onclick: () => draw({ kind: "what_happens", effect: effect.value }) })) : null,
    view.step.kind === "draw" && view.last_discard ? h("button", { type: "button", class: "btn ghost", id: "take-discard", text: t("bd_takeDiscard"), onclick: () => ctx.send({ type: "bldng.take_discard" }).catch(() => {}) }) : null);
}

export function phone(view, ctx) {
  if (!view.started) return null;
  const me = ctx.me;
  const mine = view.current === me && !view.over;
  const parts = [];
  if (view.winner) parts.push(h("p", { class: "banner won", text: `${t("bd_winner")}: ${ctx.name(view.winner)}!` }));
  parts.push(view.my_project ? myProject(view) : projectForm(ctx));
  let pick = null;
  if (mine) {
    parts.push(h("p", { class: "prompt", id: "step", text: view.step_text }));
    if (view.step.kind === "draw" || view.step.kind === "draw_more") {
      if (Object.values(view.has_project).every(Boolean)) parts.push(picker(view, ctx)); else parts.push(h("p", { class: "muted", text: t("bd_waiting") }));
    } else if (view.step.kind === "discard") {
      parts.push(h("p", { class: "muted", text: t("bd_tapDiscard") }));
      pick = (pid, i) => (pid === me ? { onclick: () => ctx.send({ type: "bldng.discard", index: i }).catch(() => {}) } : { disabled: true });
    } else {
      pick = (pid, i) => (pid !== me ? { onclick: () => ctx.send({ type: "bldng.take", from: pid, index: i }).catch(() => {}) } : { disabled: true });
      parts.push(h("div", { class: "row" }, view.order.filter((p) => p !== me && (view.step.kind === "steal" || view.step.left.includes(p))).map((p) =>
        h("button", { type: "button", class: "btn ghost small", text: `${t("bd_nothing")}: ${ctx.name(p)}`, onclick: () => ctx.send({ type: "bldng.take", from: p, index: null }).catch(() => {}) }))));
    }
  }
  parts.push(h("p", { class: "bd-piles" }, `${view.direction > 0 ? "↻" : "↺"} ${t("bd_pile")}: ${view.draw_pile} · ${t("bd_discards")}: ${view.discard_pile}`));
  parts.push(table(view, ctx, pick));
  return h("div", { class: "bldng" }, parts);
}

export function describe(e, ctx) {
  switch (e.type) {
    case "BuildingStarted": return "BLDNG";
    case "ProjectSet": return `${ctx.name(e.player)}: ${t("bd_project")} (${e.reason})`;
    case "CardDrawn": return `${ctx.name(e.player)}: ${e.card.kind === "what_happens" ? t(`bd_${e.card.effect}`) : cardLabel(e.card)}`;
    case "CardDiscarded": return `${ctx.name(e.player)} ↓ ${cardLabel(e.card)}`;
    case "DiscardTaken": return `${ctx.name(e.player)} ↑ ${cardLabel(e.card)}`;
    case "CardTaken": return `${ctx.name(e.player)} ← ${ctx.name(e.source)}: ${cardLabel(e.card)}`;
    case "ProjectsShifted": return t("bd_shift_projects");
    default: return null;
  }
}
