// BLDNG: my hidden project and what it still needs, everyone's shapes on the table, and the
// card picker for what I drew, with the steps of the What happens cards.

import { h, svg } from "../dom.js";
import { t } from "../i18n.js";

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

const colourName = (colour) => t(`bd_c_${colour}`);
const shapeName = (shape) => t(`bd_s_${shape}`);

function cardLabel(card) {
  if (card.kind === "shape") return t("bd_shapeCard", { colour: colourName(card.colour), shape: shapeName(card.shape) });
  if (card.kind === "jolly_colours") return `${t("bd_jollyColours")}: ${shapeName(card.shape)}`;
  if (card.kind === "jolly_shapes") return `${t("bd_jollyShapes")}: ${colourName(card.colour)}`;
  if (card.kind === "what_happens") return `${t("bd_whatHappens")}: ${t(`bd_${card.effect}`)}`;
  return t("bd_jollyAll");
}

// What the player whose turn it is does now, worded from the step the rules send.
function stepText(step) {
  return t(`step.${step.kind}`, { count: step.count, shape: step.shape ? shapeName(step.shape) : "" });
}

function cardFace(card, attrs = {}) {
  const fill = card.colour ? COLOURS[card.colour] : "url(#none)";
  const shape = card.shape || "any";
  return h("button", { type: "button", class: `bd-card ${card.kind}`, title: cardLabel(card), "aria-label": cardLabel(card), ...attrs },
    glyph(shape, card.kind === "jolly_colours" || card.kind === "jolly_all" ? "transparent" : fill));
}

function elementFace(element, done) {
  const what = t("bd_shapeCard", { colour: colourName(element[1]), shape: shapeName(element[0]) });
  return h("span", { class: `bd-el${done ? " done" : ""}`, title: what, role: "img", "aria-label": what }, glyph(element[0], COLOURS[element[1]]));
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
    h("p", { class: "muted", text: `${ctx.name(view.current)}: ${stepText(view.step)}` }),
    table(view, ctx, null),
    view.recent.length ? h("ul", { class: "bd-recent" }, view.recent.slice().reverse().map((r) => h("li", { text: `${ctx.name(r.player)}: ${t(`bd_${r.effect}`)}` }))) : null);
}

const draft = { type: "ordered", size: 8, elements: [] };

function projectForm(ctx) {
  while (draft.elements.length < draft.size) draft.elements.push(["circle", "red"]);
  draft.elements.length = draft.size;
  const select = (options, value, onchange, word, what) => h("select", { onchange, "aria-label": what }, options.map((o) => h("option", { value: o, selected: o === value ? true : null, text: word(o) })));
  return h("section", { class: "bd-project-form" },
    h("button", { type: "button", class: "btn primary big", id: "draw-project", text: t("bd_drawProject"), onclick: () => ctx.send({ type: "bldng.draw_project" }).catch(() => {}) }),
    h("details", {}, h("summary", { text: t("bd_enterProject") }),
      h("label", {}, t("bd_type"), select(["ordered", "sculpture"], draft.type, (e) => { draft.type = e.target.value; }, (o) => t(`bd_${o}`))),
      h("label", {}, t("bd_size"), select(["8", "10"], String(draft.size), (e) => { draft.size = Number(e.target.value); ctx.rerender(); }, String)),
      h("div", { class: "bd-el-grid" }, draft.elements.map((el, i) => h("div", { class: "row" },
        select(SHAPES, el[0], (e) => { el[0] = e.target.value; }, shapeName, `${t("bd_element", { n: i + 1 })}: ${t("bd_shape")}`),
        select(Object.keys(COLOURS), el[1], (e) => { el[1] = e.target.value; }, colourName, `${t("bd_element", { n: i + 1 })}: ${t("bd_colour")}`)))),
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
    parts.push(h("p", { class: "prompt", id: "step", text: stepText(view.step) }));
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
  const key = `event.${e.type}`;
  switch (e.type) {
    case "BuildingStarted": case "ProjectsShifted": case "PileReshuffled": return t(key);
    case "ProjectSet": return t(key, { name: ctx.name(e.player), how: t(`bd_${e.reason}`) });
    case "CardDrawn": case "CardDiscarded": case "DiscardTaken": return t(key, { name: ctx.name(e.player), card: cardLabel(e.card) });
    case "CardTaken": return t(key, { name: ctx.name(e.player), source: ctx.name(e.source), card: cardLabel(e.card) });
    case "NothingTaken": return t(key, { name: ctx.name(e.player), source: ctx.name(e.source) });
    default: return null;
  }
}
