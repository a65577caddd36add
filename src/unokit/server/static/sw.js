// The service worker of the unokit page (served at /sw.js, scope "/"). It keeps a copy of the
// page itself (its HTML, scripts, styles and icons) so that the page opens even when the server
// cannot be reached, and then says so instead of failing blank. Everything is fetched from the
// network first, so a new version of the page is used as soon as the server has it; the copy is
// only for when the network fails. The game itself (the API and the websocket) is never cached.
//
// Once the page has been opened it also keeps what offline play needs (OFFLINE: Pyodide, the
// engine, the worker and the catalogue; docs/offline.md), and answers the page's question
// whether all of it is kept ("unokit-offline-ready").
//
// It also shows the notifications the server sends when the page is closed (Web Push: the
// browser decrypts each message and hands it to the "push" event), and a tap on one opens the
// room it names at the player's seat, in the window already showing it if there is one.

const CACHE = "unokit-page-5";
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
  "/static/js/announce.js",
  "/static/js/app.js",
  "/static/js/arena.js",
  "/static/js/avatars.js",
  "/static/js/cards.js",
  "/static/js/chat.js",
  "/static/js/daily.js",
  "/static/js/dialogs.js",
  "/static/js/dom.js",
  "/static/js/features.js",
  "/static/js/help.js",
  "/static/js/readout.js",
  "/static/js/shortcuts.js",
  "/static/js/textmode.js",
  "/static/js/typed.js",
  "/static/js/i18n.js",
  "/static/js/lastmove.js",
  "/static/js/lobby.js",
  "/static/js/motion.js",
  "/static/js/net.js",
  "/static/js/options.js",
  "/static/js/page.js",
  "/static/js/prompt.js",
  "/static/js/push.js",
  "/static/js/ratings.js",
  "/static/js/replay.js",
  "/static/js/review.js",
  "/static/js/room.js",
  "/static/js/seats.js",
  "/static/js/settings.js",
  "/static/js/standings.js",
  "/static/js/sound.js",
  "/static/js/table.js",
  "/static/js/together.js",
  "/static/js/tools.js",
  "/static/js/offline.js",
  "/static/js/offline-store.js",
  "/static/js/offline-worker.js",
];
// What offline play needs beyond the page and its scripts (the worker's Pyodide and engine; the
// lobby and the table need the catalogue): kept at install when the server serves them, and
// again whenever fetched.
const OFFLINE = [
  "/api/catalog",
  "/offline/unokit.zip",
  "/offline/pyodide/pyodide.mjs",
  "/offline/pyodide/pyodide.asm.mjs",
  "/offline/pyodide/pyodide.asm.wasm",
  "/offline/pyodide/python_stdlib.zip",
  "/offline/pyodide/pyodide-lock.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL).then(() => cache.addAll(OFFLINE).catch(() => undefined)))
    .then(() => self.skipWaiting()));
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
  const kept = OFFLINE.includes(url.pathname);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname === "/ws") return;
  if (url.pathname.startsWith("/api/") && !kept) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && (request.mode === "navigate" || url.pathname.startsWith("/static/") || SHELL.includes(url.pathname) || kept)) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request.mode === "navigate" ? "/" : request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request.mode === "navigate" ? "/" : request).then((cached) => cached || Response.error())),
  );
});

/** Whether every file of OFFLINE is kept: the page asks, through the port it sends. */
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "unokit-offline-ready" || !event.ports[0]) return;
  const port = event.ports[0];
  caches.open(CACHE)
    .then((cache) => Promise.all(OFFLINE.map((path) => cache.match(path))))
    .then((found) => port.postMessage({ ready: found.every(Boolean) }), () => port.postMessage({ ready: false }));
});

/** The page a notification may open: a room of this site ("/r/CODE") or a deal of the day's
 * page ("/#/daily/DEAL"), else none. */
function roomPath(url) {
  if (typeof url !== "string") return null;
  return /^\/r\/[A-Za-z0-9]{1,16}$/.test(url) || /^\/#\/daily\/[A-Za-z0-9_=.-]{1,40}$/.test(url) ? url : null;
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = {};
  }
  const path = roomPath(data.url);
  const title = typeof data.title === "string" && data.title ? data.title.slice(0, 200) : "unokit";
  const options = {
    body: typeof data.body === "string" ? data.body.slice(0, 500) : "",
    tag: path && path.startsWith("/r/") ? `unokit-${path.slice(3)}` : data.kind === "daily" ? "unokit-daily" : "unokit",
    renotify: true,
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url: path, room: path && path.startsWith("/r/") ? path.slice(3) : null,
      kind: typeof data.kind === "string" ? data.kind : null },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

async function focusing(client) {
  try {
    return await client.focus();
  } catch (err) {
    return client; // focusing needs the player's tap (a script's click has none)
  }
}

/** Open the room a notification names, at the player's seat (the page's saved token takes it):
 * the window showing the room is brought forward and told to take the seat back now; else a
 * window of this site is sent there; else a new one opens. */
async function openRoom(data) {
  const path = roomPath(data && data.url);
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  if (!path) {
    const any = windows.find((w) => "focus" in w);
    return any ? focusing(any) : self.clients.openWindow("/");
  }
  const here = windows.find((w) => new URL(w.url).pathname === path);
  if (here) {
    here.postMessage({ type: "unokit-back", room: data.room });
    return focusing(here);
  }
  for (const client of windows) {
    try {
      const moved = await client.navigate(path); // a window this worker controls
      if (moved) return focusing(moved);
    } catch (err) {
      /* not ours to move: try the next, or open one */
    }
  }
  return self.clients.openWindow(path);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opening = openRoom(event.notification.data);
  event.waitUntil(opening);
});
