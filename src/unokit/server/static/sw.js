// The service worker of the unokit page (served at /sw.js, scope "/"). It keeps a copy of the
// page itself (its HTML, scripts, styles and icons) so that the page opens even when the server
// cannot be reached, and then says so instead of failing blank. Everything is fetched from the
// network first, so a new version of the page is used as soon as the server has it; the copy is
// only for when the network fails. The game itself (the API and the websocket) is never cached.

const CACHE = "unokit-page-3";
// What the page needs to open and say that the server cannot be reached, fetched when the
// service worker is installed (a test checks that every script and style is here). Anything
// else of the page (the reader's language, icons) is kept the first time the page loads it.
const SHELL = [
  "/",
  "/manifest.webmanifest",
  "/static/css/together.css",
  "/static/css/unokit.css",
  "/static/i18n/en.json",
  "/static/icons/icon.svg",
  "/static/js/alerts.js",
  "/static/js/app.js",
  "/static/js/avatars.js",
  "/static/js/cards.js",
  "/static/js/chat.js",
  "/static/js/daily.js",
  "/static/js/dialogs.js",
  "/static/js/dom.js",
  "/static/js/help.js",
  "/static/js/i18n.js",
  "/static/js/lastmove.js",
  "/static/js/lobby.js",
  "/static/js/motion.js",
  "/static/js/net.js",
  "/static/js/options.js",
  "/static/js/page.js",
  "/static/js/prompt.js",
  "/static/js/ratings.js",
  "/static/js/replay.js",
  "/static/js/room.js",
  "/static/js/seats.js",
  "/static/js/settings.js",
  "/static/js/standings.js",
  "/static/js/sound.js",
  "/static/js/table.js",
  "/static/js/together.js",
  "/static/js/tools.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/") || url.pathname === "/ws") return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && (request.mode === "navigate" || url.pathname.startsWith("/static/") || SHELL.includes(url.pathname))) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request.mode === "navigate" ? "/" : request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request.mode === "navigate" ? "/" : request).then((cached) => cached || Response.error())),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => "focus" in w);
      return open ? open.focus() : self.clients.openWindow("/");
    }),
  );
});
