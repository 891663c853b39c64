// /venue/print: the venue's table tents, to print on A4 (the staff's page links here). One tent
// per physical table, two to a sheet: each is half the sheet, folded along its middle into a
// tent, so its upper face is printed upside down and both sides read the right way up on the
// table. A face has the table's label in large type, the venue's name, the table's QR code (6 cm
// across its modules: a phone scans it from a chair) and, if the venue has one, the Wi-Fi's
// code with the network's name under it. The codes carry the tent's secret, so they are asked
// for with the staff's token, in a header.

import { api } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";

const main = document.getElementById("main");
const dataUrl = (svg) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

// The label's type is as large as its length lets it be across the face (see app.css).
const sizeOf = (label) => (label.length <= 3 ? "huge" : label.length <= 8 ? "large" : "long");

function face(venue, label, qr, wifi, side) {
  return h("div", { class: `tent-face ${side}` },
    h("div", { class: "tent-words" }, h("div", { class: "tent-venue", text: venue.name }),
      h("div", { class: `tent-label ${sizeOf(label)}`, text: label }),
      h("div", { class: "tent-hint", text: t("vn_scan") })),
    h("img", { class: "tent-qr", alt: t("vn_tentQr", { label }), src: qr }),
    wifi ? h("figure", { class: "tent-wifi" }, h("img", { alt: t("vn_wifiQr"), src: wifi }),
      h("figcaption", {}, h("span", { class: "tent-wifi-word", text: t("vn_wifiJoin") }), h("span", { class: "tent-ssid", text: venue.wifi?.ssid || "" }))) : null);
}

/** Draw the tents of venue `venueId` (all of them, or the one `only` names) for printing. */
export async function printTents(venueId, token, only) {
  const base = `/api/venues/${encodeURIComponent(venueId)}`;
  let venue;
  try {
    venue = await api(base, { token });
  } catch (err) {
    replace(main, h("p", { class: "error", id: "venue-error", text: errorText(err) }));
    return;
  }
  document.title = `${venue.name} · ${t("vn_print")}`;
  const labels = venue.tables.map((tb) => tb.label).filter((label) => only === null || label === only);
  // A venue without Wi-Fi answers 404 (venue/no_wifi): its tents have the table's code alone.
  const wifiAsked = api(`${base}/wifi.svg`, { token, text: true }).then(dataUrl, () => null);
  const qrs = await Promise.all(labels.map((label) => api(`${base}/tables/${encodeURIComponent(label)}/qr.svg`, { token, text: true }).then(dataUrl)))
    .catch((err) => { toast(errorText(err)); return null; });
  if (!qrs) return;
  const wifi = await wifiAsked;
  const tents = labels.map((label, i) => h("article", { class: "tent", dataset: { label } },
    face(venue, label, qrs[i], wifi, "upside-down"), face(venue, label, qrs[i], wifi, "upright")));
  const sheets = [];
  for (let i = 0; i < tents.length; i += 2) sheets.push(h("section", { class: "sheet" }, tents.slice(i, i + 2)));
  replace(main, h("div", { class: "card print-bar" }, h("h2", { text: `${venue.name} · ${t("vn_print")}` }),
    h("p", { class: "muted", text: t("vn_printHint", { n: labels.length }) }),
    h("button", { type: "button", class: "btn primary", id: "print-now", text: t("vn_printNow"), onclick: () => window.print() })),
  h("div", { class: "sheets", id: "sheets" }, sheets));
  // Printed (or made a PDF of) only once every code is drawn.
  await Promise.all([...main.querySelectorAll("img")].map((img) => img.decode().catch(() => {})));
  document.body.dataset.tents = "ready";
}
