// When a decision comes while the page is in the background: the tab's title says so (and
// blinks), and a desktop notification appears if the player allowed them. Coming back to the
// page puts the title back and closes the notification.

import { t } from "./i18n.js";

/** @type {ReturnType<typeof setInterval> | null} the title's blinking, while it blinks */
let blink = null;
let original = document.title;

function stop() {
  if (blink !== null) {
    clearInterval(blink);
    blink = null;
    document.title = original;
  }
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    navigator.serviceWorker.ready.then((reg) => reg.getNotifications({ tag: "unokit-turn" })).then((list) => list.forEach((n) => n.close()),
      () => {});
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") stop();
});

/** Whether notifications may be shown (the player said yes). */
export function notificationsAllowed() {
  return "Notification" in window && Notification.permission === "granted";
}

/** Ask for permission to notify (from a click on the settings' button). */
export async function askNotifications() {
  if (!("Notification" in window)) return "unsupported";
  if (Notification.permission === "default") return Notification.requestPermission();
  return Notification.permission;
}

/** @param {string} text */
async function notify(text) {
  const title = t("alert.your_turn");
  const options = { body: text, tag: "unokit-turn", renotify: true, icon: "/static/icons/icon-192.png" };
  try {
    const reg = navigator.serviceWorker ? await navigator.serviceWorker.getRegistration() : null;
    if (reg) {
      await reg.showNotification(title, options);
      return;
    }
  } catch (err) {
    /* fall back to a page notification */
  }
  try {
    const note = new Notification(title, options);
    note.onclick = () => window.focus();
  } catch (err) {
    /* not allowed here */
  }
}

/**
 * It is the player's decision: alert them if the page is not in view.
 * @param {string} text the decision's question
 */
export function turnAlert(text) {
  if (document.visibilityState !== "hidden") return;
  performance.mark("unokit:alert");
  if (blink === null) {
    original = document.title;
    const alert = `● ${t("alert.your_turn")}`;
    document.title = alert;
    blink = setInterval(() => { document.title = document.title === alert ? original : alert; }, 1000);
  }
  if (notificationsAllowed()) notify(text);
}
