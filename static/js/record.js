// After the game: the table's record in a sheet (scores, charts, each game's story, exports)
// and, on the table screen, the rematch that keeps every seat and token.

import { api } from "./api.js";
import { h, replace, saveFile, toast } from "./dom.js";
import { GAMES, gameNow, loadGame } from "./games/index.js";
import { currentLanguage, errorText, t } from "./i18n.js";
import { patch } from "./view.js";

// An SVG the server drew, fetched with the token and shown as an image: an <img> never runs
// anything inside it, and the page's CSP already allows data: images.
export async function svgImage(path, token, alt) {
  const r = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!r.ok) return null;
  return chartImage(await r.text(), alt);
}

export function chartImage(svgText, alt) {
  return h("img", { class: "chart", alt, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}` });
}

async function download(code, token, format) {
  const tz = -new Date().getTimezoneOffset();
  const r = await fetch(`/api/tables/${code}/record?format=${format}&tz=${tz}&lang=${currentLanguage()}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!r.ok) { toast(t("error.record/bad_format")); return; }
  const name = { csv: `table-${code}.csv`, bgstats: `table-${code}.bgstats.json`, json: `table-${code}.json` }[format];
  saveFile(await r.blob(), name);
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function nameOf(g) {
  const map = new Map(g.players.map((p) => [p.player_id, p.name || t("rec_deleted")]));
  return (pid) => map.get(pid) ?? "?";
}

// What each game keeps beyond scores, in a line or two.
function story(g, name) {
  const d = g.details || {};
  const lines = [];
  if (g.game === "blanko" && d.words?.length) {
    const best = d.words.filter((w) => w.status !== "rejected").sort((a, b) => b.points - a.points)[0];
    if (best) lines.push(t("rec_bestWord", { text: `${best.word} (${best.points}) — ${name(best.player)}` }));
    const racks = Object.entries(d.racks || {}).filter(([, r]) => r.deduction).map(([pid, r]) => `${name(pid)} −${r.deduction}`);
    if (racks.length) lines.push(t("rec_racks", { text: racks.join(", ") }));
  } else if (g.game === "rankfile") {
    const key = d.outcome === "won" ? "rec_rfWon" : d.outcome === "lost" ? "rec_rfLost" : "rec_rfOpen";
    lines.push(t(key, { n: d.aces_flipped ?? 0 }));
  } else if (g.game === "bldng") {
    lines.push(d.winner ? t("rec_built", { name: name(d.winner) }) : t("rec_noBuilder"));
  } else if (g.game === "blank") {
    const pens = Object.entries(d.penalty_counts || {}).filter(([, n]) => n > 0).map(([pid, n]) => `${name(pid)} ${n}`);
    if (pens.length) lines.push(t("rec_penalties", { text: pens.join(", ") }));
    if (d.rules_in_play?.length) lines.push(t("rec_rulesInPlay", { text: d.rules_in_play.map((r) => GAMES.blank.ruleTitle(r) || r.text).join(" · ") }));
    if (d.prize?.kind === "rule") lines.push(t("rec_prizeRule", { name: name(d.winner), text: d.prize.rule.text }));
    if (d.prize?.kind === "card") lines.push(t("rec_prizeCard", { name: name(d.winner), text: d.prize.effect?.title || "" }));
  }
  return lines.map((text) => h("p", { class: "rec-story", text }));
}

// BLANK's score is the cards left in hand (fewer is better): say so, rather than "−7".
const scoreText = (g, score) => (g.game === "blank" ? t("bl_cardsLeft", { n: Math.abs(score) }) : String(score));

function gameSection(code, token, g) {
  const name = nameOf(g);
  const when = g.ended_ms === null
    ? `${clock(g.started_ms)} · ${t("rec_inProgress")}`
    : `${clock(g.started_ms)}–${clock(g.ended_ms)} · ${t("rec_minutes", { n: Math.max(1, Math.round(g.duration_ms / 60000)) })}${g.ended_by === "host" ? ` · ${t("rec_endedByHost")}` : ""}`;
  const ranked = g.players.slice().sort((a, b) => (g.scores[b.player_id] ?? 0) - (g.scores[a.player_id] ?? 0));
  const scores = h("ol", { class: "rec-scores" }, (Object.keys(g.scores).length ? ranked : g.players).map((p) => h("li", { class: g.winners.includes(p.player_id) ? "won" : "" },
    h("span", { class: "rec-name", text: `${g.winners.includes(p.player_id) ? "★ " : ""}${p.name || t("rec_deleted")}` }),
    h("span", { class: "rec-score", text: p.player_id in g.scores ? scoreText(g, g.scores[p.player_id]) : "" }))));
  const figure = h("figure", { class: "rec-chart" });
  if (Object.keys(g.scores).length && g.turns.length) {
    svgImage(`/api/tables/${code}/record/${g.no}/chart.svg`, token, t("rec_chartAlt")).then((img) => {
      if (img) replace(figure, img, h("figcaption", { text: `${t("rec_scoreChart")} (${t("rec_turn")} → ${t("rec_points")})` }));
    });
  }
  return h("section", { class: "rec-game", dataset: { game: g.game, no: String(g.no) } },
    h("h3", { text: `${t("rec_gameNo", { n: g.no })} · ${g.title}` }),
    h("p", { class: "muted small", text: when }), scores, ...story(g, name), figure);
}

export async function openRecord(code, token) {
  const body = h("div", { class: "rec-body" }, h("p", { class: "muted", text: t("rec_loading") }));
  const exports = h("div", { class: "row rec-exports" }, h("span", { class: "muted", text: `${t("rec_download")}:` }),
    ["csv", "json", "bgstats"].map((f) => h("button", { type: "button", class: "btn small", text: t(`rec_${f}`), onclick: () => download(code, token, f).catch(() => toast(t("offline"))) })));
  const dialog = h("dialog", { class: "sheet record", id: "record", "aria-label": t("rec_title") },
    h("header", {}, h("h2", { text: t("rec_title") }), h("button", { type: "button", class: "btn ghost", onclick: () => dialog.close(), text: t("close") })),
    body, exports);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  try {
    const { games } = await api(`/api/tables/${code}/record`, { token });
    // BLANK's rules are worded by BLANK's module, fetched only when a BLANK game is shown.
    if (games.some((g) => g.game === "blank")) await loadGame("blank");
    replace(body, games.length ? games.slice().reverse().map((g) => gameSection(code, token, g)) : h("p", { text: t("rec_none") }));
  } catch (err) {
    replace(body, h("p", { class: "error", text: errorText(err) }));
  }
}

let config = null;
let kept = null;

// The table screen's "play again" card, once a game is over. The screen redraws on every
// event and presence change; the card is kept, so a half-made choice survives them.
export function rematchPanel(state, send) {
  const id = `${state.code}/${state.game_no}/${currentLanguage()}`;
  if (kept?.id !== id) kept = { id, el: buildRematch(state, send) };
  return kept.el;
}

function buildRematch(state, send) {
  const select = h("select", { id: "rematch-game", name: "rematch-game" });
  const optionsBox = h("div", { class: "rematch-options" });
  const hint = h("p", { class: "muted small" });
  let form = null;
  const show = () => {
    form = null;
    if (select.value && select.value !== state.game) {
      const chosen = select.value;
      const mod = gameNow(chosen, () => { if (select.value === chosen) show(); });
      form = mod?.optionsForm ? mod.optionsForm() : null;
    }
    patch(optionsBox, form ? form.el : null);
    hint.textContent = `${t("rm_hint")}${select.value === "blank" ? ` ${t("rm_blankHint")}` : ""}`;
  };
  const fillGames = (games) => {
    replace(select, games.map((g) => h("option", { value: g.name, text: g.title, selected: g.name === state.game })));
    show();
  };
  if (config) fillGames(config.games);
  else {
    fillGames([{ name: state.game, title: state.title }]);
    api("/api/config").then((c) => { config = c; fillGames(c.games); }).catch(() => {});
  }
  select.addEventListener("change", show);
  const button = h("button", { type: "button", class: "btn primary big", id: "rematch", text: t("rm_start") });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const cmd = { type: "table.rematch" };
      if (select.value !== state.game) Object.assign(cmd, { game: select.value, options: form ? await form.read(optionsBox) : {} });
      await send(cmd);
    } catch {
      button.disabled = false;
    }
  });
  return h("section", { class: "card rematch", id: "rematch-panel" }, h("h2", { text: t("rm_title") }),
    h("label", {}, t("game"), select), optionsBox, button, hint);
}
