// The browser client of unokit serve: the lobby (start or join a game), a room (the invite page,
// the waiting room, the table), the pages for real cards (score sheet, launcher), replays and
// "My games". Pages: "/" the lobby, "/r/CODE" a room, "/#/sheet", "/#/launcher",
// "/#/replay/CODE/N[/SEAT]", "/#/replay" (a replay file), "/#/review/CODE/N[/SEAT]", "/#/games", "/#/daily/DEAL[/DAY]" (a deal
// of the day's board), "/#/standings/CODE" (a room's standings), "/#/leaderboard/VARIANT/SIZE"
// (ratings), "/#/ladder/VARIANT/SIZE" (the bot ladder's standings), "/#/arena/ID" (an arena), "/#/offline/VARIANT/PLAYERS" and
// "/#/offline/g/CODE" (a game against bots on this device: offline.js). When the server cannot be reached the page says so and
// tries again; the service worker (/sw.js) keeps the page itself available for that moment.

import { catalog as currentCatalog, useCatalog } from "./cards.js";
import { clear, h } from "./dom.js";
import { languageSwitcher, loadLanguage, pickLanguage, t, translateStatic } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { api, errorText } from "./net.js";
import { pageTools, setStatus } from "./page.js";
import { syncPush } from "./push.js";
import { roomPage } from "./room.js";
import { soundControl, toggleMute } from "./settings.js";
import { tableCommand } from "./shortcuts.js";
import { myGamesPage } from "./together.js";
import { dailyPage } from "./daily.js";
import { arenaPage } from "./arena.js";
import { standingsPage } from "./standings.js";
import { runs, loadFeatures } from "./features.js";
import { leaderboardPage, ratingsPanel } from "./ratings.js";
import { fileReplayPage, replayPage } from "./replay.js";
import { launcherPage, sheetPage } from "./tools.js";
import { checkOfflineReady, offlineGamesPanel, offlineOffer, offlinePage, startEarly } from "./offline.js";

const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {(() => void) | null} the page's clean-up function */
let current = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retry;
let languageReady = false;
/** @type {Promise<void> | null} the page's one set-up */
let settingUp = null; // the page's one set-up (setUpPage), once the catalogue came
let routing = 0; // how many times route() was called: only the newest draws a page

/** The test pseudo-language: chosen with ?lang=en-XA, never offered. */
const PSEUDO = "en-XA";

/**
 * The page while the server cannot be reached (it tries again by itself).
 * @param {any} err what the catalogue's fetch threw: any, as errorText reads any error
 */
function offline(err) {
  clearTimeout(retry);
  const box = h("section.panel.offline", { role: "alert", "data-region": "offline" },
    h("h1", {}, t("offline.title")),
    h("p", {}, t("offline.message")),
    err && err.code !== "offline" ? h("p.hint", {}, errorText(err)) : null,
    h("p.hint", {}, t("offline.retrying")),
    h("button.primary", { type: "button", onclick: route }, t("offline.retry")));
  clear(app).append(box);
  setStatus(t("offline.status"), "lost");
  retry = setTimeout(route, 5000);
}

/**
 * Whether the server does not answer (the service worker never answers /api/live for it):
 * `navigator.onLine` says only that the device has a network, which it may well have while the
 * server is down or out of reach.
 * @returns {Promise<boolean>}
 */
async function serverGone() {
  try {
    await fetch("/api/live", { cache: "no-store" });
    return false;
  } catch (err) {
    return true;
  }
}

/** The page's language, language menu and sound control, set up once (a change of language
 * reloads the page).
 * @param {import("./types").Catalog} catalog
 */
async function setUpPage(catalog) {
  await Promise.all([loadLanguage(pickLanguage(catalog.languages, [PSEUDO], catalog.language_tags)), loadFeatures()]);
  languageReady = true;
  translateStatic();
  clear(/** @type {HTMLElement} */ (document.getElementById("language-box"))).append(languageSwitcher(catalog.languages));
  /** @type {HTMLElement} */ (document.getElementById("sound-slot")).append(soundControl());
}

async function route() {
  const mine = ++routing; // a newer route() (a link followed meanwhile) takes over from this one
  clearTimeout(retry);
  if (current) current();
  current = null;
  if (settingUp) clear(app); // the first time, the page's "Opening the card table…" stays until it is drawn
  setStatus("");
  pageTools([]);
  /** @type {import("./types").Catalog} */
  let catalog;
  try {
    catalog = await api("/api/catalog");
  } catch (err) {
    if (mine !== routing) return;
    if (!languageReady) {
      try {
        await loadLanguage(pickLanguage({ en: "English" }, [PSEUDO]));
      } catch (ignored) {
        /* no catalogue either: the service worker's copy failed too */
      }
    }
    offline(err);
    return;
  }
  if (!settingUp) settingUp = setUpPage(catalog);
  await settingUp;
  if (mine !== routing) return;
  clear(app);
  useCatalog(catalog);
  const hash = location.hash.replace(/^#\/?/, "");
  const roomMatch = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  if (hash.startsWith("offline/")) current = offlinePage(app, catalog, hash);
  else if (hash.startsWith("sheet")) current = sheetPage(app, catalog);
  else if (hash.startsWith("launcher")) current = launcherPage(app, catalog);
  else if (hash.startsWith("games")) {
    current = myGamesPage(app, catalog);
    if (runs("ratings")) app.append(ratingsPanel());
    offlineGamesPanel().then((panel) => { if (mine === routing) app.append(panel); });
  } else if (hash.startsWith("leaderboard") || hash.startsWith("ladder")) {
    const [kind, variant, players] = hash.split("/");
    current = leaderboardPage(app, catalog, variant, players, kind === "ladder");
  }
  else if (hash.startsWith("standings/")) current = standingsPage(app, hash.split("/")[1].toUpperCase().replace(/[^A-Z0-9]/g, ""));
  else if (hash.startsWith("arena/")) current = arenaPage(app, hash.split("/")[1].toLowerCase().replace(/[^a-z0-9]/g, ""));
  else if (hash.startsWith("daily/")) {
    const [, deal, day] = hash.split("/");
    current = dailyPage(app, decodeURIComponent(deal), day);
  }
  else if (hash === "replay") current = fileReplayPage(app, catalog);
  else if (hash.startsWith("replay/")) {
    const [, code, number, seat] = hash.split("/");
    current = replayPage(app, catalog, code.toUpperCase(), Number(number), seat === undefined ? 0 : Number(seat));
  } else if (hash.startsWith("review/")) {
    const [, code, number, seat] = hash.split("/");
    current = replayPage(app, catalog, code.toUpperCase(), Number(number), seat === undefined ? 0 : Number(seat), true);
  } else if (roomMatch) current = roomPage(app, roomMatch[1].toUpperCase(), catalog);
  else {
    // On a static site (no server), or when the server cannot be reached (the catalogue then
    // came from the service worker), the lobby offers a game on this device.
    if (catalog.static_site || !navigator.onLine) app.append(offlineOffer(catalog));
    else {
      serverGone().then((gone) => {
        if (mine !== routing) return;
        document.documentElement.dataset.server = gone ? "gone" : "answers"; // what the lobby found
        if (gone) app.prepend(offlineOffer(catalog));
      });
    }
    if (!catalog.static_site) current = lobbyPage(app, catalog);
  }
  document.querySelectorAll("nav a").forEach((a) => a.removeAttribute("aria-current"));
  const here = document.querySelector(`nav a[href="/${location.hash || ""}"]`);
  if (here) here.setAttribute("aria-current", "page");
}

// The page's own keys of the key map (sound, help): like the table's, only while the focus is
// inside the table and the reader has not turned the single-character keys off (shortcuts.js).
document.addEventListener("keydown", (event) => {
  if (!currentCatalog()) return;
  const found = tableCommand(event, currentCatalog().keys);
  if (!found) return;
  if (found.command === "mute") toggleMute();
  else if (found.command === "help") document.querySelector(/** @type {"button"} */ (".tool[data-command='help']"))?.click();
});
startEarly(); // an offline game's worker starts while the page sets itself up
window.addEventListener("hashchange", route);
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").then(() => syncPush()).catch(() => {});
  checkOfflineReady(); // says on the page when offline play is ready (data-offline-ready)
}
route();
