// The room's screen printed for the club's wall (#43): on A4, the latest round's pairings (board,
// players, table code, the bye) on one sheet and the standings on the next, large; the screen's
// controls, QR codes, chart and tables playing are left off (app.css, @media print). The
// pairings are a table of their own, drawn only for paper: the projector shows boards.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// The header's "Print", on the room's screen and the standings anyone may read.
export function printButton() {
  const button = h("button", { type: "button", class: "btn ghost small no-print", id: "lg-print", onclick: () => window.print() });
  const word = () => { button.textContent = t("lg_print"); };
  word();
  window.addEventListener("languagechange-app", word);
  document.getElementById("header-actions").prepend(button);
}

// The round's pairings as they go on the wall; null without a round.
export function printedPairings(leagueName, round) {
  if (!round) return null;
  const head = [t("lg_board"), t("players"), t("tableCode")];
  return h("section", { class: "lg-print-pairs print-only", id: "lg-print-pairs" },
    h("h1", { text: `${leagueName} · ${t("lg_round", { n: round.no })}` }),
    h("table", { class: "stats" }, h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col", text: x })))),
      h("tbody", {}, round.tables.map((tb, i) => h("tr", {}, h("td", { class: "lg-board-no", text: String(i + 1) }),
        h("td", { text: round.pairs[i].join(" – ") }), h("td", { class: "lg-code", text: tb.code }))))),
    round.bye ? h("p", { class: "lg-print-bye", text: t("lg_bye", { name: round.bye }) }) : null);
}
