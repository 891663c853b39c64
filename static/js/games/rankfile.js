// Rank & File: the rows with their face-up cards, the aces, and a guided guess on the phone.

import { h, promptAt } from "../view.js";
import { t } from "../i18n.js";

export function optionsForm() {
  const variant = h("select", { name: "variant" },
    h("option", { value: "full", text: t("rf_full") }), h("option", { value: "easy", text: t("rf_easy") }));
  const box = (name, label, checked) => h("label", { class: "check" }, h("input", { type: "checkbox", name, checked }), label);
  const el = h("div", { class: "options" }, h("label", {}, t("rf_variant"), variant),
    box("helper", t("rf_helper"), true), box("kings", t("rf_kings"), false), box("joker", t("rf_joker"), false));
  const on = (root, name) => root.querySelector(`[name=${name}]`).checked;
  return {
    el,
    read: (root) => ({ variant: root.querySelector("[name=variant]").value, helper: on(root, "helper"), kings: on(root, "kings"), joker: on(root, "joker") }),
  };
}

function aces(view) {
  return h("div", { class: "rf-aces", "aria-label": `${t("rf_aces")}: ${view.aces_flipped}/${view.aces}` },
    Array.from({ length: view.aces }, (_, i) => h("span", { class: `rf-ace${i < view.aces_flipped ? " flipped" : ""}`, text: "A" })));
}

// A card as it lies on the table: its number once face up; face down, the numbers guessed
// wrong at it (public, as the players remember them) and, with the helper, what it can be.
function card(slot, attrs = {}, picked = false) {
  const face = slot.value === null ? "" : String(slot.value);
  const possible = slot.possible ? slot.possible.join(" ") : "";
  const wrong = slot.value === null ? slot.wrong : [];
  const title = [possible ? `${t("rf_possible")}: ${possible}` : "", wrong.length ? `${t("rf_wrongHere")}: ${wrong.join(" ")}` : ""].filter(Boolean).join(" · ");
  return h("button", { type: "button", class: `rf-card${slot.value === null ? " hidden" : ""}${picked ? " picked" : ""}`, title: title || null, ...attrs },
    h("span", { class: "rf-face", text: face || "?" }),
    wrong.length ? h("span", { class: "rf-wrong", text: wrong.map((n) => `✗${n}`).join(" ") }) : null,
    possible ? h("span", { class: "rf-hint", text: slot.possible.length > 3 ? `${slot.possible[0]}–${slot.possible[slot.possible.length - 1]}` : possible }) : null);
}

export function board(view, ctx) {
  return render(view, ctx, null);
}

// The phone's flow is a little state machine: pick a card, a number, right or wrong, then
// (if right) which of your own cards shows it.
const flow = { step: "idle" };

export function phone(view, ctx) {
  return render(view, ctx, flow);
}

function render(view, ctx, f) {
  if (!view.started) return null;
  const myTurn = f && view.current === ctx.me && !view.over && !ctx.ended;  // the host may end it early
  if (f && !myTurn && f.step !== "idle") reset(f, null);  // the turn moved on (undo, or the game ended)
  const rows = view.order.map((pid) => {
    const row = view.rows[pid];
    return h("div", { class: `rf-row${pid === view.current ? " current" : ""}`, dataset: { player: pid } },
      h("div", { class: "rf-name", text: ctx.name(pid) + (pid === ctx.me ? " ★" : "") }),
      h("div", { class: "rf-cards" }, row.map((slot, i) => card(slot, {
        dataset: { pos: String(i) },
        disabled: !myTurn || slot.value !== null || !clickable(f, pid, i, ctx) ? true : null,
        onclick: () => pick(f, pid, i, view, ctx),
      }, Boolean(myTurn && isPicked(f, pid, i))))));
  });
  // Every guess turns a card or an ace: a turn that starts after one is a new prompt.
  const turnKey = `turn-${view.aces_flipped}-${Object.values(view.rows).flat().filter((s) => s.value !== null).length}`;
  return h("div", { class: "rankfile" }, aces(view), myTurn ? h("div", promptAt(turnKey), controls(f, view, ctx)) : null, f && !ctx.ended ? joker(view, ctx) : null, rows);
}

// Anyone dealt the Joker says so before the first guess, whoever is to play.
function joker(view, ctx) {
  if (!view.options.joker || view.joker.holder || view.guessing_started || view.over) return null;
  return h("div", { class: "row rf-controls" }, h("button", { type: "button", class: "btn ghost", id: "declare-joker", text: t("rf_declareJoker"),
    onclick: () => ctx.send({ type: "rankfile.declare_joker" }).catch(() => {}) }));
}

function isPicked(f, pid, pos) {
  if (f.king) return (f.picks || []).some((p) => p.player === pid && p.position === pos);
  return f.target === pid && f.position === pos && f.step !== "idle";
}

function clickable(f, pid, pos, ctx) {
  if (!f) return false;
  if (f.step === "idle") return pid !== ctx.me;
  if (f.step === "king2") return pid !== ctx.me && !isPicked(f, pid, pos);
  return (f.step === "own" || f.step === "done") && pid === ctx.me;
}

function pick(f, pid, pos, view, ctx) {
  if (!f) return;
  if (f.step === "idle") Object.assign(f, { step: "number", target: pid, position: pos, king: false });
  else if (f.step === "king2") {
    // The King points at two cards before one number is named for both.
    f.picks = [...f.picks, { player: pid, position: pos }];
    if (f.picks.length === 2) f.step = "number";
  } else if (f.step === "own") {
    f.ownPosition = pos;
    submitRight(f, ctx);
    return;
  } else if (f.step === "done") {
    f.positions = f.positions.includes(pos) ? f.positions.filter((p) => p !== pos) : [...f.positions, pos];
  }
  ctx.rerender();
}

function reset(f, ctx) {
  for (const k of Object.keys(f)) delete f[k];
  f.step = "idle";
  ctx?.rerender();
}

function send(f, ctx, cmd) {
  ctx.send(cmd).then(() => reset(f, ctx), () => reset(f, ctx));
}

// A right guess: the guesser's own face-down card with the number (`ownPosition`), or null
// when they hold no other face-down copy of it.
function submitRight(f, ctx) {
  if (f.king) send(f, ctx, { type: "rankfile.king_guess", picks: f.picks, number: f.number, hit: f.hit, own_position: f.ownPosition });
  else send(f, ctx, { type: "rankfile.guess", player: f.target, position: f.position, number: f.number, correct: true, own_position: f.ownPosition });
}

const hasFaceDown = (view, pid) => view.rows[pid].some((s) => s.value === null);

function numberPad(view, onPick) {
  const [lo, hi] = view.numbers;
  const nums = [];
  for (let n = lo; n <= hi; n += 1) nums.push(h("button", { type: "button", class: "btn num", onclick: () => onPick(n), text: String(n) }));
  return h("div", { class: "numpad" }, nums);
}

function controls(f, view, ctx) {
  const cancel = h("button", { type: "button", class: "btn ghost", onclick: () => reset(f, ctx), text: t("rf_cancel") });
  const btn = (label, onclick, cls = "btn") => h("button", { type: "button", class: cls, onclick, text: label });
  switch (f.step) {
    case "idle": {
      const extras = [];
      if (view.options.kings && !view.kings_used.includes(ctx.me)) {
        extras.push(btn(t("rf_king"), () => { Object.assign(f, { step: "king2", king: true, picks: [] }); ctx.rerender(); }));
      }
      if (hasFaceDown(view, ctx.me)) extras.push(btn(t("rf_done"), () => { Object.assign(f, { step: "doneNumber", positions: [] }); ctx.rerender(); }, "btn ghost"));
      if (view.joker.holder === ctx.me && !view.joker.revealed) extras.push(btn(t("rf_revealJoker"), () => send(f, ctx, { type: "rankfile.reveal_joker" }), "btn ghost"));
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", text: `${t("yourTurn")} — ${t("rf_pickCard")}` }), h("div", { class: "row" }, extras));
    }
    case "king2":
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", id: "rf-prompt", text: `${t("rf_kingPick")}: ${f.picks.length}/2` }), cancel);
    case "number":
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", text: t("rf_number") }),
        numberPad(view, (n) => { f.number = n; f.step = "verdict"; ctx.rerender(); }), cancel);
    case "verdict": {
      const verdict = () => {
        if (hasFaceDown(view, ctx.me)) { f.step = "own"; ctx.rerender(); } else { f.ownPosition = null; submitRight(f, ctx); }
      };
      const right = f.king
        ? f.picks.map((p, i) => btn(`${t("rf_right")}: ${ctx.name(p.player)} #${p.position + 1}`, () => { f.hit = i; verdict(); }))
        : [btn(t("rf_right"), verdict)];
      const wrong = () => send(f, ctx, f.king
        ? { type: "rankfile.king_guess", picks: f.picks, number: f.number, hit: null }
        : { type: "rankfile.guess", player: f.target, position: f.position, number: f.number, correct: false });
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", text: `${t("rf_number")}: ${f.number}` }),
        h("div", { class: "row" }, right, btn(t("rf_wrong"), wrong, "btn danger")), cancel);
    }
    case "own":
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", id: "rf-prompt", text: `${t("rf_ownPos")} (${f.number})` }),
        h("div", { class: "row" }, btn(t("rf_noneMine", { n: f.number }), () => { f.ownPosition = null; submitRight(f, ctx); }, "btn ghost"), cancel));
    case "doneNumber":
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", text: t("rf_done") }),
        numberPad(view, (n) => { f.number = n; f.step = "done"; ctx.rerender(); }), cancel);
    case "done":
      return h("div", { class: "rf-controls" }, h("p", { class: "prompt", text: `${t("rf_done")}: ${f.number} (${f.positions.length})` }),
        h("div", { class: "row" }, btn(t("rf_done"), () => send(f, ctx, { type: "rankfile.declare_done", number: f.number, positions: f.positions })), cancel));
    default:
      return null;
  }
}

export function describe(event, ctx) {
  const key = `event.${event.type}`;
  switch (event.type) {
    case "RowsDealt": return t(key, { n: event.length });
    case "GuessRight": case "GuessWrong": return t(key, { name: ctx.name(event.guesser), number: event.number });
    case "NumberDone": return t(key, { name: ctx.name(event.player), number: event.number });
    case "JokerDeclared": case "JokerRevealed": return t(key, { name: ctx.name(event.player) });
    default: return null;
  }
}
