// /v/VENUE/LABEL#k=SECRET: the QR code printed on a physical table's tent (venue-print.js). The
// secret is kept on this phone and dropped from the address bar at once (a screenshot, a shared
// link, the history do not carry it; the fragment never reached a server). If a game is going
// at that table, the phone goes to it (phone.js: its join form, or its seat if it has one); if
// none is, the phone offers to start one there, and is then its host and one of its players.

import { api, storage } from "./api.js";
import { errorText, h, languageButton, registerServiceWorker, replace, t, toast } from "./common.js";
import { gameChooser } from "./game-form.js";
import { keptAnswer } from "./kept.js";

const main = document.getElementById("main");
const [venueId, ...rest] = location.pathname.slice("/v/".length).split("/");
const label = decodeURIComponent(rest.join("/"));
const key = `tc.tent.${venueId}/${label}`;
const base = `/api/venues/${encodeURIComponent(venueId)}/tables/${encodeURIComponent(label)}`;
registerServiceWorker();
languageButton();

const secret = new URLSearchParams(location.hash.slice(1)).get("k");
if (secret) {
  storage.set(key, secret);
  history.replaceState(null, "", location.pathname);
}
const tent = storage.get(key);
const headers = { "X-Companion-Tent": tent };

let redraw = () => {};
window.addEventListener("languagechange-app", () => redraw());

function problem(err) {
  // A tent given a new secret (reprinted) or another venue's: what this phone kept is no use.
  const code = typeof err === "string" ? err : err?.code;
  if (code === "venue/bad_tent") storage.remove(key);
  redraw = () => replace(main, h("section", { class: "card", id: "tent-problem" }, h("h2", { text: label }),
    h("p", { class: "error", role: "alert", text: errorText(err) }),
    // a wrong or old tent's words say to scan again already
    code === "venue/bad_tent" ? null : h("p", { class: "muted", text: t("vn_scanAgain") })));
  redraw();
}

// The game at this table: this phone's seat there if it has one, else its join form, which
// joins with the tent's secret (phone.js); a device that is the table's screen goes back to it.
function goTo(code, game) {
  const seat = storage.get(`tc.player.${code}`);
  if (!seat?.token && storage.get(`tc.host.${code}`)) { location.replace(`/?table=${code}`); return; }
  if (!seat?.token) storage.set(`tc.player.${code}`, { tent: { venue: venueId, label, secret: tent }, game });
  location.replace(`/t/${code}`);
}

async function startForm(info) {
  const { answer: { games } } = await keptAnswer("/api/config");
  const { identity, joiner } = await import("./identity.js");
  const start = h("button", { type: "submit", class: "btn primary big", id: "tent-start" });
  const chooser = gameChooser({ games, chosen: games[0]?.name, button: start });
  const name = h("input", { id: "name", name: "name", autocomplete: "nickname", maxlength: 24, required: true, enterkeyhint: "go", value: identity()?.name || null });
  const nameLabel = h("span");
  const heading = h("h2");
  const free = h("p", { class: "muted" });
  const gameLabel = h("span");
  const form = h("form", { class: "card", id: "tent-form" }, heading, free, h("label", {}, gameLabel, chooser.select), chooser.optionsBox, h("label", {}, nameLabel, name), start);
  redraw = () => {
    heading.textContent = t("vn_tableAt", { label: info.label, venue: info.venue });
    free.textContent = t("vn_nothingGoing");
    gameLabel.textContent = t("game");
    nameLabel.textContent = t("yourName");
    name.placeholder = t("yourName");
    start.textContent = t("vn_startHere");
  };
  redraw();
  chooser.select.addEventListener("change", chooser.show);
  chooser.show();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    start.disabled = true;
    const game = chooser.select.value;
    let made;
    try {
      made = await api(`${base}/games`, { method: "POST", headers, body: { game, options: await chooser.read() } });
    } catch (err) {
      // Someone at the table started one a moment before: this phone joins theirs.
      if (err.code === "venue/table_busy") { look(); return; }
      toast(errorText(err));
      start.disabled = false;
      return;
    }
    // This phone is the table's host (its token kept as a table's screen keeps it) and one of its
    // players: should the join fail, the join form of the table says why.
    storage.set(`tc.host.${made.code}`, { token: made.host_token, join_url: made.join_url, game });
    storage.set(`tc.player.${made.code}`, { tent: { venue: venueId, label, secret: tent }, game });
    try {
      const joined = await joiner(made.code)(name.value, { tent });
      storage.set(`tc.player.${made.code}`, { ...joined, game, league: null });
    } catch (err) { toast(errorText(err)); }
    location.replace(`/t/${made.code}`);
  });
  replace(main, form);
}

async function look() {
  if (!tent) { problem("venue/bad_tent"); return; }
  try {
    const info = await api(base, { headers });
    if (info.code) goTo(info.code, info.game);
    else await startForm(info);
  } catch (err) { problem(err); }
}

look();
