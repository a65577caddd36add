// The service worker of the unokit page (served at /sw.js, scope "/"). It keeps a copy of the
// page itself (its HTML, scripts, styles and icons) so that the page opens even when the server
// cannot be reached, and then says so instead of failing blank. Everything is fetched from the
// network first, so a new version of the page is used as soon as the server has it; the copy is
// only for when the network fails. The game itself (the API and the websocket) is never cached.

const CACHE = "unokit-page-1";
// Every file of the page (a test checks this list against the files in static/).
const SHELL = [
  "/",
  "/manifest.webmanifest",
  "/static/css/together.css",
  "/static/css/unokit.css",
  "/static/i18n/en-XA.json",
  "/static/i18n/en.json",
  "/static/i18n/ru.json",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/static/icons/icon-maskable.svg",
  "/static/icons/icon-maskable-512.png",
  "/static/js/alerts.js",
  "/static/js/app.js",
  "/static/js/avatars.js",
  "/static/js/cards.js",
  "/static/js/chat.js",
  "/static/js/dialogs.js",
  "/static/js/dom.js",
  "/static/js/help.js",
  "/static/js/i18n.js",
  "/static/js/lobby.js",
  "/static/js/motion.js",
  "/static/js/net.js",
  "/static/js/options.js",
  "/static/js/page.js",
  "/static/js/prompt.js",
  "/static/js/room.js",
  "/static/js/settings.js",
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
        if (response.ok && (request.mode === "navigate" || SHELL.includes(url.pathname))) {
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
