// BLANK: the deck picker, the Rule Cards in play with what a play triggers, the phone's card
// picker, penalties and accusations, and the winner's prize for the deck. The Rule Cards turned
// at setup, the first card and every play are the table's physical cards, entered through the
// shared card entry (card-entry.js); a play names the deck's own card, so an effect copy is a
// card of its own.

import { api } from "../api.js";
import { cardEntry, clearEntry } from "../card-entry.js";
import { h } from "../dom.js";
import { addStrings, currentLanguage, t } from "../i18n.js";

addStrings({
  en: {
    bl_deck: "Deck", bl_newDeck: "New deck named…", bl_rules: "Rule Cards in play", bl_read: "Read aloud", bl_top: "Top card",
    bl_turnFirst: "Turn the first card of the draw pile:", bl_play: "Play", bl_draw: "No match: draw (penalty)", bl_clear: "Clear",
    bl_triggered: "Triggered!", bl_effect: "Card effect", bl_hands: "Cards in hand", bl_accuse: "Accuse", bl_reason: "Reason",
    bl_out_of_turn: "played out of turn", bl_illegal_play: "illegal play", bl_missed_rule: "failed to follow a rule",
    bl_uphold: "Penalty to the accused", bl_reject: "False accusation", bl_prize: "Your prize", bl_newRule: "Create a Rule Card",
    bl_customCard: "Customise a Game Card", bl_trigger: "If…", bl_target: "Then… (target)", bl_effectKind: "Effect", bl_text: "What happens",
    bl_creator: "Signed", bl_title: "Title", bl_propose: "Propose", bl_approve: "Approve for the deck", bl_refuse: "Not this one",
    bl_discardRule: "Discard (to the bottom)", bl_decks: "BLANK decks", bl_export: "Export", bl_import: "Import a deck (JSON)",
    bl_addRule: "Add a rule of this copy", bl_wins: "Wins", bl_history: "Deck history",
    bl_winner: "Winner", bl_waitOwner: "Waiting for the owner's approval", bl_slow: "Too slow!", bl_pile: "Draw pile", bl_penalties: "Penalties",
    bl_goingOut: "played their last card. Follow the effects it set off; then they win.", bl_resolved: "Effects followed",
    bl_noCardLeft: "no card left to draw",
    bl_turnRules: "Enter the Rule Cards you turned over", bl_rulesEntered: "These are ours", bl_rulesDraw: "We have no Rule Cards: the app draws",
    bl_playCards: "The cards you put down (top card last)", bl_effectCards: "Cards with an effect", bl_mix: "Mix in another owner's deck",
    bl_ruleCards: "Rule Cards at setup", bl_ruleCardsTable: "We turn them and enter them", bl_ruleCardsApp: "The app draws them",
    bl_multiPlay: "Several cards at once", bl_multiTop: "Each matches the top card (rulebook)", bl_multiShared: "They share a colour or number, the first matches",
    bl_plain: "plain", bl_illustrated: "illustrated", bl_effectKind_effect: "with effect", bl_customised: "customised",
    bl_describeCards: "Enter this copy's Game Cards", bl_isIllustrated: "Illustrated", bl_noEffect: "No effect", bl_save: "Save", bl_forDeck: "For the deck",
  },
  hu: {
    bl_deck: "Pakli", bl_newDeck: "Új pakli neve…", bl_rules: "Játékban lévő szabálykártyák", bl_read: "Felolvasás", bl_top: "Felső lap",
    bl_turnFirst: "Fordítsd fel a húzópakli első lapját:", bl_play: "Kijátszom", bl_draw: "Nincs megfelelő: húzok (büntetés)", bl_clear: "Törlés",
    bl_triggered: "Életbe lépett!", bl_effect: "Kártyahatás", bl_hands: "Lapok a kézben", bl_accuse: "Vádolok", bl_reason: "Ok",
    bl_out_of_turn: "nem a sorában játszott", bl_illegal_play: "szabálytalan lap", bl_missed_rule: "nem követte a szabályt",
    bl_uphold: "Büntetés a vádlottnak", bl_reject: "Hamis vád", bl_prize: "A díjad", bl_newRule: "Új szabálykártya",
    bl_customCard: "Játékkártya testreszabása", bl_trigger: "Ha…", bl_target: "Akkor… (kire)", bl_effectKind: "Hatás", bl_text: "Mi történik",
    bl_creator: "Aláírás", bl_title: "Cím", bl_propose: "Javaslom", bl_approve: "Jóváhagyom a paklinak", bl_refuse: "Ezt nem",
    bl_discardRule: "Eldobás (a pakli aljára)", bl_decks: "BLANK paklik", bl_export: "Exportálás", bl_import: "Pakli importálása (JSON)",
    bl_addRule: "Szabály hozzáadása", bl_wins: "Győzelmek", bl_history: "A pakli története",
    bl_winner: "Győztes", bl_waitOwner: "A tulajdonos jóváhagyására vár", bl_slow: "Túl lassú!", bl_pile: "Húzópakli", bl_penalties: "Büntetések",
    bl_goingOut: "kijátszotta az utolsó lapját. Hajtsátok végre a hatásait; utána ő nyer.", bl_resolved: "A hatások megtörténtek",
    bl_noCardLeft: "nincs több húzható lap",
    bl_turnRules: "Add meg a felfordított szabálykártyákat", bl_rulesEntered: "Ezek vannak nálunk", bl_rulesDraw: "Nincsenek szabálykártyáink: húzzon az app",
    bl_playCards: "A lerakott lapok (a legfelső utolsóként)", bl_effectCards: "Hatással bíró lapok", bl_mix: "Egy másik tulajdonos paklijának bekeverése",
    bl_ruleCards: "Szabálykártyák a kezdéskor", bl_ruleCardsTable: "Mi fordítjuk fel és adjuk meg", bl_ruleCardsApp: "Az app húzza őket",
    bl_multiPlay: "Több lap egyszerre", bl_multiTop: "Mind a felső laphoz illik (szabálykönyv)", bl_multiShared: "Közös a színük vagy a számuk, az első illik",
    bl_plain: "sima", bl_illustrated: "illusztrált", bl_effectKind_effect: "hatással", bl_customised: "testreszabott",
    bl_describeCards: "A pakli játékkártyáinak megadása", bl_isIllustrated: "Illusztrált", bl_noEffect: "Nincs hatás", bl_save: "Mentés", bl_forDeck: "Melyik paklinak",
  },
});

const COLOURS = ["hexagon", "triangle", "square", "circle", "diamond", "shield"];
const GLYPH = { hexagon: "⬢", triangle: "▲", square: "■", circle: "●", diamond: "◆", shield: "⛉" };
const TRIGGERS = ["card_played", "colour_played", "number_played", "two_or_more", "card_drawn", "penalty", "time_passes", "other"];
const TARGETS = ["next_player", "previous_player", "all_players", "cards_in_play", "draw_pile", "discard_pile", "this_player", "other"];
const EFFECTS = ["draw_card", "take_cards", "discard_cards", "change_cards", "say_something", "do_something", "other"];
const label = (s) => s.replaceAll("_", " ");

function card(c, attrs = {}) {
  return h("span", { class: `bl-card c-${c.colour}`, title: `${c.colour} ${c.number}`, ...attrs }, GLYPH[c.colour], h("b", { text: String(c.number) }));
}

// One of the deck's cards as a button of the card entry: an effect copy shows its title (and,
// at a table of mixed decks, its deck's mark).
function cardButton(c, attrs = {}) {
  return h("button", { type: "button", class: `bl-card c-${c.colour}${c.effect ? " fx" : ""}`, title: `${c.colour} ${c.number}${c.effect ? ` · ${c.effect.title}` : ""}`, ...attrs },
    GLYPH[c.colour], h("b", { text: String(c.number) }), c.effect ? h("small", { text: c.effect.title }) : null, c.mark ? h("i", { class: "mark", text: c.mark }) : null);
}

// The deck's own cards to enter: one per colour and number for the copies without an effect,
// and every copy with an effect separately, since only that physical card sets it off.
function deckPalette(view) {
  const items = [];
  for (const colour of COLOURS) {
    for (const number of [1, 2, 3, 4, 5, 6]) {
      const copies = view.cards.filter((c) => c.colour === colour && c.number === number);
      if (!copies.length || copies.some((c) => !c.effect)) items.push({ key: `${colour}-${number}`, card: { colour, number } });
    }
  }
  for (const c of view.cards.filter((x) => x.effect)) items.push({ key: c.id, group: "effects", card: { id: c.id, colour: c.colour, number: c.number, effect: c.effect, mark: c.mark } });
  return items;
}

const named = (c) => (c.id ? { id: c.id } : { colour: c.colour, number: c.number });
const kindLabel = (kind) => t(kind === "effect" ? "bl_effectKind_effect" : `bl_${kind}`);

// The Rule Cards turned over at setup, entered from the table; the app's draw is the option.
function ruleEntry(view, ctx) {
  const face = (r, attrs = {}) => h("button", { type: "button", class: "bl-rule-pick", ...attrs }, h("strong", { text: r.title || "" }), h("span", { text: r.text }));
  return cardEntry({
    id: "blank-rules", title: t("bl_turnRules"), palette: view.rule_choices.map((r) => ({ key: r.id, card: r })), face,
    min: view.rules_needed, max: view.rules_needed, ordered: false,
    enter: (rules) => ctx.send({ type: "blank.reveal_rules", rules: rules.map((r) => r.id) }),
    draw: () => ctx.send({ type: "blank.reveal_rules", draw: true }),
    labels: { enter: t("bl_rulesEntered"), draw: t("bl_rulesDraw"), clear: t("bl_clear") },
  });
}

function triggerText(tr) {
  const extra = tr.colour || tr.number || (tr.seconds ? `${tr.seconds}s` : "");
  return `${label(tr.kind)}${extra ? ` (${extra})` : ""}${tr.text ? `: ${tr.text}` : ""}`;
}

function ruleCard(r, hot) {
  return h("li", { class: `bl-rule${hot ? " hot" : ""}`, dataset: { rule: r.id } },
    h("strong", { text: r.title || "" }), hot ? h("span", { class: "tag", text: t("bl_triggered") }) : null,
    h("div", { class: "muted small", text: `${t("bl_trigger")} ${triggerText(r.trigger)} → ${label(r.target)}, ${label(r.effect)}` }),
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

// The rules the last play or penalty set off (older states only knew plays).
const hotRules = (view) => view.triggered?.rules || view.last_play?.triggered || [];

function rulesPanel(view, ctx) {
  const hot = new Set(hotRules(view));
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

// A last card that set off rules or an effect: the player wins once the table has followed them.
function goingOut(view, ctx) {
  if (!view.going_out) return null;
  const mayConfirm = ctx.isHost || (ctx.me && ctx.me !== view.going_out);
  return h("div", { class: "banner bl-going-out" }, h("strong", { text: ctx.name(view.going_out) }), ` ${t("bl_goingOut")} `,
    mayConfirm ? h("button", { type: "button", class: "btn primary", id: "resolved", text: t("bl_resolved"), onclick: () => ctx.send({ type: "blank.resolved" }).catch(() => {}) }) : null);
}

function prizePanel(view, ctx) {
  const p = view.prize;
  if (view.winner === null) return goingOut(view, ctx);
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
  return h("div", { class: "blank" }, prizePanel(view, ctx), status(view, ctx), view.rules_needed ? ruleEntry(view, ctx) : null, rulesPanel(view, ctx),
    acc ? h("div", { class: "bk-challenge" }, h("span", { text: `${ctx.name(acc.accuser)} → ${ctx.name(acc.accused)}: ${t(`bl_${acc.reason}`)}` }),
      h("button", { type: "button", class: "btn danger", id: "uphold", text: t("bl_uphold"), onclick: () => ctx.send({ type: "blank.judge", upheld: true }) }),
      h("button", { type: "button", class: "btn ghost", text: t("bl_reject"), onclick: () => ctx.send({ type: "blank.judge", upheld: false }) })) : null,
    view.penalties.length ? h("p", { class: "muted small", text: `${t("bl_penalties")}: ${view.penalties.map((x) => `${ctx.name(x.player)} (${label(x.reason)})`).join(", ")}` }) : null);
}


function prizeForm(view, ctx) {
  const sel = (opts, name) => h("select", { name }, opts.map((o) => h("option", { value: o, text: label(o) })));
  const trig = sel(TRIGGERS, "trigger"), target = sel(TARGETS, "target"), effect = sel(EFFECTS, "effect");
  const param = h("input", { name: "param", placeholder: "colour / number / seconds" });
  const body = h("input", { name: "text", maxlength: 200, placeholder: t("bl_text") });
  const title = h("input", { name: "title", maxlength: 200, placeholder: t("bl_title") });
  const creator = h("input", { name: "creator", maxlength: 200, value: ctx.name(ctx.me) });
  const cardSel = h("select", { name: "card" }, view.cards.map((c) => h("option", { value: c.id, text: `${c.mark ? `${c.mark} ` : ""}${c.colour} ${c.number} (${kindLabel(c.kind)})${c.effect ? `: ${c.effect.title}` : ""}` })));
  const marks = [...new Set(view.cards.map((c) => c.mark || ""))];  // a table of mixed decks: whose copy gains the rule
  const deckSel = marks.length > 1 ? h("label", {}, t("bl_forDeck"), h("select", { name: "deck" }, marks.map((m, i) => h("option", { value: i, text: m || String(i + 1) })))) : null;
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
      h("label", {}, t("bl_target"), target), h("label", {}, t("bl_effectKind"), effect), h("label", {}, t("bl_text"), body), h("label", {}, t("bl_creator"), creator), deckSel,
      h("button", { type: "button", class: "btn primary", id: "propose-rule", text: t("bl_propose"), onclick: () => ctx.send({ type: "blank.propose_rule", rule: { title: title.value, trigger: trigger(), target: target.value, effect: effect.value, text: body.value, creator: creator.value }, ...(deckSel ? { deck: Number(deckSel.querySelector("select").value) } : {}) }).catch(() => {}) })),
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
  const hot = view.rules.filter((r) => hotRules(view).includes(r.id));
  if (hot.length) parts.push(h("p", { class: "banner bl-alert", text: `${t("bl_triggered")} ${hot.map((r) => r.text).join(" · ")}` }));
  parts.push(status(view, ctx));
  const groups = { effects: t("bl_effectCards") };
  if (view.rules_needed) {
    parts.push(ruleEntry(view, ctx));
  } else if (!view.top) {
    parts.push(cardEntry({ id: "blank-first", title: t("bl_turnFirst"), palette: deckPalette(view), groups, face: cardButton,
      enter: ([c]) => ctx.send({ type: "blank.first_card", card: named(c) }) }));
  } else if (view.winner === null) {
    // Nothing is played while the table follows a last card's effects; accusing still is.
    if (view.going_out) clearEntry("blank-play");
    else parts.push(h("section", { class: "bl-play" }, cardEntry({
      id: "blank-play", title: t("bl_playCards"), palette: deckPalette(view), groups, face: cardButton, max: Math.max(1, view.hands[ctx.me] ?? 1),
      enter: (cards) => ctx.send({ type: "blank.play", cards: cards.map(named) }),
      labels: { enter: t("bl_play"), clear: t("bl_clear") },
    }), view.current === ctx.me ? h("div", { class: "row" }, h("button", { type: "button", class: "btn", id: "draw", text: t("bl_draw"), onclick: () => ctx.send({ type: "blank.draw" }).catch(() => {}) })) : null));
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
  const mixing = h("fieldset", { class: "bl-mix", id: "deck-mix" }, h("legend", { text: t("bl_mix") }));
  api("/api/decks").then(({ decks }) => {
    for (const d of decks) {
      const label = `${d.name}${d.mark ? ` ${d.mark}` : ""} (${d.rules})`;
      select.append(h("option", { value: d.id, text: label }));
      mixing.append(h("label", { class: "check" }, h("input", { type: "checkbox", name: "mix", value: d.id }), label));
    }
  }).catch(() => {});
  const radio = (group, value, label, checked) => h("label", { class: "check" }, h("input", { type: "radio", name: group, value, checked: checked || null }), label);
  const ruleCards = h("fieldset", {}, h("legend", { text: t("bl_ruleCards") }), radio("rule_cards", "table", t("bl_ruleCardsTable"), true), radio("rule_cards", "app", t("bl_ruleCardsApp")));
  const multi = h("fieldset", {}, h("legend", { text: t("bl_multiPlay") }), radio("multi_play", "top", t("bl_multiTop"), true), radio("multi_play", "shared", t("bl_multiShared")));
  const el = h("div", { class: "options" }, h("label", {}, t("bl_deck"), select), name, mixing, ruleCards, multi);
  const picked = (group) => el.querySelector(`[name=${group}]:checked`).value;
  return {
    el,
    read: async () => {
      let first = select.value;
      if (!first) {
        const made = await api("/api/decks", { method: "POST", body: { name: name.value || "BLANK", mark: "" } });
        try { localStorage.setItem(`tc.deck.${made.id}`, made.owner_token); } catch { /* the owner token is only for editing */ }
        first = made.id;
      }
      const others = [...mixing.querySelectorAll("[name=mix]:checked")].map((box) => box.value).filter((id) => id !== first);
      const decks = others.length ? { deck_ids: [first, ...others] } : { deck_id: first };
      return { ...decks, rule_cards: picked("rule_cards"), multi_play: picked("multi_play") };
    },
  };
}

export function describe(e, ctx) {
  switch (e.type) {
    case "RulesRevealed": return `${e.revealed.length} Rule Cards revealed`;
    case "RuleCardsTurned": return `${e.rules.length} Rule Cards turned (${e.source})`;
    case "FirstCardTurned": return `First card: ${e.card.colour} ${e.card.number}`;
    case "CardsPlayed": return `${ctx.name(e.player)}: ${e.cards.map((c) => `${c.colour} ${c.number}`).join(", ")}`;
    case "PenaltyTaken": return `${ctx.name(e.player)}: penalty (${label(e.reason)}${e.drawn === false ? `, ${t("bl_noCardLeft")}` : ""})`;
    case "EffectsResolved": return `${ctx.name(e.player)}: ${t("bl_resolved")}`;
    case "AccusationMade": return `${ctx.name(e.accuser)} accuses ${ctx.name(e.accused)}`;
    case "PrizeProposed": return `${ctx.name(e.winner)} proposes a ${e.kind}`;
    case "PrizeDecided": return e.approved ? "Prize approved for the deck" : "Prize not approved";
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
    try { await api("/api/decks/import", { method: "POST", body: JSON.parse(text) }); ctx.reload(); } catch (err) { ctx.toast(err.message); }
  });
  const sel = (opts) => h("select", {}, opts.map((o) => h("option", { value: o, text: label(o) })));
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
        const trig = sel(TRIGGERS), target = sel(TARGETS), effect = sel(EFFECTS);
        const body = h("input", { maxlength: 200, placeholder: t("bl_text") });
        const title = h("input", { maxlength: 200, placeholder: t("bl_title") });
        item.append(h("details", {}, h("summary", { text: t("bl_addRule") }), title, trig, target, effect, body,
          h("button", { type: "button", class: "btn small", text: t("bl_propose"), onclick: () => api(`/api/decks/${d.id}/rules`, { method: "POST", token,
            body: { title: title.value, trigger: { kind: trig.value, text: trig.value === "other" ? body.value : "" }, target: target.value, effect: effect.value, text: body.value, creator: d.name } })
            .then(() => ctx.reload(), (err) => ctx.toast(err.message)) })), cardsForm(d, token, ctx));
      }
      return item;
    })), h("label", {}, t("bl_import"), file));
}

// The owner enters their physical Game Cards: which are illustrated, and the effect printed on a
// card (the rulebook's examples are offered; the box's own cards may say anything).
function cardsForm(d, token, ctx) {
  const box = h("details", { class: "bl-describe" }, h("summary", { text: t("bl_describeCards") }));
  box.addEventListener("toggle", async () => {
    if (box.dataset.loaded) return;
    box.dataset.loaded = "1";
    const [deck, { effects }] = await Promise.all([api(`/api/decks/${d.id}`), api("/api/decks/examples")]);
    const option = (c) => h("option", { value: c.id, text: `${c.colour} ${c.number}${c.illustrated ? ` (${t("bl_illustrated")})` : ""}${c.effect ? `: ${c.effect.title}` : ""}` });
    const which = h("select", { name: "card" }, deck.cards.map(option));
    const illustrated = h("input", { type: "checkbox", name: "illustrated" });
    const title = h("input", { name: "etitle", maxlength: 200, placeholder: t("bl_title"), list: `bl-examples-${d.id}` });
    const body = h("input", { name: "etext", maxlength: 200, placeholder: t("bl_text") });
    const creator = h("input", { name: "ecreator", maxlength: 200, placeholder: t("bl_creator") });
    const none = h("input", { type: "checkbox", name: "none" });
    const examples = h("datalist", { id: `bl-examples-${d.id}` }, effects.map((x) => h("option", { value: x.title })));
    const show = () => {
      const c = deck.cards.find((x) => x.id === which.value);
      illustrated.checked = c.illustrated;
      none.checked = !c.effect;
      title.value = c.effect?.title || ""; body.value = c.effect?.text || ""; creator.value = c.effect?.creator || "";
    };
    which.addEventListener("change", show);
    title.addEventListener("change", () => {  // an example picked by its title fills in the rest
      const x = effects.find((e) => e.title === title.value);
      if (x) { body.value = x.text; creator.value = x.creator; none.checked = false; }
    });
    const save = () => api(`/api/decks/${d.id}/cards/${which.value}`, { method: "POST", token,
      body: { illustrated: illustrated.checked, effect: none.checked ? null : { title: title.value, text: body.value, creator: creator.value } } })
      .then((c) => { Object.assign(deck.cards.find((x) => x.id === c.id), c); which.selectedOptions[0].replaceWith(option(c)); which.value = c.id; }, (err) => ctx.toast(err.message));
    box.append(which, h("label", { class: "check" }, illustrated, t("bl_isIllustrated")), h("label", { class: "check" }, none, t("bl_noEffect")),
      title, examples, body, creator, h("button", { type: "button", class: "btn small", text: t("bl_save"), onclick: save }));
    show();
  });
  return box;
}
