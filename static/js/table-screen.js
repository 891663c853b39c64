// The table's own screen (host): create a table, show its QR code, run the game.

import { api, storage } from "./api.js";
import { GAMES, connectTable, h, languageButton, online, openHistory, registerServiceWorker, replace, t, toast, names } from "./common.js";
import { openRecord, rematchPanel } from "./record.js";

const main = document.getElementById("main");
registerServiceWorker();

async function setupScreen() {
  const [{ games }, { games: past }] = await Promise.all([api("/api/config"), api("/api/history")]);
  const select = h("select", { id: "game", name: "game" }, games.map((g) => h("option", { value: g.name, text: `${g.title} (${g.min_players}–${g.max_players})` })));
  const optionsBox = h("div", { id: "options" });
  let form = null;
  const showOptions = () => {
    const mod = GAMES[select.value];
    form = mod?.optionsForm ? mod.optionsForm() : null;
    replace(optionsBox, form ? form.el : null);
  };
  select.addEventListener("change", showOptions);
  showOptions();
  const create = h("button", { type: "submit", class: "btn primary big", id: "create", text: t("create") });
  const formEl = h("form", { class: "card", id: "create-form" }, h("h2", { text: t("newTable") }), h("label", {}, t("game"), select), optionsBox, create);
  formEl.addEventListener("submit", async (e) => {
    e.preventDefault();
    create.disabled = true;
    try {
      const table = await api("/api/tables", { method: "POST", body: { game: select.value, options: form ? await form.read() : {} } });
      storage.set(`tc.host.${table.code}`, { token: table.host_token, join_url: table.join_url });
      history.pushState({}, "", `/?table=${table.code}`);
      tableScreen(table.code);
    } catch (err) {
      toast(err.message);
      create.disabled = false;
    }
  });
  const pastList = past.length ? h("section", { class: "card" }, h("h2", { text: t("pastGames") }),
    h("ul", { class: "past" }, past.map((g) => h("li", {},
      h("strong", { text: `${g.game} · ${g.code}` }), " ", new Date(g.ended_ms).toLocaleString(), " — ",
      g.result?.summary ?? "",
      g.result?.scores ? h("span", { class: "scores", text: Object.entries(g.result.scores).map(([pid, s]) => `${g.names[pid] ?? pid}: ${s}`).join(", ") }) : null,
      storage.get(`tc.host.${g.code}`) ? h("button", { type: "button", class: "btn ghost small", text: t("rec_button"), onclick: () => openRecord(g.code, storage.get(`tc.host.${g.code}`).token) }) : null)))) : null;
  const decks = await GAMES.blank.decksPanel({ toast, reload: () => setupScreen() }).catch(() => null);
  replace(main, formEl, decks, pastList);
}

function tableScreen(code) {
  const saved = storage.get(`tc.host.${code}`);
  if (!saved) { history.replaceState({}, "", "/"); setupScreen(); return; }
  const qr = h("img", { class: "qr", alt: `QR code for ${saved.join_url}`, src: `/api/tables/${code}/qr.svg` });
  const joinPanel = h("section", { class: "card join-panel" }, qr,
    h("div", { class: "code-box" }, h("div", { class: "muted", text: t("tableCode") }), h("div", { class: "table-code", id: "table-code", text: code }),
      h("div", { class: "muted small", text: t("joinHint") }), h("div", { class: "join-url", text: saved.join_url })));
  const playersEl = h("section", { class: "card", id: "players" });
  const controls = h("div", { class: "controls", id: "controls" });
  const timerRoot = h("div", { id: "timer" });
  const boardEl = h("section", { class: "card board", id: "board" });
  const afterEl = h("div", { id: "after-game" });
  const status = h("span", { class: "pill", id: "status" });
  replace(main, h("div", { class: "table-layout" },
    h("div", { class: "col" }, joinPanel, playersEl, controls),
    h("div", { class: "col wide" }, afterEl, boardEl, timerRoot)));
  document.getElementById("header-extra").replaceChildren(status);

  const { send, socket } = connectTable({
    code, token: saved.token, timerRoot, statusEl: status,
    onFatal: (why) => toast(why),
    render: (state) => {
      const name = names(state);
      const active = state.players.filter((p) => !p.removed);
      replace(playersEl, h("h2", {}, `${t("players")} (${active.length})`),
        active.length ? h("ul", { class: "players" }, active.map((p) => h("li", { dataset: { player: p.id } },
          h("span", { class: `dot${online(p.id) ? " on" : ""}` }), h("span", { class: "pname", text: p.name }),
          state.status !== "ended" ? h("button", { type: "button", class: "btn ghost small", text: t("remove"), onclick: () => send({ type: "table.remove_player", player_id: p.id }) }) : null)))
          : h("p", { class: "muted", text: t("noPlayers") }));
      const btn = (label, cmd, cls = "btn") => h("button", { type: "button", class: cls, text: label, onclick: () => send(cmd) });
      replace(controls,
        state.status === "lobby" ? btn(t("start"), { type: "table.start_game" }, "btn primary big") : null,
        btn(state.locked ? t("unlock") : t("lock"), { type: state.locked ? "table.unlock" : "table.lock" }),
        btn(t("undo"), { type: "undo" }),
        h("button", { type: "button", class: "btn ghost", text: t("history"), onclick: () => openHistory(code, saved.token, state) }),
        h("button", { type: "button", class: "btn ghost", id: "open-record", text: t("rec_button"), onclick: () => openRecord(code, saved.token) }),
        state.status !== "ended" ? h("button", { type: "button", class: "btn danger", text: t("end"), onclick: () => { if (confirm(t("confirmEnd"))) send({ type: "table.end_game" }); } }) : null,
        h("button", { type: "button", class: "btn ghost", text: t("newTable"), onclick: () => { history.pushState({}, "", "/"); location.reload(); } }));
      const mod = GAMES[state.game];
      const ctx = { me: null, name, send, isHost: true, toast, rerender: () => {}, now: () => socket.clock.serverNow() };
      replace(boardEl, h("h2", {}, state.title, state.status === "ended" ? ` — ${t("ended")}` : ""),
        state.result ? h("p", { class: "banner", text: state.result.summary }) : null,
        mod ? mod.board(state.game_state, ctx) : null);
      boardEl.dataset.status = state.status;
      replace(afterEl, state.status === "ended" ? rematchPanel(state, send) : null);
    },
  });
}

document.getElementById("header-actions").append(h("a", { class: "btn ghost small", href: "/stats", id: "stats-link", text: t("st_button") }), languageButton());
window.addEventListener("languagechange-app", () => { document.getElementById("lang").textContent = t("language"); });
const code = new URLSearchParams(location.search).get("table");
if (code) tableScreen(code.toUpperCase()); else setupScreen();
