// The browser client of unokit serve: the lobby (start or join a game), a room (the invite page,
// the waiting room, the table) and the pages for real cards (score sheet, launcher) and replays.
// Pages: "/" the lobby, "/r/CODE" a room, "/#/sheet", "/#/launcher", "/#/replay/CODE/N".
// When the server cannot be reached the page says so and tries again; the service worker
// (/sw.js) keeps the page itself available for that moment.

import { catalog as currentCatalog, useCatalog } from "./cards.js";
import { clear, h } from "./dom.js";
import { lobbyPage } from "./lobby.js";
import { api } from "./net.js";
import { pageTools, setStatus } from "./page.js";
import { roomPage } from "./room.js";
import { soundControl, toggleMute } from "./settings.js";
import { t } from "./text.js";
import { launcherPage, replayPage, sheetPage } from "./tools.js";

const app = document.getElementById("app");
let current = null; // the page's clean-up function
let retry = null;

function offline(message) {
  clearTimeout(retry);
  const box = h("section.panel.offline", { role: "alert", "data-region": "offline" },
    h("h1", {}, t("web.offline.title")),
    h("p", {}, message || t("web.offline.message")),
    h("p.hint", {}, t("web.offline.retrying")),
    h("button.primary", { type: "button", onclick: route }, t("web.offline.retry")));
  clear(app).append(box);
  setStatus(t("web.offline.status"), "lost");
  retry = setTimeout(route, 5000);
}

async function route() {
  clearTimeout(retry);
  if (current) current();
  current = null;
  clear(app);
  setStatus("");
  pageTools([]);
  let catalog;
  try {
    catalog = await api("/api/catalog");
  } catch (err) {
    offline(err.message);
    return;
  }
  useCatalog(catalog);
  const hash = location.hash.replace(/^#\/?/, "");
  const roomMatch = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  if (hash.startsWith("sheet")) current = sheetPage(app, catalog);
  else if (hash.startsWith("launcher")) current = launcherPage(app, catalog);
  else if (hash.startsWith("replay/")) {
    const [, code, number] = hash.split("/");
    current = replayPage(app, catalog, code.toUpperCase(), Number(number));
  } else if (roomMatch) current = roomPage(app, roomMatch[1].toUpperCase(), catalog);
  else current = lobbyPage(app, catalog);
  document.querySelectorAll("nav a").forEach((a) => a.removeAttribute("aria-current"));
  const here = document.querySelector(`nav a[href="/${location.hash || ""}"]`);
  if (here) here.setAttribute("aria-current", "page");
}

document.getElementById("sound-slot").append(soundControl());
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !currentCatalog()) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  const binding = currentCatalog().keys.find((b) => b.keys.includes(event.key.toLowerCase()));
  if (!binding) return;
  if (binding.command === "mute") toggleMute();
  else if (binding.command === "help") document.querySelector(".tool[data-command='help']")?.click();
});
window.addEventListener("hashchange", route);
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
route();
