// The table's keys (the key map the terminal shares, GET /api/catalog "keys") and the reader's
// settings for them (WCAG 2.1.4): a key acts only while the focus is inside the table, never
// while typing in a field; the single-character keys (letters, digits, "?") can be turned off or
// given other characters, and both choices are remembered in this browser. Text mode (typing
// moves) is switched here too.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const STORAGE_KEY = "unokit.keys";

/**
 * @typedef {Object} KeyBinding one command of the key map
 * @property {string} command its code ("draw")
 * @property {string} shown the keys as people read them ("D")
 * @property {string[]} keys the KeyboardEvent.key names, lower-cased
 * @property {string} where "both", "terminal" or "web"
 */

/**
 * @typedef {Object} KeySettings what the reader chose
 * @property {boolean} letters whether the single-character keys act
 * @property {Object<string, string>} keys a command's own key, where the reader gave one
 * @property {boolean} typing whether text mode (a field to type moves in) is on
 */

/** @returns {KeySettings} the settings as they are remembered (the defaults when none are) */
export function keySettings() {
  /** @type {KeySettings} */
  const settings = { letters: true, keys: {}, typing: false };
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    if (saved && typeof saved === "object") {
      settings.letters = saved.letters !== false;
      settings.typing = saved.typing === true;
      if (saved.keys && typeof saved.keys === "object") settings.keys = { ...saved.keys };
    }
  } catch (err) {
    /* storage off or spoilt: the defaults */
  }
  return settings;
}

/** @param {KeySettings} settings remember these */
export function saveKeySettings(settings) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch (err) {
    /* storage off: the choice lasts for this page */
  }
  document.dispatchEvent(new CustomEvent("unokit:keys"));
}

/**
 * Whether a key name is one printable character (a letter, a digit, punctuation): the keys
 * WCAG 2.1.4 is about.
 * @param {string} key a KeyboardEvent.key
 * @returns {boolean}
 */
export function isCharacter(key) {
  return [...key].length === 1 && key.trim() !== "";
}

/**
 * Whether the element takes typed text (a field, a menu, editable content).
 * @param {EventTarget|null} node
 * @returns {boolean}
 */
function typingIn(node) {
  if (!(node instanceof HTMLElement)) return false;
  return ["INPUT", "SELECT", "TEXTAREA"].includes(node.tagName) || node.isContentEditable;
}

/**
 * The key map with the reader's own keys in place of the map's single characters.
 * @param {KeyBinding[]} bindings the map
 * @returns {KeyBinding[]}
 */
export function effectiveBindings(bindings) {
  const own = keySettings().keys;
  return bindings.map((b) => (own[b.command] ? { ...b, keys: [own[b.command]], shown: own[b.command].toUpperCase() } : b));
}

/**
 * The commands whose key is one character, which the reader may give another key.
 * @param {KeyBinding[]} bindings the map
 * @returns {KeyBinding[]}
 */
export function remappable(bindings) {
  return bindings.filter((b) => b.where !== "terminal" && b.command !== "pick" && b.keys.length === 1 && isCharacter(b.keys[0]));
}

/**
 * The command a key press asks of the table, or null: only while the focus is inside the table
 * (`.table-root`), never while typing, and a single character only while those keys are on.
 * @param {KeyboardEvent} event the key press
 * @param {KeyBinding[]} bindings the key map
 * @returns {{command: string, key: string}|null}
 */
export function tableCommand(event, bindings) {
  if (event.altKey || event.ctrlKey || event.metaKey || typingIn(event.target)) return null;
  const active = document.activeElement;
  if (!(active instanceof Element) || !active.closest(".table-root")) return null;
  if (active.closest("dialog")) return null;
  const typed = event.key.toLowerCase();
  if (isCharacter(typed) && !keySettings().letters) return null;
  const usable = effectiveBindings(bindings).filter((b) => b.where !== "terminal");
  // A layout of another alphabet (Cyrillic, Greek) types its own letter: the key's place says it.
  // eslint-disable-next-line no-control-regex -- "any character outside ASCII"
  const placed = /^[^\x00-\x7f]$/.test(typed) ? (event.code.match(/^(?:Key|Digit)(\w)$/) || [])[1] : undefined;
  for (const key of [typed, placed ? placed.toLowerCase() : ""]) {
    const binding = key ? usable.find((b) => b.keys.includes(key)) : undefined;
    if (binding) return { command: binding.command, key };
  }
  return null;
}

/**
 * One command's key field: a single character, refused when another command has it.
 * @param {KeyBinding} binding the command
 * @param {KeyBinding[]} all every remappable command
 * @param {HTMLElement} note where a refusal is written
 * @returns {HTMLElement}
 */
function keyField(binding, all, note) {
  const id = `key-${binding.command}`;
  const input = h("input", { id, type: "text", maxlength: "1", size: "2", autocomplete: "off", value: binding.keys[0] });
  input.addEventListener("change", () => {
    const key = input.value.trim().toLowerCase();
    const settings = keySettings();
    const taken = effectiveBindings(all).find((b) => b.command !== binding.command && b.keys.includes(key));
    if (!isCharacter(key) || taken) {
      note.textContent = taken ? t("keys.taken", { key, command: t(`keys.${taken.command}`) }) : t("keys.one_character");
      input.value = effectiveBindings([binding])[0].keys[0];
      return;
    }
    note.textContent = "";
    settings.keys[binding.command] = key;
    saveKeySettings(settings);
  });
  return h("div.key-field", {}, h("label", { for: id }, t(`keys.${binding.command}`)), input);
}

/**
 * The settings of the keys and of text mode, for the help's "Keys" section.
 * @param {KeyBinding[]} bindings the key map
 * @returns {HTMLElement}
 */
export function keySettingsBox(bindings) {
  const box = h("div.key-settings");
  const draw = () => {
    const now = keySettings();
    const note = h("p.hint.key-note", { id: "key-note" });
    const letters = h("input#letter-keys", { type: "checkbox", checked: now.letters || undefined });
    letters.addEventListener("change", () => {
      saveKeySettings({ ...keySettings(), letters: letters.checked });
      draw();
    });
    const typing = h("input#text-mode", { type: "checkbox", checked: now.typing || undefined });
    typing.addEventListener("change", () => saveKeySettings({ ...keySettings(), typing: typing.checked }));
    const mine = remappable(effectiveBindings(bindings));
    const fields = h("fieldset.key-fields", { disabled: !now.letters || undefined }, h("legend", {}, t("keys.own_keys")),
      mine.map((b) => keyField(b, remappable(bindings), note)));
    const reset = h("button#keys-reset", { type: "button" }, t("keys.reset"));
    reset.addEventListener("click", () => {
      saveKeySettings({ ...keySettings(), letters: true, keys: {} });
      draw();
    });
    box.replaceChildren(
      h("div.field.check", {}, letters, h("label", { for: "letter-keys" }, t("keys.letters")), h("span.hint", {}, t("keys.letters_help"))),
      h("div.field.check", {}, typing, h("label", { for: "text-mode" }, t("keys.typing")), h("span.hint", {}, t("keys.typing_help"))),
      fields, note, reset);
  };
  draw();
  return box;
}
