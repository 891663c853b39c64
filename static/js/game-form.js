// The game and its options, as the start page offers them (table-screen.js) and a tent's page
// does when nothing is going at its table (tent.js): the choice of game, and under it that
// game's own options form (js/games/*.js), drawn once its module is here.

import { gameNow, h, t, untilOptions } from "./common.js";
import { patch } from "./view.js";

/** `{select, optionsBox, show, read}` for `games` (the server's /api/config list), `chosen`
 * first; `show()` draws the options of the game now selected (`onPick(name)` first), keeping
 * `button` disabled until they are drawn; `read()` is what they say. */
export function gameChooser({ games, chosen, button, onPick = () => {} }) {
  const select = h("select", { id: "game", name: "game" }, games.map((g) => h("option", { value: g.name, selected: g.name === chosen ? true : null, text: `${t(`game.${g.name}`)} (${g.min_players}–${g.max_players})` })));
  const optionsBox = h("div", { id: "options" });
  let form = null;
  const show = () => {
    const picked = select.value;
    onPick(picked);
    const mod = gameNow(picked, () => { if (select.value === picked) show(); });
    form = mod?.optionsForm ? mod.optionsForm() : null;
    patch(optionsBox, form ? form.el : null);
    untilOptions(button, picked, mod, () => select.value === picked);
  };
  return { select, optionsBox, show, read: async () => (form ? form.read(optionsBox) : {}) };
}
