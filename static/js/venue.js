// /venue: a café's or club room's venue. Without one, the form that makes it (its name, its
// physical tables' labels, its Wi-Fi for the tents' second code). With one (#venue=ID, the
// staff token kept on this device), the counter's screen: every physical table, free or its
// game, players and scores, whose turn, the sand and how long it has been going, read anew
// whenever the venue's socket says a table moved; the staff end a table's game at closing and
// give a table a new tent (its old one stops working at once).

import { api, storage } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { languageButton, registerServiceWorker } from "./common.js";
import { confirmButton } from "./confirm.js";
import { errorText, t } from "./i18n.js";
import { sandText, throttledReads } from "./rooms.js";
import { LiveSocket } from "./socket.js";
import { h as v, patch } from "./view.js";

const VENUE_KEY = "tc.venue."; // + a venue's id: {token, name}, its staff's on this device
const MAX_NUMBERED = 100; // the server's cap on a venue's tables (MAX_TABLES)
const SAFETY_POLL_MS = 30000; // only while the socket is down, as the league room's screen
const main = document.getElementById("main");
registerServiceWorker();
languageButton();

const params = new URLSearchParams(location.hash.slice(1));
const venueId = params.get("venue");
if (venueId && params.get("token")) {
  // Kept on this device and taken out of the address bar, where a photo of the counter's
  // screen, the history or a shared link would carry it.
  storage.set(`${VENUE_KEY}${venueId}`, { token: params.get("token"), name: storage.get(`${VENUE_KEY}${venueId}`)?.name ?? null });
  history.replaceState(null, "", `/venue#venue=${encodeURIComponent(venueId)}`);
}
const token = venueId ? storage.get(`${VENUE_KEY}${venueId}`)?.token : null;

/** The labels of "1 to N" and of the free labels typed (one a line or comma apart), in order. */
function labelsOf(count, free) {
  const n = Math.max(0, Math.min(MAX_NUMBERED, Math.floor(Number(count) || 0)));
  const numbered = Array.from({ length: n }, (_, i) => String(i + 1));
  return [...numbered, ...free.split(/[\n,]/).map((x) => x.trim()).filter(Boolean)];
}

/** The Wi-Fi as the API takes it from a network's name and password (none without a name): a
 * network without a password is an open one. */
function wifiOf(ssid, password) {
  return ssid.trim() ? { ssid: ssid.trim(), password, security: password ? "WPA" : "nopass" } : null;
}

function newVenueForm() {
  const name = h("input", { id: "venue-name", maxlength: 60, required: true, autocomplete: "organization" });
  const count = h("input", { id: "venue-count", type: "number", min: 0, max: MAX_NUMBERED, value: 10, inputmode: "numeric" });
  const free = h("textarea", { id: "venue-labels", rows: 2, maxlength: 2000, placeholder: t("vn_labelsExample") });
  const ssid = h("input", { id: "venue-ssid", maxlength: 32, autocomplete: "off" });
  const password = h("input", { id: "venue-password", maxlength: 63, autocomplete: "off" });
  const preview = h("p", { class: "muted small", id: "venue-preview" });
  const showPreview = () => {
    const labels = labelsOf(count.value, free.value);
    preview.textContent = labels.length ? t("vn_preview", { n: labels.length, labels: labels.slice(0, 6).join(", ") + (labels.length > 6 ? ", …" : "") }) : t("vn_noTables");
  };
  count.addEventListener("input", showPreview);
  free.addEventListener("input", showPreview);
  showPreview();
  const create = h("button", { type: "submit", class: "btn primary big", id: "venue-create", text: t("vn_create") });
  const form = h("form", { class: "card", id: "venue-form" }, h("h2", { text: t("vn_new") }),
    h("label", {}, t("vn_name"), name),
    h("label", {}, t("vn_numbered"), count),
    h("label", {}, t("vn_labels"), free), preview,
    h("fieldset", { class: "vn-wifi" }, h("legend", { text: t("vn_wifi") }), h("p", { class: "muted small", text: t("vn_wifiHint") }),
      h("label", {}, t("vn_ssid"), ssid), h("label", {}, t("vn_password"), password)),
    create);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    create.disabled = true;
    try {
      const made = await api("/api/venues", { method: "POST", body: { name: name.value, tables: labelsOf(count.value, free.value), wifi: wifiOf(ssid.value, password.value) ?? undefined } });
      storage.set(`${VENUE_KEY}${made.id}`, { token: made.token, name: name.value.trim() });
      location.hash = `venue=${encodeURIComponent(made.id)}`;
      location.reload();
    } catch (err) {
      toast(errorText(err));
      create.disabled = false;
    }
  });
  const known = storage.keys(VENUE_KEY).map((key) => key.slice(VENUE_KEY.length));
  replace(main, known.length ? h("section", { class: "card", id: "venue-known" }, h("h2", { text: t("vn_yours") }),
    h("ul", { class: "vn-known" }, known.map((id) => h("li", {}, h("a", { href: `/venue#venue=${encodeURIComponent(id)}`, text: storage.get(`${VENUE_KEY}${id}`)?.name || id }))))) : null, form);
}

let last = null; // the venue as the server last said
let offsetMs = 0; // the server's clock minus this device's
const fresh = new Set(); // labels given a new tent since this page opened: their print link is offered

function since(startedMs) {
  const n = Math.floor((Date.now() + offsetMs - startedMs) / 60000);
  return n < 1 ? t("vn_justStarted") : t("vn_playingFor", { n });
}

const printLink = (label) => `/venue/print#venue=${encodeURIComponent(venueId)}${label ? `&label=${encodeURIComponent(label)}` : ""}`;

async function act(path, label) {
  try {
    await api(`/api/venues/${encodeURIComponent(venueId)}/tables/${encodeURIComponent(label)}/${path}`, { method: "POST", token, body: {} });
    if (path === "tent") { fresh.add(label); toast(t("vn_newTent", { label }), "ok"); }
    await refresh();
  } catch (err) { toast(errorText(err)); }
}

function tableCard(tb) {
  const going = tb.code !== null;
  const sand = going ? sandText(tb.timer, offsetMs) : null;
  const status = going ? (tb.status === "playing" ? t("vn_playing") : t("lg_lobby")) : t("vn_free");
  return v("article", { class: `vn-table${going ? " going" : ""}`, dataset: { label: tb.label }, key: tb.label },
    v("div", { class: "vn-head" }, v("strong", { class: "vn-label", text: tb.label }), v("span", { class: "pill vn-status", text: status })),
    going ? v("div", { class: "vn-game" }, v("span", { text: `${tb.title || t(`game.${tb.game}`)} · ${tb.code}` }),
      sand ? v("span", { class: "lg-sand", text: sand }) : null) : null,
    going && tb.started_ms ? v("div", { class: "muted small vn-since", text: since(tb.started_ms) }) : null,
    going ? v("ul", { class: "lg-players" }, tb.players.map((p) => v("li", { class: p.name === tb.turn ? "lg-turn" : "" },
      v("span", { text: p.name === tb.turn ? `▶ ${p.name}` : p.name }), p.score === null || p.score === undefined ? null : v("b", { text: String(p.score) })))) : null,
    v("div", { class: "row vn-actions" },
      going ? confirmButton({ cls: "btn small danger", label: t("end"), "aria-label": `${t("end")}: ${tb.label}`, dataset: { end: tb.label }, question: t("vn_confirmEnd", { label: tb.label }), onConfirm: () => act("end", tb.label) }) : null,
      confirmButton({ cls: "btn small ghost", label: t("vn_reprint"), "aria-label": `${t("vn_reprint")}: ${tb.label}`, dataset: { reprint: tb.label }, question: t("vn_confirmReprint"), onConfirm: () => act("tent", tb.label) }),
      fresh.has(tb.label) ? v("a", { class: "btn small primary", href: printLink(tb.label), target: "_blank", dataset: { print: tb.label }, text: t("vn_printOne") }) : null));
}

async function saveWifi(wifi) {
  try {
    await api(`/api/venues/${encodeURIComponent(venueId)}/wifi`, { method: "POST", token, body: wifi ?? { ssid: null } });
    // the password is the router's to keep: once sent, this page forgets it
    document.getElementById("venue-wifi-password").value = "";
    toast(t(wifi ? "vn_wifiSaved" : "vn_wifiCleared"), "ok");
    await refresh();
  } catch (err) { toast(errorText(err)); }
}

/** The Wi-Fi the tents offer, changed after the venue is made (a new router, a new password):
 * the tents printed from then on carry it. Its name is shown, never its password. */
function wifiCard() {
  const now = last.wifi ? t("vn_wifiNow", { ssid: last.wifi.ssid }) : t("vn_wifiNone");
  const submit = (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    saveWifi(wifiOf(form.elements.ssid.value, form.elements.password.value));
  };
  return v("details", { class: "card vn-wifi-card", id: "venue-wifi", key: "wifi" },
    v("summary", {}, v("strong", { text: t("vn_wifi") }), " · ", v("span", { id: "venue-wifi-now", text: now })),
    v("form", { onsubmit: submit },
      v("p", { class: "muted small", text: t("vn_wifiChangeHint") }),
      v("label", {}, t("vn_ssid"), v("input", { id: "venue-wifi-ssid", name: "ssid", maxlength: 32, autocomplete: "off" })),
      v("label", {}, t("vn_password"), v("input", { id: "venue-wifi-password", name: "password", type: "password", maxlength: 64, autocomplete: "new-password" })),
      v("div", { class: "row" },
        v("button", { type: "submit", class: "btn primary", id: "venue-wifi-save", text: t("vn_wifiSave") }),
        last.wifi ? confirmButton({ id: "venue-wifi-clear", cls: "btn ghost", label: t("vn_wifiClear"), question: t("vn_confirmWifiClear"), onConfirm: () => saveWifi(null) }) : null)));
}

let staff = null; // the staff screen's root, patched at every read and every second
function draw() {
  if (!last) return;
  document.title = `${last.name} · ${t("vn_title")}`;
  if (!staff || !staff.isConnected) { staff = h("div", { id: "venue-staff" }); replace(main, staff); }
  const going = last.tables.filter((tb) => tb.code !== null).length;
  patch(staff, v("section", { class: "card vn-top" },
    v("h2", { text: last.name }),
    v("p", { class: "muted", id: "venue-summary", text: t("vn_summary", { n: last.tables.length, going }) }),
    v("div", { class: "row" }, v("a", { class: "btn primary", id: "venue-print", href: printLink(null), target: "_blank", text: t("vn_print") }))),
  v("div", { class: "vn-tables", id: "venue-tables" }, last.tables.map(tableCard)),
  wifiCard());
}

async function read() {
  try {
    last = await api(`/api/venues/${encodeURIComponent(venueId)}`, { token });
    if (last.server_ms) offsetMs = last.server_ms - Date.now();
    const kept = storage.get(`${VENUE_KEY}${venueId}`);
    if (kept && kept.name !== last.name) storage.set(`${VENUE_KEY}${venueId}`, { ...kept, name: last.name });
    draw();
  } catch (err) {
    if (!last) replace(main, h("section", { class: "card" }, h("p", { class: "error", id: "venue-error", text: errorText(err) }), h("a", { href: "/venue", class: "btn", text: t("vn_new") })));
    else toast(errorText(err));
  }
}
const refresh = throttledReads(read);

// The venue's socket: a frame whenever a table of the venue moves (and one when it opens);
// refused (not the staff's token, no such venue), it stops, and the read that follows says why.
const VENUE_FATAL = new Set(["auth/bad_token", "auth/missing_token", "venue/not_staff", "venue/unknown"]);
class VenueSocket extends LiveSocket {
  path() { return `/ws/venue/${encodeURIComponent(venueId)}`; }

  receive(msg) {
    if (msg.type === "error") {
      if (VENUE_FATAL.has(msg.error?.code)) this.fatal(msg.error.code);
      return;
    }
    this.backoff = 500;
    this.onStatus("online");
    refresh();
  }
}

let safetyNet = null;
function socketStatus(now) {
  document.body.dataset.venue = now;
  if (now === "online") { clearInterval(safetyNet); safetyNet = null; }
  else if (now === "offline" && !safetyNet) safetyNet = setInterval(refresh, SAFETY_POLL_MS);
}

if (location.pathname === "/venue/print") {
  // The tents to print: the venue's every table, or the one `#label=` names (a new tent).
  import("./venue-print.js").then((m) => m.printTents(venueId, token, params.get("label")));
} else if (!venueId) {
  window.addEventListener("languagechange-app", newVenueForm);
  newVenueForm();
} else if (!token) replace(main, h("section", { class: "card" }, h("p", { class: "error", id: "venue-error", text: errorText("venue/not_staff") }), h("a", { href: "/venue", class: "btn", text: t("vn_new") })));
else {
  window.addEventListener("languagechange-app", draw);
  refresh();
  new VenueSocket({ token, onStatus: socketStatus, fatalCloses: new Map([[4401, "auth/bad_token"], [4403, "venue/not_staff"], [4404, "venue/unknown"]]),
    onFatal: () => { clearInterval(safetyNet); safetyNet = null; refresh(); } }).connect();
  setInterval(draw, 1000); // the sand and the minutes between two reads
}
