// Offline play (docs/offline.md): a game against bots on this device, with no server. The
// engine and the bots run in a Web Worker (offline-worker.js: Pyodide and server/local.py),
// which speaks the server's messages; the room page and the table are the online ones, given a
// WorkerSocket in place of the websocket (net.js, RoomConnection's openSocket).
// Pages: "/#/offline/VARIANT/PLAYERS[?bot=LEVEL&rounds=N&...]" starts a game at once (the query
// names the bots' level, rule options and room settings); "/#/offline/g/CODE" goes on with a
// kept one (the address the first becomes, so that a reload continues the game).

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, memory } from "./net.js";
import { keptGames } from "./offline-store.js";
import { playerRange } from "./options.js";
import { roomPage } from "./room.js";

const WORKER = "/static/js/offline-worker.js";
/** The room settings a link may set (server/room.py, Settings), the rest being rule options. */
/** A WebSocket's face on the worker's room: what RoomConnection reads and calls. */
export class WorkerSocket {
  /** @param {Worker} worker */
  constructor(worker) {
    this.worker = worker;
    /** @type {number} */
    this.readyState = WebSocket.CONNECTING;
    /** @type {((event?: Event) => void) | null} */
    this.onopen = null;
    /** @type {((event: {data: string}) => void) | null} */
    this.onmessage = null;
    /** @type {((event: {code: number}) => void) | null} */
    this.onclose = null;
    /** @param {MessageEvent} event */
    this.listener = (event) => {
      if (event.data.type === "message" && this.readyState === WebSocket.OPEN && this.onmessage) this.onmessage({ data: event.data.text });
    };
    worker.addEventListener("message", this.listener);
    setTimeout(() => {
      this.readyState = WebSocket.OPEN;
      if (this.onopen) this.onopen();
    }, 0);
  }

  /** @param {string} text */
  send(text) {
    this.worker.postMessage({ type: "send", text });
  }

  close() {
    this.readyState = WebSocket.CLOSED;
    this.worker.removeEventListener("message", this.listener);
  }
}

/**
 * Ask the service worker whether every file offline play needs is kept (sw.js, OFFLINE), and say
 * so on the page: <html data-offline-ready="yes"> (else "no").
 * @returns {Promise<boolean>}
 */
export async function checkOfflineReady() {
  let ready = false;
  if ("serviceWorker" in navigator) {
    try {
      const registration = await navigator.serviceWorker.ready;
      const worker = registration.active;
      if (worker) {
        ready = await new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (event) => resolve(Boolean(event.data && event.data.ready));
          worker.postMessage({ type: "unokit-offline-ready" }, [channel.port2]);
          setTimeout(() => resolve(false), 10000);
        });
      }
    } catch (err) {
      ready = false;
    }
  }
  document.documentElement.dataset.offlineReady = ready ? "yes" : "no";
  return ready;
}

/** The settings' line about offline play. */
export function offlineLine() {
  const line = h("p.hint.offline-line", { role: "status" });
  const say = () => {
    line.textContent = document.documentElement.dataset.offlineReady === "yes" ? t("play_offline.ready") : t("play_offline.not_ready");
  };
  say();
  checkOfflineReady().then(say);
  return line;
}

/**
 * The lobby's offer of a game on this device: a variant, the players and the bots' level.
 * @param {import("./types").Catalog} catalog
 */
export function offlineOffer(catalog) {
  const variant = h("select#offline-variant", {},
    Object.keys(catalog.variants).map((name) => h("option", { value: name }, t(`variant.${name}`))));
  const { fewest, most } = playerRange(catalog);
  const players = h("input#offline-players",
    { type: "number", min: String(fewest), max: String(most), value: String(fewest) });
  const level = h("select#offline-level", {}, (catalog.levels || ["normal"])
    .map((name) => h("option", { value: name, selected: name === "normal" || undefined }, t(`bot.${name}`))));
  const form = h("form.panel.play-offline#play-offline", { "aria-labelledby": "play-offline-title" },
    h("h2#play-offline-title", {}, t("play_offline.title")),
    h("p", {}, t("play_offline.intro")),
    h("div.field", {}, h("label", { for: "offline-variant" }, t("lobby.variant")), variant),
    h("div.field", {}, h("label", { for: "offline-players" }, t("lobby.players")), players),
    h("div.field", {}, h("label", { for: "offline-level" }, t("play_offline.level")), level),
    h("button.primary.big#offline-start", { type: "submit" }, t("play_offline.start")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.assign(`/#/offline/${variant.value}/${players.value}?bot=${level.value}`);
  });
  return form;
}

/**
 * A worker started as the page opened on an offline address (startEarly), for the offline page
 * to take instead of starting its own: Pyodide's start, the longest part of opening an offline
 * game, then runs while the page loads its catalogue and language.
 * @type {Promise<Worker> | null}
 */
let early = null;

/** Start the offline worker now when the page's address is an offline game's. */
export function startEarly() {
  if (!early && location.hash.replace(/^#\/?/, "").startsWith("offline/")) {
    early = startWorker();
    early.catch(() => {}); // its refusal is told when the page takes it
  }
}

/**
 * The early worker if there is one (each is taken once), else a new one.
 * @returns {Promise<Worker>}
 */
function takeWorker() {
  const worker = early || startWorker();
  early = null;
  return worker;
}

/**
 * The worker, started and ready, or the reason it could not start.
 * @returns {Promise<Worker>}
 */
function startWorker() {
  const worker = new Worker(WORKER, { type: "module" });
  return new Promise((resolve, reject) => {
    worker.addEventListener("message", function first(event) {
      if (event.data.type === "ready") resolve(worker);
      else if (event.data.type === "failed") reject(new Error(event.data.message));
      else return;
      worker.removeEventListener("message", first);
    });
    worker.addEventListener("error", (event) => reject(new Error(event.message)));
  });
}

/**
 * Ask the worker to create or open a room; its code, or the refusal's code.
 * @param {Worker} worker
 * @param {{type: "create", request: unknown} | {type: "open", code: string}} message (offline-worker.js)
 * @returns {Promise<{code?: string, refused?: string}>}
 */
function openRoom(worker, message) {
  return new Promise((resolve) => {
    worker.addEventListener("message", function answer(event) {
      if (event.data.type === "opened") resolve({ code: event.data.code });
      else if (event.data.type === "refused") resolve({ refused: event.data.code });
      else if (event.data.type === "failed") resolve({ refused: "offline" });
      else return;
      worker.removeEventListener("message", answer);
    });
    worker.postMessage(message);
  });
}

/**
 * A link's request: the variant, the players, the bots' level, options and settings (a room
 * setting by its name in the catalogue's `settings`, any other parameter an option).
 * @param {string} path
 * @param {string} lang
 * @param {Record<string, unknown>} settings the catalogue's room settings, by name
 */
function requestOf(path, lang, settings) {
  const [where, query = ""] = path.split("?");
  const [, variant, players] = where.split("/");
  /** @type {{variant: string, players: number, lang: string, bot?: string,
   *   options: Record<string, unknown>, settings: Record<string, unknown>}} */
  const request = { variant, players: Number(players), lang, options: {}, settings: {} };
  for (const [key, value] of new URLSearchParams(query)) {
    const number = Number(value);
    const read = value === "true" ? true : value === "false" ? false : value !== "" && !Number.isNaN(number) ? number : value;
    if (key === "bot") request.bot = value;
    else if (key in settings) request.settings[key] = read;
    else request.options[key] = read;
  }
  return request;
}

/**
 * The offline game's page: a new game of the link, or the kept game "g/CODE".
 * @param {HTMLElement} app
 * @param {import("./types").Catalog} catalog
 * @param {string} path the address after "#/offline/"... e.g. "offline/classic/2"
 */
export function offlinePage(app, catalog, path) {
  const box = h("div.offline-game");
  app.append(box);
  box.append(h("p.loading", { role: "status" }, t("play_offline.loading")));
  /** @type {(() => void) | null} */
  let stop = null;
  /** @type {Worker | null} */
  let worker = null;
  let gone = false;
  (async () => {
    try {
      worker = await takeWorker();
    } catch (err) {
      if (!gone) clear(box).append(h("p.error", { role: "alert" }, t("play_offline.failed")));
      return;
    }
    if (gone) return;
    const kept = path.startsWith("offline/g/");
    const lang = document.documentElement.lang.split("-")[0] || "en";
    /** @type {Parameters<typeof openRoom>[1]} */
    const message = kept ? { type: "open", code: path.split("/")[2] }
      : { type: "create", request: requestOf(path, lang, catalog.settings) };
    const answer = await openRoom(worker, message);
    if (gone) return;
    if (!answer.code) {
      clear(box).append(h("p.error", { role: "alert" }, errorText({ code: answer.refused })),
        h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
      return;
    }
    const code = answer.code;
    if (!kept) {
      history.replaceState(null, "", `/#/offline/g/${code}`);
      sessionStorage.setItem(`unokit.join.${code}`, memory.name() || t("play_offline.you"));
    }
    clear(box);
    const socketWorker = worker;
    // The worker's socket speaks as a WebSocket to the room's connection (the part of one it uses).
    stop = roomPage(box, code, catalog, () => /** @type {WebSocket} */ (/** @type {unknown} */ (new WorkerSocket(socketWorker))));
  })();
  return () => {
    gone = true;
    if (stop) stop();
    if (worker) worker.terminate();
  };
}

/** My games' list of the games played on this device, each with its record to download. */
export async function offlineGamesPanel() {
  /** @type {Awaited<ReturnType<typeof keptGames>>} */
  let games = [];
  try {
    games = await keptGames();
  } catch (err) {
    games = [];
  }
  const list = h("ul.offline-games");
  for (const { code, kept } of games) {
    const names = (kept.names || []).join(", ");
    const item = h("li.offline-game-line", { dataset: { code } }, h("span", {}, `${t(`variant.${kept.variant}`)} · ${names}`), " ");
    if (kept.phase !== "finished") item.append(h("a.continue", { href: `/#/offline/g/${code}` }, t("play_offline.continue")), " ");
    if (kept.record) {
      const url = URL.createObjectURL(new Blob([kept.record], { type: "application/json" }));
      item.append(h("a.download", { href: url, download: `unokit-${code}-${kept.game_no}.json` }, t("play_offline.download")));
    }
    list.append(item);
  }
  return h("section.panel.offline-games-panel", { "aria-labelledby": "offline-games-title" },
    h("h2#offline-games-title", {}, t("play_offline.games")),
    games.length ? list : h("p.hint", {}, t("play_offline.none")));
}
