// The player identity this browser keeps: a random key that never leaves this phone except
// when joining a table (the server keeps only a hash of it), and the name the player goes by.
// The player may rename it or forget it; a forgotten key's games stay on the server, but no
// phone can find them again by it.

import { api, newCid, storage } from "./api.js";

const KEY = "tc.me";

function randomKey() {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function identity() {
  const me = storage.get(KEY);
  return me && typeof me.key === "string" ? me : null;
}

// The identity to join with, made on first use.
export function ensureIdentity(name) {
  const me = identity() || { key: randomKey(), name: "", byName: false };
  if (name && !me.name) me.name = name;
  storage.set(KEY, me);
  return me;
}

export function rename(name) {
  const me = ensureIdentity();
  me.name = name.trim().slice(0, 24);
  storage.set(KEY, me);
  return me;
}

export function setByName(on) {
  const me = ensureIdentity();
  me.byName = Boolean(on);
  storage.set(KEY, me);
}

export function forgetIdentity() {
  storage.remove(KEY);
}

// Every table token this browser holds: its seats' and, on a table screen, its hosts'.
export function heldTokens() {
  return storage.keys("tc.player.", "tc.host.").map((k) => storage.get(k)?.token).filter((token) => typeof token === "string");
}

// A seat at table `code` for a name typed: the join carries the browser's identity (so the seat
// counts in the player's stats) and what lets this phone in (`credentials`: the QR code's join
// secret, a tent's secret). A join sent again (its answer lost: a timeout, the Wi-Fi) carries
// the same cid, and the server gives back the seat the first one made; another name is another
// join.
export function joiner(code) {
  let attempt = { name: null, cid: null };
  return (name, credentials = {}) => {
    const me = ensureIdentity(name);
    if (attempt.name !== name) attempt = { name, cid: newCid() + newCid() };
    return api(`/api/tables/${encodeURIComponent(code)}/players`, { method: "POST", body: { name, identity: me.key, cid: attempt.cid, ...credentials } });
  };
}
