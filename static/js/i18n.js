// The words on screen. Every language is one catalogue file, static/i18n/<code>.json, keyed by
// the page's own keys ("ui") and by the stable codes the server sends: error codes ("error"),
// event types ("event"), word-check reasons ("reason"), game results ("result") and turn steps
// ("step"). The server never words a message for a phone; a third language is one more file,
// which the server finds and lists at /api/languages.
//
// A value is a string, or, where the words change with a number, its plural forms: an object
// keyed by the language's plural categories (Intl.PluralRules: "one", "few", "other"...; at
// least "other"), picked by the figure in params.n, or in the param the entry's "count" names:
// {"count": "held", "one": "Your rack holds 1 letter", "other": "Your rack holds {held} letters"}.
//
// Switching language fetches the other catalogue once and tells every screen to re-render
// ("languagechange-app"), so everything is re-worded at once, without a reload.

import { assetUrl, pageMeta } from "./assets.js";

const FALLBACK = "en";
const catalogues = new Map();
let strings = {};
let english = {};
let lang = FALLBACK;
// The languages on offer, as the page names them (companion/web/assets.py); English alone if
// a page from before it did lacks the list.
const available = pageMeta("languages", [{ code: FALLBACK, name: "English" }]);

function flatten(doc) {
  const out = {};
  for (const [section, entries] of Object.entries(doc)) {
    if (!entries || typeof entries !== "object") continue;
    for (const [key, text] of Object.entries(entries)) out[section === "ui" ? key : `${section}.${key}`] = text;
  }
  return out;
}

async function catalogue(code) {
  if (!catalogues.has(code)) {
    catalogues.set(code, fetch(assetUrl(`/static/i18n/${code}.json`)).then((r) => {
      if (!r.ok) throw new Error(`no catalogue for ${code}`);
      return r.json();
    }).then(flatten).catch((err) => { catalogues.delete(code); throw err; }));
  }
  return catalogues.get(code);
}

function saved() {
  try { return localStorage.getItem("tc.lang"); } catch { return null; }
}

function wanted() {
  const prefs = [saved(), ...(navigator.languages || [navigator.language])].filter(Boolean);
  return prefs.map((p) => p.toLowerCase().split("-")[0]);
}

// Load the catalogue this device wants (saved choice, then the browser's languages) before the
// first screen is drawn; English stands behind it for any key a catalogue lacks, and both are
// fetched at once (the page has preloaded both as the browser's languages ask).
export async function startLanguage() {
  const prefs = wanted().filter((code) => available.some((l) => l.code === code));
  if (prefs[0] && prefs[0] !== FALLBACK) catalogue(prefs[0]).catch(() => {});
  english = await catalogue(FALLBACK);
  for (const code of prefs) {
    try {
      strings = await catalogue(code);
      lang = code;
      break;
    } catch { /* not translated: try the next preference */ }
  }
  if (lang === FALLBACK) strings = english;
  document.documentElement.lang = lang;
}

export function has(key) {
  return key in strings || key in english;
}

const pluralRules = new Map();

// The plural form of `value` (a catalogue entry in language `code`) that `params` calls for;
// a string is its own only form.
export function pluralForm(value, params, code) {
  if (typeof value === "string") return value;
  if (!pluralRules.has(code)) pluralRules.set(code, new Intl.PluralRules(code));
  const n = Number(params[value.count || "n"]);
  return value[pluralRules.get(code).select(Number.isFinite(n) ? n : 0)] ?? value.other;
}

// `text` with {placeholders} filled from `params` (null fills in as nothing; a placeholder
// with no param at all stays, so a forgotten one shows rather than hides).
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (!(name in params) ? whole : params[name] === null || params[name] === undefined ? "" : String(params[name])));
}

// The words for `key` in the current language (English for a key it lacks), in the plural form
// the params call for, filled in.
export function t(key, params = {}) {
  if (key in strings) return fill(pluralForm(strings[key], params, lang), params);
  return key in english ? fill(pluralForm(english[key], params, FALLBACK), params) : key;
}

// What to tell a person about a refused command or a failed request, from its stable code and
// the figures (params) the server sent with it.
export function errorText(errOrCode) {
  const code = typeof errOrCode === "string" ? errOrCode : errOrCode?.code;
  const params = (typeof errOrCode === "object" && errOrCode?.params) || {};
  // a missing or wrong field the server names ({field}) has words of its own where the catalogue has them
  const named = params.field ? `error.${code}.${params.field}` : null;
  if (named && has(named)) return t(named, params);
  return code && has(`error.${code}`) ? t(`error.${code}`, params) : t("error.unknown", { code: code || "?" });
}

export function currentLanguage() {
  return lang;
}

export function languages() {
  return available;
}

export async function setLanguage(code) {
  strings = code === FALLBACK ? english : await catalogue(code);
  lang = code;
  try { localStorage.setItem("tc.lang", lang); } catch { /* private mode: this visit only */ }
  document.documentElement.lang = lang;
  window.dispatchEvent(new Event("languagechange-app"));
}

// The language after the current one, in the server's list: what the language button offers.
export function nextLanguage() {
  const i = available.findIndex((l) => l.code === lang);
  return available[(i + 1) % available.length] || available[0];
}
