// Building the DOM without innerHTML: every string a user typed goes in as textContent.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

export function toast(message, kind = "error") {
  const box = document.getElementById("toasts") || document.body.appendChild(h("div", { id: "toasts", role: "status", "aria-live": "polite" }));
  const item = h("div", { class: `toast toast-${kind}`, text: message });
  box.append(item);
  setTimeout(() => item.remove(), 4000);
}

// A tap must never move what it lands on: between a pointerdown and its click nothing may
// appear, disappear or resize, or the click lands beside what the finger aimed at (the sound
// unlocked by a page's first tap took the "sound is off" notice away, and a page scrolled to
// its end moved 44 px under the finger). A change that a pointerdown sets off goes through
// `afterTap`: at once when no pointer is down, else just after the click (or the touch that
// turned into a scroll, or a press that ended with no click).
let pressed = false;
let waiting = [];
let noClick = null;
function released() {
  pressed = false;
  clearTimeout(noClick);
  const due = waiting;
  waiting = [];
  for (const fn of due) fn();
}
document.addEventListener("pointerdown", () => { pressed = true; clearTimeout(noClick); }, true);
document.addEventListener("pointerup", () => { clearTimeout(noClick); noClick = setTimeout(released, 600); }, true);
document.addEventListener("pointercancel", released, true);
document.addEventListener("click", () => { if (pressed) setTimeout(released); }, true);

/** Run `fn` once no tap is under way (see above). */
export function afterTap(fn) {
  if (pressed) waiting.push(fn); else fn();
}

/** Hand `blob` to the browser to save as `name` (a record's or a league's download). */
export function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
