// A round board's QR code, big, one at a time (#43): on the room's projector the boards' codes
// were ~80 px wide, too small for a phone at a seat. A tap on a board (or its small code, from
// the keyboard too) shows its code over the screen, most of the screen's height, with the board's
// table and players; a tap anywhere or Escape closes it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// `board`: {code, pair (the players' names, worded), src (the code's data: URL), alt}.
export function showBoardQr(board) {
  document.getElementById("lg-qr-big")?.close();
  const dialog = h("dialog", { class: "lg-qr-big", id: "lg-qr-big", "aria-label": t("lg_boardQr", { code: board.code }) },
    h("img", { class: "qr", src: board.src, alt: board.alt }),
    h("div", { class: "lg-qr-caption" }, h("strong", { text: board.code }), h("div", { text: board.pair }),
      h("p", { class: "muted", text: t("lg_tapToClose") })));
  dialog.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// Boards under `root` open their code on a tap, except on their links (the table's own screen)
// and other controls.
// `codeOf(code)` is the Promise of a board's code's data: URL (or null: not had yet).
export function tapBoards(root, codeOf) {
  root.addEventListener("click", async (e) => {
    const el = e.target instanceof Element ? e.target.closest(".lg-board") : null;
    if (!el || e.target.closest("a, input, select, button:not(.lg-qr-open)")) return;
    const src = await codeOf(el.dataset.code);
    if (src) showBoardQr({ code: el.dataset.code, pair: el.querySelector(".lg-pair")?.textContent || "", src, alt: el.querySelector("img.qr")?.alt || "" });
  });
}
