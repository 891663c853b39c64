// The views that every table event redraws (a phone's game and header, the table's board and
// players) are virtual nodes that Preact patches into the page: an element that is still in
// the view stays the same element, so what the player typed, ticked, chose, opened or focused
// in it survives the redraw, and its handlers are always the last render's. `h` keeps dom.js's
// call shape (`text`, `dataset`, `class`, `onclick`), so a view reads the same either way.
// Why a library, and why this one: docs/architecture.md, "The phone's views".

import { Component, Fragment, cloneElement, h as node, render } from "../vendor/preact.module.js";

const dataName = (key) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function h(tag, attrs, ...children) {
  if (typeof tag !== "string") return node(tag, attrs, ...children);  // a component takes its props as given
  const props = {};
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") { if (value !== undefined && value !== null) children = [value]; } else if (key === "dataset") {
      for (const [name, v] of Object.entries(value || {})) props[dataName(name)] = v;
    } else {
      // A number compared with the input's string would set the value again on every redraw.
      props[key] = key === "value" && typeof value === "number" ? String(value) : value;
    }
  }
  return node(tag, props, ...children);
}

// Preact puts an <svg> and what is inside it in the SVG namespace itself.
export const svg = h;

/** Patch `container` to show `children` (what it showed before is diffed, not thrown away). */
export function patch(container, ...children) {
  render(node(Fragment, null, ...children), container);
}

/** The same node with one more class (a card face shown as a slot or a pick). */
export function withClass(vnode, cls) {
  return cloneElement(vnode, { class: `${vnode.props.class || ""} ${cls}`.trim() });
}

// When the game moves on to something new for this player (rules to enter, a card they drew,
// their turn), it is brought to them: an element marked with `promptAt(key)` whose key was not
// on screen at the last drawing is scrolled into view and focused, once. The first drawing
// brings nothing (the page opens at its top, where the game is), and nobody's typing is
// interrupted.
export function promptAt(key) {
  return { "data-prompt": key, tabindex: "-1" };
}

export function promptWatcher() {
  let seen = null;
  return (container) => {
    const now = [...container.querySelectorAll("[data-prompt]")];
    const fresh = seen && now.find((el) => !seen.has(el.dataset.prompt));
    seen = new Set(now.map((el) => el.dataset.prompt));
    if (!fresh) return;
    fresh.scrollIntoView({ block: "start", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    if (!document.activeElement?.matches("input, textarea, select")) fresh.focus({ preventScroll: true });
  };
}

// What a player is entering (a rack's tiles, a prize's fields), kept through redraws: one draft
// per table, game and seat, so a rematch, or another seat, in the same page starts afresh.
const drafts = new Map();
const draftKey = (kind, ctx) => `${kind}.${ctx.code}.${ctx.gameNo}.${ctx.me}`;

export function draftFor(kind, ctx, fresh) {
  const key = draftKey(kind, ctx);
  if (!drafts.has(key)) drafts.set(key, fresh());
  return drafts.get(key);
}

/** Forget a draft (it was sent, or the table moved on). */
export function forgetDraft(kind, ctx) {
  drafts.delete(draftKey(kind, ctx));
}

export { Component };
