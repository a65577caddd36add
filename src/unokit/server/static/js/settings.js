// The sound and alert settings, behind the speaker button of the bar: sound on or off, the
// volume (both remembered in this browser), the permission for "your turn" notifications while
// the page is in the background, and the switch for notifications when the page is closed
// (Web Push: push.js), with the kinds of message the player wants.

import { offlineLine } from "./offline.js";
import { askNotifications, notificationsAllowed } from "./alerts.js";
import { clear, h } from "./dom.js";
import { ServerError, errorText } from "./net.js";
import { pushInfo, pushSettings, pushSupported, subscribePush, unsubscribePush } from "./push.js";
import { playSound, saveSoundSettings, soundSettings, unlockAudio } from "./sound.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * A speaker, crossed out when muted (drawn: no emoji font is needed).
 * @param {boolean} muted
 */
function icon(muted) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  /** @type {(d: string, extra?: Record<string, string>) => void} */
  const path = (d, extra = {}) => {
    const node = document.createElementNS(SVG, "path");
    node.setAttribute("d", d);
    for (const [k, v] of Object.entries(extra)) node.setAttribute(k, v);
    svg.append(node);
  };
  path("M3 9h4l5-4v14l-5-4H3z");
  if (muted) path("M16 9l5 6M21 9l-5 6", { stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", fill: "none" });
  else path("M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12",
    { stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", fill: "none" });
  return svg;
}

/**
 * Why notifications when the page is closed could not be turned on, in words.
 * @param {any} err what was thrown: any, as it may be the browser's error or push.js's (with a `code`)
 */
function pushProblem(err) {
  if (err.code === "unsupported") return t("push.unsupported");
  if (err.code === "denied") return t("push.denied");
  if (err instanceof ServerError) return errorText(err);
  return t("push.failed"); // the browser's push service refused or did not answer
}

/**
 * The switch for notifications when the page is closed, and one check box per kind of message
 * (shown while it is on; at first those of `defaults`). Nothing is asked of the browser until
 * the player turns it on.
 * @param {string[]} kinds
 * @param {string[]} defaults
 */
function pushFields(kinds, defaults) {
  const box = h("fieldset.push-settings", {}, h("legend", {}, t("push.section")));
  let problem = "";
  let busy = false;
  const render = () => {
    const settings = pushSettings();
    const chosen = settings.kinds || defaults; // the deal of the day only when ticked
    const supported = pushSupported();
    const blocked = supported && Notification.permission === "denied";
    const toggle = h("button.push-switch#push-switch",
      { type: "button", role: "switch", "aria-checked": String(settings.on), disabled: !supported || blocked || busy || undefined,
      onclick: async () => {
      busy = true;
      problem = "";
      render();
      try {
        if (pushSettings().on) await unsubscribePush();
        else await subscribePush(chosen);
      } catch (err) {
        problem = pushProblem(err);
      }
      busy = false;
      render();
    } }, h("span.switch-track", { "aria-hidden": "true" }), h("span", {}, t("push.switch")));
    const state = !supported ? t("push.unsupported") : blocked ? t("push.denied") : problem || (settings.on ? t("push.on") : t("push.off"));
    const kindBoxes = settings.on ? h("div.push-kinds", { role: "group", "aria-label": t("push.kinds") }, kinds.map((kind) => {
      const input = h(`input#push-${kind}`,
        { type: "checkbox", checked: chosen.includes(kind) || undefined, dataset: { kind }, disabled: busy || undefined });
      input.addEventListener("change", async () => {
        const wanted = kinds.filter((k) => (k === kind ? input.checked : (pushSettings().kinds || defaults).includes(k)));
        busy = true;
        problem = "";
        try {
          await subscribePush(wanted);
        } catch (err) {
          problem = pushProblem(err);
        }
        busy = false;
        render();
      });
      return h("div.field.check", {}, input, h("label", { for: `push-${kind}` }, t(`push.kind.${kind}`)));
    })) : null;
    clear(box).append(...[h("legend", {}, t("push.section")), toggle, h("p.hint#push-state", { role: "status" }, state), kindBoxes,
      h("p.hint", {}, t("push.help"))].filter((part) => part !== null));
  };
  render();
  return box;
}

/** The speaker button and its panel; returns the button's container for the bar. */
export function soundControl() {
  const button = h("button.tool#sound-button",
    { type: "button", "aria-expanded": "false", "aria-controls": "sound-panel", title: t("sound.title"), "aria-label": t("sound.title") },
    icon(soundSettings().muted));
  const panel = h("div.popover#sound-panel", { hidden: true, role: "group", "aria-label": t("sound.title") });
  const render = () => {
    const settings = soundSettings();
    button.replaceChildren(icon(settings.muted));
    const mute = h("button#mute", { type: "button", "aria-pressed": String(settings.muted), onclick: () => {
      saveSoundSettings({ ...soundSettings(), muted: !soundSettings().muted });
      render();
    } }, settings.muted ? t("sound.unmute") : t("sound.mute"));
    const volume = h("input#volume",
      { type: "range", min: "0", max: "1", step: "0.05", value: String(settings.volume), "aria-label": t("sound.volume") });
    volume.addEventListener("change", () => {
      saveSoundSettings({ ...soundSettings(), volume: Number(volume.value) });
      unlockAudio();
      playSound("turn");
    });
    const allowed = notificationsAllowed();
    const notifyState = !("Notification" in window) ? t("sound.notify_unsupported")
      : allowed ? t("sound.notify_on")
        : Notification.permission === "denied" ? t("sound.notify_denied") : "";
    const notify = h("button#notify",
      { type: "button", disabled: allowed || !("Notification" in window) || Notification.permission === "denied" || undefined,
      onclick: async () => {
      await askNotifications();
      render();
    } }, t("sound.notify"));
    clear(panel).append(
      h("div.field.check", {}, mute),
      h("div.field", {}, h("label", { for: "volume" }, t("sound.volume")), volume),
      h("div.field", {}, notify, notifyState ? h("span.hint", {}, notifyState) : null, h("span.hint", {}, t("sound.notify_help"))),
    );
    if (pushKinds.length) panel.append(pushFields(pushKinds, pushDefaults));
    panel.append(offlineLine());
  };
  // The server says whether it sends notifications when the page is closed, and of what.
  /** @type {string[]} */
  let pushKinds = [];
  /** @type {string[]} */
  let pushDefaults = [];
  pushInfo().then((info) => {
    pushKinds = info.enabled ? info.kinds : [];
    pushDefaults = info.enabled ? info.defaults || info.kinds : [];
    if (!panel.hidden) render();
  }, () => {});
  button.addEventListener("click", () => {
    const open = panel.hidden;
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) render();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
    }
  });
  document.addEventListener("pointerdown", (event) => {
    if (!panel.hidden && !panel.contains(/** @type {Node | null} */ (event.target)) && event.target !== button) {
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
    }
  });
  render();
  return h("div.sound-control", {}, button, panel);
}

/** M (the key map's "mute"): sound on or off from the keyboard. */
export function toggleMute() {
  saveSoundSettings({ ...soundSettings(), muted: !soundSettings().muted });
  const button = document.getElementById("sound-button");
  if (button) button.replaceChildren(icon(soundSettings().muted));
}
