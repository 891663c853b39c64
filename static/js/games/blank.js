// BLANK: the deck picker, the Rule Cards in play with what a play triggers, the phone's card
// picker, penalties and accusations, and the winner's prize for the deck.

import { api } from "../api.js";
import { h, svg } from "../dom.js";
import { currentLanguage, errorText, t } from "../i18n.js";

const COLOURS = ["hexagon", "triangle", "square", "circle", "diamond", "shield"];
// The six symbols are drawn, never taken from a font: a phone's fonts may lack some (⛉).
const SYMBOL = {
  hexagon: () => svg("polygon", { points: "12,2 20.7,7 20.7,17 12,22 3.3,17 3.3,7" }),
  triangle: () => svg("polygon", { points: "12,3 22,20.5 2,20.5" }),
  square: () => svg("rect", { x: 3.5, y: 3.5, width: 17, height: 17 }),
  circle: () => svg("circle", { cx: 12, cy: 12, r: 9 }),
  diamond: () => svg("polygon", { points: "12,1.5 21.5,12 12,22.5 2.5,12" }),
  shield: () => svg("path", { d: "M12 2 L21 5 V11 C21 16.5 17 20.5 12 22.5 C7 20.5 3 16.5 3 11 V5 Z" }),
};
const TRIGGERS = ["card_played", "colour_played", "number_played", "two_or_more", "card_drawn", "penalty", "time_passes", "other"];
const TARGETS = ["next_player", "previous_player", "all_players", "cards_in_play", "draw_pile", "discard_pile", "this_player", "other"];
const EFFECTS = ["draw_card", "take_cards", "discard_cards", "change_cards", "say_something", "do_something", "other"];
const colourName = (colour) => t(`bl_c_${colour}`);
const cardName = (c) => t("bl_symbols", { colour: colourName(c.colour), number: c.number });

function symbol(colour) {
  return svg("svg", { viewBox: "0 0 24 24", class: "bl-symbol", "aria-hidden": "true", "data-symbol": colour }, SYMBOL[colour]());
}

function card(c, attrs = {}) {
  return h("span", { class: `bl-card c-${c.colour}`, title: cardName(c), "aria-label": cardName(c), ...attrs }, symbol(c.colour), h("b", { text: String(c.number), "aria-hidden": "true" }));
}

function triggerText(tr) {
  const extra = tr.colour ? colourName(tr.colour) : tr.number || (tr.seconds ? `${tr.seconds} s` : "");
  return `${t(`bl_tr_${tr.kind}`)}${extra ? ` (${extra})` : ""}${tr.text ? `: ${tr.text}` : ""}`;
}

function ruleCard(r, hot) {
  return h("li", { class: `bl-rule${hot ? " hot" : ""}`, dataset: { rule: r.id } },
    h("strong", { text: r.title || "" }), hot ? h("span", { class: "tag", text: t("bl_triggered") }) : null,
    h("div", { class: "muted small", text: `${t("bl_trigger")} ${triggerText(r.trigger)} → ${t(`bl_tg_${r.target}`)}: ${t(`bl_ef_${r.effect}`)}` }),
    h("div", { text: r.text }), h("div", { class: "muted small", text: `— ${r.creator}` }));
}

function speak(rules) {
  if (!("speechSynthesis" in window)) return;
  speechSynthesis.cancel();
  for (const r of rules) {
    const u = new SpeechSynthesisUtterance(`${r.title || ""}. ${r.text}`);
    u.lang = currentLanguage() === "hu" ? "hu-HU" : "en-GB";
    speechSynthesis.speak(u);
  }
}

function rulesPanel(view, ctx) {
  const hot = new Set(view.last_play?.triggered || []);
  const discard = (r) => h("button", { type: "button", class: "btn small ghost", text: t("bl_discardRule"), onclick: () => ctx.send({ type: "blank.discard_rule", rule: r.id }) });
  return h("section", { class: "bl-rules" }, h("h3", {}, t("bl_rules"), " ",
    h("button", { type: "button", class: "btn small ghost", text: t("bl_read"), onclick: () => speak(view.rules) })),
    h("ul", {}, view.rules.map((r) => { const li = ruleCard(r, hot.has(r.id)); if (ctx.isHost) li.append(discard(r)); return li; })),
    view.last_play?.effect ? h("p", { class: "banner", text: `${t("bl_effect")}: ${view.last_play.effect.title} — ${view.last_play.effect.text}` }) : null);
}

function turnClock(view, ctx) {
  if (!view.turn_limit_s) return null;
  const el = h("span", { class: "bl-clock" });
  const tick = () => {
    if (!el.isConnected) return;
    const s = Math.floor((ctx.now() - view.turn_started_ms) / 1000);  // server time, synced
    el.textContent = s > view.turn_limit_s ? `${t("bl_slow")} ${s}s` : `${s}s / ${view.turn_limit_s}s`;
    el.classList.toggle("late", s > view.turn_limit_s);
    setTimeout(tick, 250);
  };
  setTimeout(tick, 0);
  return el;
}

function status(view, ctx) {
  return h("div", { class: "bl-status" },
    view.top ? h("span", {}, `${t("bl_top")}: `, card(view.top)) : null,
    h("span", { text: ` ${t("bl_pile")}: ${view.draw_pile}` }), " ", turnClock(view, ctx),
    h("ul", { class: "bl-hands" }, view.order.map((p) => h("li", { class: p === view.current ? "current" : "" }, h("strong", { text: ctx.name(p) }), ` ${view.hands[p]}`))));
}

function prizePanel(view, ctx) {
  const p = view.prize;
  if (view.winner === null) return null;
  const banner = h("p", { class: "banner won", text: `${t("bl_winner")}: ${ctx.name(view.winner)}` });
  if (p && p.status === "proposed") {
    const what = p.kind === "rule" ? `${p.rule.text} (${triggerText(p.rule.trigger)})` : `${p.effect.title}: ${p.effect.text}`;
    return h("section", {}, banner, h("p", { text: what }), ctx.isHost
      ? h("div", { class: "row" }, h("button", { type: "button", class: "btn primary", id: "approve-prize", text: t("bl_approve"), onclick: () => ctx.send({ type: "blank.decide_prize", approved: true }) }),
        h("button", { type: "button", class: "btn ghost", text: t("bl_refuse"), onclick: () => ctx.send({ type: "blank.decide_prize", approved: false }) }))
      : h("p", { class: "muted", text: t("bl_waitOwner") }));
  }
  return banner;
}

export function board(view, ctx) {
  if (!view.started) return h("p", { class: "muted", text: `${t("bl_deck")}: ${view.deck.name}` });
  const acc = view.accusation;
  return h("div", { class: "blank" }, prizePanel(view, ctx), status(view, ctx), rulesPanel(view, ctx),
    acc ? h("div", { class: "bk-challenge" }, h("span", { text: `${ctx.name(acc.accuser)} → ${ctx.name(acc.accused)}: ${t(`bl_${acc.reason}`)}` }),
      h("button", { type: "button", class: "btn danger", id: "uphold", text: t("bl_uphold"), onclick: () => ctx.send({ type: "blank.judge", upheld: true }) }),
      h("button", { type: "button", class: "btn ghost", text: t("bl_reject"), onclick: () => ctx.send({ type: "blank.judge", upheld: false }) })) : null,
    view.penalties.length ? h("p", { class: "muted small", text: `${t("bl_penalties")}: ${view.penalties.map((x) => `${ctx.name(x.player)} (${t(`bl_${x.reason}`)})`).join(", ")}` }) : null);
}

const chosen = [];

function picker(onPick) {
  return h("div", { class: "bl-picker" }, COLOURS.flatMap((c) => [1, 2, 3, 4, 5, 6].map((n) => card({ colour: c, number: n }, { role: "button", tabindex: 0, dataset: { pick: `${c}-${n}` }, onclick: () => onPick({ colour: c, number: n }) }))));
}

function prizeForm(view, ctx) {
  const sel = (opts, name, prefix) => h("select", { name }, opts.map((o) => h("option", { value: o, text: t(`${prefix}${o}`) })));
  const trig = sel(TRIGGERS, "trigger", "bl_tr_"), target = sel(TARGETS, "target", "bl_tg_"), effect = sel(EFFECTS, "effect", "bl_ef_");
  const param = h("input", { name: "param", placeholder: t("bl_param"), "aria-label": t("bl_param") });
  const body = h("input", { name: "text", maxlength: 200, placeholder: t("bl_text") });
  const title = h("input", { name: "title", maxlength: 200, placeholder: t("bl_title") });
  const creator = h("input", { name: "creator", maxlength: 200, value: ctx.name(ctx.me) });
  const cardSel = h("select", { name: "card" }, view.cards.map((c) => h("option", { value: c.id, text: `${cardName(c)}${c.effect ? " ✎" : ""}` })));
  const trigger = () => {
    const kind = trig.value, v = param.value.trim(), out = { kind };
    if (kind === "colour_played") out.colour = v;
    if (kind === "number_played") out.number = Number(v);
    if (kind === "time_passes") out.seconds = Number(v);
    if (kind === "other") out.text = v;
    return out;
  };
  return h("section", { class: "bl-prize" }, h("h3", { text: t("bl_prize") }),
    h("details", { open: true }, h("summary", { text: t("bl_newRule") }), h("label", {}, t("bl_title"), title), h("label", {}, t("bl_trigger"), trig, param),
      h("label", {}, t("bl_target"), target), h("label", {}, t("bl_effectKind"), effect), h("label", {}, t("bl_text"), body), h("label", {}, t("bl_creator"), creator),
      h("button", { type: "button", class: "btn primary", id: "propose-rule", text: t("bl_propose"), onclick: () => ctx.send({ type: "blank.propose_rule", rule: { title: title.value, trigger: trigger(), target: target.value, effect: effect.value, text: body.value, creator: creator.value } }).catch(() => {}) })),
    h("details", {}, h("summary", { text: t("bl_customCard") }), cardSel, h("label", {}, t("bl_title"), h("input", { name: "ctitle", maxlength: 200 })), h("label", {}, t("bl_text"), h("input", { name: "ctext", maxlength: 200 })),
      h("button", { type: "button", class: "btn primary", text: t("bl_propose"), onclick: (e) => {
        const box = e.currentTarget.parentElement;
        ctx.send({ type: "blank.propose_card", card_id: cardSel.value, effect: { title: box.querySelector("[name=ctitle]").value, text: box.querySelector("[name=ctext]").value, creator: creator.value } }).catch(() => {});
      } })));
}

export function phone(view, ctx) {
  if (!view.started) return null;
  const parts = [];
  if (view.winner === ctx.me && (!view.prize || view.prize.status === "rejected")) parts.push(prizeForm(view, ctx));
  else parts.push(prizePanel(view, ctx));
  const hot = view.last_play?.triggered?.length ? view.rules.filter((r) => view.last_play.triggered.includes(r.id)) : [];
  if (hot.length) parts.push(h("p", { class: "banner bl-alert", text: `${t("bl_triggered")} ${hot.map((r) => r.text).join(" · ")}` }));
  parts.push(status(view, ctx));
  if (!view.top) {
    parts.push(h("p", { class: "prompt", text: t("bl_turnFirst") }), picker((c) => ctx.send({ type: "blank.first_card", card: c }).catch(() => {})));
  } else if (view.winner === null) {
    const list = h("div", { class: "bl-chosen", id: "chosen" }, chosen.map((c) => card(c)));
    parts.push(h("section", { class: "bl-play" }, list, picker((c) => { chosen.push(c); ctx.rerender(); }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn primary", id: "play", disabled: chosen.length ? null : true, text: t("bl_play"), onclick: () => ctx.send({ type: "blank.play", cards: [...chosen] }).finally(() => { chosen.length = 0; ctx.rerender(); }).catch(() => {}) }),
        h("button", { type: "button", class: "btn ghost", text: t("bl_clear"), onclick: () => { chosen.length = 0; ctx.rerender(); } }),
        view.current === ctx.me ? h("button", { type: "button", class: "btn", id: "draw", text: t("bl_draw"), onclick: () => ctx.send({ type: "blank.draw" }).catch(() => {}) }) : null)));
    const who = h("select", { name: "accused" }, view.order.filter((p) => p !== ctx.me).map((p) => h("option", { value: p, text: ctx.name(p) })));
    const why = h("select", { name: "reason" }, ["out_of_turn", "illegal_play", "missed_rule"].map((r) => h("option", { value: r, text: t(`bl_${r}`) })));
    parts.push(h("details", { class: "bl-accuse" }, h("summary", { text: t("bl_accuse") }), who, why,
      h("button", { type: "button", class: "btn danger", text: t("bl_accuse"), onclick: () => ctx.send({ type: "blank.accuse", player: who.value, reason: why.value }).catch(() => {}) })));
  }
  parts.push(rulesPanel(view, ctx));
  return h("div", { class: "blank" }, parts);
}

export function optionsForm() {
  const select = h("select", { name: "deck", id: "deck" }, h("option", { value: "", text: t("bl_newDeck") }));
  const name = h("input", { name: "deck_name", id: "deck-name", placeholder: t("bl_newDeck"), maxlength: 60 });
  api("/api/decks").then(({ decks }) => {
    for (const d of decks) select.append(h("option", { value: d.id, text: `${d.name} (${d.rules})` }));
  }).catch(() => {});
  return {
    el: h("div", { class: "options" }, h("label", {}, t("bl_deck"), select), name),
    read: async () => {
      if (select.value) return { deck_id: select.value };
      const made = await api("/api/decks", { method: "POST", body: { name: name.value || "BLANK", mark: "" } });
      try { localStorage.setItem(`tc.deck.${made.id}`, made.owner_token); } catch { /* the owner token is only for editing */ }
      return { deck_id: made.id };
    },
  };
}

export function describe(e, ctx) {
  const key = `event.${e.type}`;
  switch (e.type) {
    case "RulesRevealed": return t(key, { n: e.revealed.length });
    case "FirstCardTurned": return t(key, { card: cardName(e.card) });
    case "CardsPlayed": return t(key, { name: ctx.name(e.player), cards: e.cards.map(cardName).join(", ") });
    case "PenaltyTaken": return t(key, { name: ctx.name(e.player), reason: t(`bl_${e.reason}`) });
    case "AccusationMade": return t(key, { accuser: ctx.name(e.accuser), accused: ctx.name(e.accused), reason: t(`bl_${e.reason}`) });
    case "AccusationJudged": return t(key, { verdict: t(e.upheld ? "bl_upheld" : "bl_rejected") });
    case "RuleDiscarded": return t(key);
    case "HandAdjusted": return t(key, { name: ctx.name(e.player), delta: e.delta > 0 ? `+${e.delta}` : String(e.delta) });
    case "PrizeProposed": return t(key, { name: ctx.name(e.winner), kind: t(`bl_kind_${e.kind}`) });
    case "PrizeDecided": return t(key, { verdict: t(e.approved ? "bl_approved" : "bl_refused") });
    default: return null;
  }
}

// The decks on this server, on the table's start screen: history, wins, export, import, and
// (for the device that made a deck) typing in the rules of the physical copy.
export async function decksPanel(ctx) {
  const { decks } = await api("/api/decks");
  const file = h("input", { type: "file", accept: "application/json", id: "deck-import" });
  file.addEventListener("change", async () => {
    const text = await file.files[0].text();
    try { await api("/api/decks/import", { method: "POST", body: JSON.parse(text) }); ctx.reload(); } catch (err) { ctx.toast(errorText(err.code ? err : "blank/bad_deck")); }
  });
  const sel = (opts, prefix, what) => h("select", { "aria-label": what }, opts.map((o) => h("option", { value: o, text: t(`${prefix}${o}`) })));
  return h("section", { class: "card", id: "decks" }, h("h2", { text: t("bl_decks") }),
    h("ul", { class: "past" }, decks.map((d) => {
      const token = (() => { try { return localStorage.getItem(`tc.deck.${d.id}`); } catch { return null; } })();
      const wins = Object.entries(d.wins).map(([n, w]) => `${n}: ${w}`).join(", ");
      const item = h("li", {}, h("strong", { text: d.name }), ` · ${d.rules} · ${t("bl_wins")}: ${wins || "—"} · `,
        h("a", { href: `/api/decks/${d.id}/export`, download: `blank-${d.id}.json`, text: t("bl_export") }));
      const hist = h("details", {}, h("summary", { text: t("bl_history") }));
      hist.addEventListener("toggle", async () => {
        if (hist.dataset.loaded) return;
        hist.dataset.loaded = "1";
        const deck = await api(`/api/decks/${d.id}`);
        hist.append(h("ol", {}, deck.history.map((x) => h("li", { text: `${new Date(x.ts_ms).toLocaleDateString()} ${x.who} ${x.what}` }))));
      });
      item.append(hist);
      if (token) {
        const trig = sel(TRIGGERS, "bl_tr_", t("bl_trigger")), target = sel(TARGETS, "bl_tg_", t("bl_target")), effect = sel(EFFECTS, "bl_ef_", t("bl_effectKind"));
        const body = h("input", { maxlength: 200, placeholder: t("bl_text"), "aria-label": t("bl_text") });
        const title = h("input", { maxlength: 200, placeholder: t("bl_title"), "aria-label": t("bl_title") });
        item.append(h("details", {}, h("summary", { text: t("bl_addRule") }), title, trig, target, effect, body,
          h("button", { type: "button", class: "btn small", text: t("bl_propose"), onclick: () => api(`/api/decks/${d.id}/rules`, { method: "POST", token,
            body: { title: title.value, trigger: { kind: trig.value, text: trig.value === "other" ? body.value : "" }, target: target.value, effect: effect.value, text: body.value, creator: d.name } })
            .then(() => ctx.reload(), (err) => ctx.toast(errorText(err))) })));
      }
      return item;
    })), h("label", {}, t("bl_import"), file));
}
