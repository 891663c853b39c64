// /stats: the player's stats across the tables this browser sat at or hosted, per player and
// per game, head to head, and the wins chart. Also where the player renames or forgets the
// identity this phone keeps.

import { api } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { languageButton, registerServiceWorker } from "./common.js";
import { currentLanguage, errorText, t } from "./i18n.js";
import { chartImage } from "./record.js";
import { confirmButton } from "./confirm.js";
import { patch } from "./view.js";
import { forgetIdentity, heldTokens, identity, rename, setByName } from "./identity.js";

const main = document.getElementById("main");
registerServiceWorker();
languageButton();
// Back to the start page (new tables, the club's leagues), which links here.
const startLink = h("a", { class: "btn ghost small", href: "/", id: "start-link" });
const wordStartLink = () => { startLink.textContent = t("startPage"); };
document.getElementById("header-actions").prepend(startLink);
wordStartLink();
window.addEventListener("languagechange-app", wordStartLink);

function meCard(me, reload) {
  if (!me) return null;
  const input = h("input", { id: "me-name", maxlength: 24, value: me.name || "", placeholder: t("st_noName"), autocomplete: "nickname" });
  const form = h("form", { class: "row me-rename" }, input, h("button", { type: "submit", class: "btn", text: t("st_save") }));
  form.addEventListener("submit", (e) => { e.preventDefault(); rename(input.value); reload(); });
  const byName = h("input", { type: "checkbox", id: "by-name", checked: me.byName || null });
  byName.addEventListener("change", () => { setByName(byName.checked); reload(); });
  const key = h("details", { class: "small" }, h("summary", { text: t("st_identity") }), h("code", { class: "me-key", text: me.key }));
  // Forgetting asks in the page, as every destructive action does (confirm.js). This page is
  // built with dom.js, so the question, a Preact component, is patched into a box of its own.
  const forget = h("div");
  patch(forget, confirmButton({ cls: "btn ghost danger", id: "forget-me", label: t("st_forget"), question: t("st_confirmForget"),
    onConfirm: () => { forgetIdentity(); reload(); } }));
  return h("section", { class: "card me-card", id: "me-card" }, h("h2", { text: t("st_me") }), form,
    h("label", { class: "check" }, byName, t("st_byName")), key, forget);
}

function table(head, rows, cls) {
  return h("div", { class: "table-scroll" }, h("table", { class: `stats ${cls || ""}` },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col", text: x })))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.me ? "me" : "" }, r.cells.map((c, i) => (i === 0
      ? h("th", { scope: "row" }, c, r.sub ? h("span", { class: "sub", text: r.sub }) : null)
      : h("td", { text: c }))))))));
}

const num = (x) => (x === null || x === undefined ? "–" : String(x));

function view(s) {
  const name = new Map(s.players.map((p) => [p.key, p.key === "me" ? `${p.name} (${t("st_you")})` : p.name]));
  const who = (k) => name.get(k) ?? "?";
  if (!s.games_played) return [h("section", { class: "card" }, h("p", { id: "stats-empty", text: t("st_nothing") }))];
  // Five columns fit a phone; the best word goes under the name.
  const word = (w) => (w ? `${t("st_bestWord")}: ${w.word} (${w.points})` : null);
  const players = table([t("st_player"), t("st_games"), t("st_wins"), t("st_avg"), t("st_best")],
    s.players.map((p) => ({ me: p.key === "me", sub: word(p.best_word), cells: [who(p.key), num(p.games), num(p.wins), num(p.average), num(p.best)] })), "players-table");
  const perGame = s.players.map((p) => h("details", { class: "per-player", open: p.key === "me" || null },
    h("summary", { text: who(p.key) }),
    table([t("game"), t("st_games"), t("st_wins"), t("st_avg"), t("st_best")],
      p.by_game.map((g) => ({ cells: [g.title, num(g.games), num(g.wins), num(g.average), num(g.best)] })))));
  const games = table([t("game"), t("st_plays"), t("st_avgLength"), t("st_topScore")],
    s.games.map((g) => ({ sub: g.best_word ? `${word(g.best_word)} — ${who(g.best_word.player)}` : null,
      cells: [g.title, num(g.plays), t("rec_minutes", { n: Math.max(1, Math.round(g.duration_ms / g.plays / 60000)) }),
        g.best ? `${g.best.score} (${who(g.best.player)})` : "–"] })));
  const h2h = s.head_to_head.length
    ? table([t("st_player"), t("st_player"), t("st_games"), t("st_wins")],
      s.head_to_head.map((x) => ({ me: x.a === "me" || x.b === "me", cells: [who(x.a), who(x.b), num(x.games), `${x.a_wins} : ${x.b_wins}`] })), "h2h")
    : h("p", { class: "muted", text: t("st_h2hNone") });
  return [
    h("section", { class: "card st-card" }, h("h2", { text: t("st_player") }), players,
      s.charts.wins ? h("figure", { class: "rec-chart" }, chartImage(s.charts.wins, t("st_winsChart")), h("figcaption", { text: t("st_winsChart") })) : null),
    h("section", { class: "card st-card" }, h("h2", { text: t("st_perGame") }), games, perGame),
    h("section", { class: "card st-card" }, h("h2", { text: t("st_h2h") }), h2h),
  ];
}

// Every game the stats count, as one CSV or BG Stats file, for the same tables and no other.
async function exportAll(body, format) {
  const tz = -new Date().getTimezoneOffset();
  const r = await fetch(`/api/stats/export?format=${format}&tz=${tz}&lang=${currentLanguage()}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) { toast(t("error.record/bad_format")); return; }
  const url = URL.createObjectURL(await r.blob());
  const a = h("a", { href: url, download: format === "csv" ? "table-companion.csv" : "table-companion.bgstats.json" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function exportCard(body) {
  return h("section", { class: "card st-card", id: "export-all" }, h("p", { class: "muted", text: t("st_exportAll") }),
    h("div", { class: "row" }, ["csv", "bgstats"].map((f) => h("button", { type: "button", class: "btn small", dataset: { format: f },
      text: `${t("rec_download")}: ${t(`rec_${f}`)}`, onclick: () => exportAll(body, f).catch(() => toast(errorText("net/offline"))) }))));
}

async function load() {
  const me = identity();
  const body = { tokens: heldTokens(), ...(me ? { identity: me.key, name: me.name || null, by_name: Boolean(me.byName) } : {}) };
  const head = h("section", { class: "card" }, h("h2", { text: t("st_title") }), h("p", { class: "muted small", text: t("st_privacy") }));
  try {
    const s = await api("/api/stats", { method: "POST", body });
    replace(main, head, meCard(me, load), ...view(s), s.games_played ? exportCard(body) : null);
  } catch (err) {
    replace(main, head, meCard(me, load), h("p", { class: "error", text: errorText(err) }));
    toast(errorText(err));
  }
}

window.addEventListener("languagechange-app", load);
load();
