// The offline shell: the page and every static file, under the URLs that name their versions.
// The server puts BUILD in front of this file (companion/web/assets.py): the version of the
// static files, which names the cache, and the files' URLs, so any changed file means a new
// worker and a new cache, with no name to bump by hand. Media and other catalogues fetched by a
// plain URL are cached the first time a page uses them.
// /api/ and /ws/ always go to the network and are never cached (they carry tokens and state).

/* global BUILD */
const CACHE = `companion-${BUILD.version}`;
const SHELL = BUILD.shell;

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
    event.respondWith(fetch(event.request).catch(async () => (await caches.match("/")) || Response.error()));
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
