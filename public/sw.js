// Space Baduk service worker: keeps the app shell so a reload without the server shows the
// app's own offline page instead of the browser's error. Game state is never cached — it
// lives on the server, which is the authority.
// Browsers have service workers only in secure contexts (HTTPS, or this machine): a page
// served over plain HTTP on a LAN registers none (`ServiceWorkerRegistration` in
// app/src/pages/mod.rs) and works without it, though it cannot be installed.
const CACHE = "space-baduk-shell-v1";
const SHELL = [
  "/offline.html",
  "/manifest.webmanifest",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/icon-maskable-512.png",
  "/pkg/space-baduk.css",
  "/pkg/space-baduk.js",
  "/pkg/space-baduk.wasm",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      // One missing file (e.g. a differently named wasm in a dev build) must not break install.
      .then((cache) => Promise.all(SHELL.map((url) => cache.add(url).catch(() => undefined))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  // Server functions, the API and health checks are live data: never answered from cache.
  if (url.pathname.startsWith("/api/") || url.pathname === "/healthz") return;

  if (req.mode === "navigate") {
    // Pages: always from the network (they carry live state); offline page when unreachable.
    event.respondWith(fetch(req).catch(() => caches.match("/offline.html")));
    return;
  }
  if (url.pathname.startsWith("/pkg/") || url.pathname.startsWith("/icons/") ||
      url.pathname === "/manifest.webmanifest") {
    // Static assets: network first so a new build is picked up, cache as the fallback.
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) {
            const copy = res.clone();
            caches.open(CACHE).then((cache) => cache.put(req, copy));
          }
          return res;
        })
        .catch(() => caches.match(req).then((hit) => hit || Response.error()))
    );
  }
});
