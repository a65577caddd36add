// Notifications when the page is closed (Web Push): the browser subscribes at its push service
// only when the player turns the switch on (never when a page opens), and the page gives the
// subscription to the server under the player's identity, with the language to write in and
// the kinds of message wanted. Each time the page opens it gives it again (the language may
// have changed, and a subscription made for an older key of the server is made anew); turning
// the switch off, or "Forget me", withdraws it.

import { lang } from "./i18n.js";
import { api, memory } from "./net.js";

const STORAGE_KEY = "unokit.push";

/**
 * @typedef {Object} PushSettings what the player chose in this browser
 * @property {boolean} on the switch
 * @property {string[] | null} kinds the kinds of message wanted (null: the server's default)
 */

/**
 * @typedef {Object} PushInfo the server's answer to GET /api/push
 * @property {boolean} enabled whether the server sends notifications
 * @property {string | null} key its public key (base64url; null when it sends none)
 * @property {string[]} kinds the kinds of message it sends
 * @property {string[]} [defaults] the kinds a subscription gets unless it chooses
 */

/** @type {PushInfo | null} */
let serverInfo = null;

/** Whether this browser can be told when the page is closed. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/**
 * What the player chose in this browser: the switch, and the kinds of message.
 * @returns {PushSettings}
 */
export function pushSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (saved && typeof saved === "object" && Array.isArray(saved.kinds)) return { on: Boolean(saved.on), kinds: saved.kinds };
  } catch (err) {
    /* a broken value: as if none */
  }
  return { on: false, kinds: null };
}

/** @param {PushSettings} settings */
function saveSettings(settings) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
}

/**
 * The server's answer to GET /api/push: {enabled, key, kinds} (asked once a page).
 * @returns {Promise<PushInfo>}
 */
export async function pushInfo() {
  if (!serverInfo) serverInfo = /** @type {PushInfo} */ (await api("/api/push"));
  return serverInfo;
}

/**
 * A key's bytes as base64url text.
 * @param {ArrayBuffer | null | undefined} buffer
 */
function keyText(buffer) {
  if (!buffer) return "";
  const bytes = new Uint8Array(buffer);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of a base64url key.
 * @param {string} text
 */
function keyBytes(text) {
  const base = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base + "=".repeat((4 - (base.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/**
 * This browser's subscription for the server's current key (made anew for an older key).
 * @param {string} key
 * @returns {Promise<PushSubscription>}
 */
async function subscription(key) {
  const registration = await navigator.serviceWorker.ready;
  let found = await registration.pushManager.getSubscription();
  if (found && keyText(found.options && found.options.applicationServerKey) !== key) {
    await found.unsubscribe();
    found = null;
  }
  return found || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
}

/**
 * Give the server the subscription, for `kinds` (undefined: the server's default).
 * @param {PushSubscription} sub
 * @param {string[] | undefined} kinds
 * @returns {Promise<{kinds: string[]}>}
 */
async function give(sub, kinds) {
  return api("/api/push/subscribe", { player: memory.identity(), subscription: sub.toJSON(), lang: lang(), kinds });
}

/**
 * Turn notifications on for `kinds` (from the player's click: the browser may ask for its
 * permission now). Resolves to the server's answer; throws an Error whose `code` says why not:
 * unsupported, denied, off (the server sends none), or the server's refusal.
 * @param {string[]} [kinds]
 */
export async function subscribePush(kinds) {
  if (!pushSupported()) throw Object.assign(new Error("unsupported"), { code: "unsupported" });
  const info = await pushInfo();
  if (!info.enabled) throw Object.assign(new Error("off"), { code: "push_off" });
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") throw Object.assign(new Error("denied"), { code: "denied" });
  const key = /** @type {string} */ (info.key); // an enabled server has one
  let sub = await subscription(key);
  let answer;
  try {
    answer = await give(sub, kinds);
  } catch (err) {
    if (/** @type {import("./net.js").ServerError} */ (err).code !== "push_taken") throw err;
    // The push service gave this browser an endpoint another identity holds on the server
    // (this browser's identity was forgotten, say): a fresh subscription has a new one.
    await sub.unsubscribe();
    sub = await subscription(key);
    answer = await give(sub, kinds);
  }
  saveSettings({ on: true, kinds: answer.kinds });
  return answer;
}

/** Turn notifications off: the server forgets this browser's subscription, and the browser too. */
export async function unsubscribePush() {
  const kinds = pushSettings().kinds;
  saveSettings({ on: false, kinds });
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.ready;
  const sub = await registration.pushManager.getSubscription();
  if (!sub) return;
  try {
    await api("/api/push/unsubscribe", { player: memory.identity(), endpoint: sub.endpoint });
  } finally {
    await sub.unsubscribe();
  }
}

/** After "Forget me": the server has deleted the subscriptions; the browser drops its own. */
export async function forgetPush() {
  saveSettings({ on: false, kinds: pushSettings().kinds });
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const sub = registration ? await registration.pushManager.getSubscription() : null;
  if (sub) await sub.unsubscribe();
}

/** When a page opens: a player who turned notifications on gives the subscription again (in
 * the page's language, for the server's current key); never asks the browser for anything. */
export async function syncPush() {
  const settings = pushSettings();
  if (!settings.on || !pushSupported()) return;
  if (Notification.permission !== "granted") {
    saveSettings({ on: false, kinds: settings.kinds }); // the player took the permission back
    return;
  }
  try {
    await subscribePush(settings.kinds || undefined);
  } catch (err) {
    /* said when the player opens the panel: the switch shows what holds */
  }
}
