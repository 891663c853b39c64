// JSON over HTTP with the table's error shape turned into exceptions the pages can show.

export class ApiError extends Error {
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params; // figures for the catalogue's words of `code`
  }
}

// A random id for this browser, sent with every call: the server counts wrong table codes per
// device, so someone guessing codes on the same Wi-Fi does not lock this phone out.
function device() {
  let id = storage.get("tc.device");
  if (typeof id !== "string") { id = newCid() + newCid(); storage.set("tc.device", id); }
  return id;
}

// `headers`: more of them (the join page's join secret); `text`: the answer is not JSON (an SVG).
export async function api(path, { method = "GET", body, token, headers: more = {}, text = false } = {}) {
  const headers = { Accept: text ? "*/*" : "application/json", "X-Companion-Device": device(), ...more };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "net/offline", "no connection to the table's server");
  }
  if (text && response.ok) return response.text();
  // An answer whose body cannot be read (the connection broke half-way, or the page is going
  // away) is no answer: read as {}, a join screen failed on `info.players is undefined`.
  const data = await response.json().catch(() => undefined);
  if (response.ok && data === undefined) throw new ApiError(0, "net/offline", "the answer did not arrive whole");
  if (!response.ok) {
    const err = data?.error || {};
    throw new ApiError(response.status, err.code || "http/error", err.message || response.statusText, err.params);
  }
  return data;
}

export const storage = {
  get(key) {
    try { return JSON.parse(localStorage.getItem(key)); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: session only */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* ignore */ }
  },
  // The keys kept under any of `prefixes` (none in private mode).
  keys(...prefixes) {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i += 1) {
        const key = localStorage.key(i);
        if (key && prefixes.some((p) => key.startsWith(p))) out.push(key);
      }
    } catch { return []; }
    return out;
  },
};

export function newCid() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
