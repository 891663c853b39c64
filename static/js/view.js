// The views that every table event redraws (a phone's game and header, the table's board and
// players) are virtual nodes that Preact patches into the page: an element that is still in
// the view stays the same element, so what the player typed, ticked, chose, opened or focused
// in it survives the redraw, and its handlers are always the last render's. `h` keeps dom.js's
// call shape (`text`, `dataset`, `class`, `onclick`), so a view reads the same either way.
// Why a library, and why this one: docs/architecture.md, "The phone's views".

import { Component, Fragment, cloneElement, h as node, render } from "../vendor/preact.module.js";

const dataName = (key) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function h(tag, attrs, ...children) {
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

export { Component };
