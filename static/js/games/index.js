// The client side of each game: options form, the table's board, the phone's view. A game's
// module is fetched when a screen first needs it (at its table, or when it is chosen for a new
// one), not with every page; once loaded it stays in GAMES for the code that draws at once.

import { pageMeta } from "../assets.js";

const LOADERS = {
  blank: () => import("./blank.js"),
  blanko: () => import("./blanko.js"),
  bldng: () => import("./bldng.js"),
  rankfile: () => import("./rankfile.js"),
};

export const GAMES = {};
const loading = new Map();

// What each module loaded later imports, as the page lists it (companion/web/assets.py): asked
// for with the game's module, not once it has arrived and been read.
const later = pageMeta("module-graph", {});

function preloadImportsOf(path) {
  const have = new Set([...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute("href")));
  for (const href of later[path] || []) {
    if (!have.has(href)) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
  }
}

export function loadGame(name) {
  if (!LOADERS[name]) return Promise.resolve(null);
  if (!loading.has(name)) {
    preloadImportsOf(`/static/js/games/${name}.js`);
    loading.set(name, LOADERS[name]().then(
      (mod) => { GAMES[name] = mod; return mod; },
      (err) => { loading.delete(name); throw err; }));
  }
  return loading.get(name);
}

// The module of game `name` if it is here already; if not, null, and `whenLoaded` is called
// once it has arrived (to draw again, with it).
export function gameNow(name, whenLoaded) {
  if (GAMES[name] || !LOADERS[name]) return GAMES[name] ?? null;
  loadGame(name).then(whenLoaded, () => {});
  return null;
}

// A button that acts on game `name`'s options (`mod`, what gameNow gave) waits while they are
// not drawn: they push it down when they come, so a quick tap would make something of options
// nobody saw, or land on one of them. A module that cannot be had frees the button (the
// server's defaults), if the game is `stillChosen()`.
export function untilOptions(button, name, mod, stillChosen) {
  button.disabled = !mod;
  if (!mod) loadGame(name).catch(() => { if (stillChosen()) button.disabled = false; });
}
