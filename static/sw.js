// The offline shell: the pages, styles, scripts, the English catalogue and icons, cached under a
// versioned name. Other catalogues (static/i18n/*.json: one file per language, so a new one
// needs no entry here) and media are cached the first time a page uses them.
// /api/ and /ws/ always go to the network and are never cached (they carry tokens and state).

const CACHE = "companion-shell-v6";
const SHELL = [
  "/", "/static/app.html", "/static/css/app.css", "/static/css/record.css", "/manifest.webmanifest", "/static/js/main.js",
  "/static/js/api.js", "/static/js/clock.js", "/static/js/common.js", "/static/js/dom.js",
  "/static/js/card-entry.js", "/static/js/hourglass.js", "/static/js/i18n.js", "/static/js/phone.js", "/static/js/socket.js",
  "/static/js/table-screen.js", "/static/js/games/index.js", "/static/js/games/rankfile.js",
  "/static/js/games/blank.js", "/static/js/games/blanko.js", "/static/js/games/bldng.js",
  "/static/js/identity.js", "/static/js/palette.js", "/static/js/record.js", "/static/js/stats.js",
  "/static/i18n/en.json",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/icons/icon-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname === "/healthz") return;
  // Pages: network first so a new release shows at once, the cached shell when offline.
  if (event.request.mode === "navigate") {
    event.respondWith(fetch(event.request).catch(async () => (await caches.match("/static/app.html")) || Response.error()));
    return;
  }
  event.respondWith((async () => {
    const hit = await caches.match(event.request);
    if (hit) return hit;
    const response = await fetch(event.request);
    if (response.ok && url.pathname.startsWith("/static/")) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(event.request, copy));
    }
    return response;
  })());
});
