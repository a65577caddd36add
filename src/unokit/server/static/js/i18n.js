// Every word the page shows, in its reader's language (docs/i18n.md).
//
// The catalogue of a language is /static/i18n/<lang>.json, compiled from the same gettext
// catalogue as the terminal's (make catalogs): messages by key, with {name} placeholders; a
// plural message (a key starting "n.") has one text per CLDR category and picks it with
// Intl.PluralRules by its "count". The server sends what happened as lines: {key, params} with
// plain values (a seat number, a card's text, a colour's name); say() shows each parameter by
// its type (the catalogue's "params" table: a seat by its player's name, a card by its title).
//
// The language: ?lang= in the address (then remembered), else the reader's choice (remembered in localStorage),
// else the first of navigator.languages that unokit speaks, else English. <html lang> follows.

const STORAGE_KEY = "unokit.lang";
const DEFAULT = "en";

/** @typedef {Record<string, string | Record<string, string>>} Messages a catalogue's messages by key (a plural: by CLDR category) */

let code = DEFAULT;
/** @type {Messages} */
let messages = {};
/** @type {Record<string, string>} the type of each parameter of a line, by its name ("player": "seat") */
let paramTypes = {};
/** @type {Messages | null} */
let english = null; // the fallback for a key a catalogue lacks (the tests make sure none does)
let rules = new Intl.PluralRules(DEFAULT);

/** The language being shown. */
export function lang() {
  return code;
}

/** The best language for this reader among `languages` ({code: name}); `extra` codes (the
 * test pseudo-language) are accepted from ?lang= and localStorage but never offered. `tags`
 * ({aliases, never}, the catalogue's language_tags) maps other tags to a language (zh-CN → zh-Hans,
 * pt → pt-BR) and names the tags never matched by their base alone (Traditional Chinese).
 * @param {Record<string, string>} languages
 * @param {string[]} [extra]
 * @param {{aliases?: Record<string, string>, never?: string[]}} [tags]
 * @returns {string}
 */
export function pickLanguage(languages, extra = [], tags = { aliases: {}, never: [] }) {
  const known = new Map([...Object.keys(languages), ...extra].map((c) => [c.toLowerCase(), c]));
  for (const [alias, target] of Object.entries(tags.aliases || {})) if (known.has(target.toLowerCase())) known.set(alias, target);
  const never = tags.never || [];
  /** @type {string[]} */
  const wanted = [];
  const fromUrl = new URLSearchParams(location.search).get("lang");
  const fromUrlCode = fromUrl ? known.get(fromUrl.toLowerCase()) : undefined;
  if (fromUrlCode) rememberLanguage(fromUrlCode); // a link's choice sticks
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved) wanted.push(saved);
  } catch (err) {
    /* storage may be off: follow the browser */
  }
  wanted.push(...(navigator.languages || [navigator.language || DEFAULT]));
  for (const tag of wanted) {
    const lower = String(tag).toLowerCase().replace(/_/g, "-");
    if (known.has(lower)) return /** @type {string} */ (known.get(lower));
    if (never.some((prefix) => lower.startsWith(prefix))) continue;
    const base = lower.split("-")[0];
    if (known.has(base)) return /** @type {string} */ (known.get(base));
  }
  return DEFAULT;
}

/**
 * A number in the page's language, by CLDR's rules (1.234,5 in Turkish, 0,3 and 1 000 in Russian):
 * exactly `digits` digits after the point, or as few as it needs up to 3 (Python's
 * unokit.i18n.numbers.format_number writes the same).
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
export function number(value, digits) {
  const fraction = digits === undefined ? { maximumFractionDigits: 3 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(code, fraction).format(value);
}

/**
 * A share (0..1) as a whole percentage in the page's language (%42 in Turkish, 42% in Chinese).
 * @param {number} share
 * @returns {string}
 */
export function percent(share) {
  return t("number.percent", { value: number(Math.round(100 * share)) });
}

/**
 * The catalogue of a language, as /static/i18n/<lang>.json has it.
 * @param {string} wanted
 * @returns {Promise<{language: string, messages: Messages, params?: Record<string, string>}>}
 */
async function fetchCatalogue(wanted) {
  const response = await fetch(`/static/i18n/${encodeURIComponent(wanted)}.json`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`no catalogue for ${wanted}`);
  return response.json();
}

/**
 * Load the catalogue of `wanted` (English when it cannot be had) and make it the page's.
 * @param {string} wanted
 * @returns {Promise<string>} the language loaded
 */
export async function loadLanguage(wanted) {
  let data;
  try {
    data = await fetchCatalogue(wanted);
  } catch (err) {
    data = await fetchCatalogue(DEFAULT);
  }
  code = data.language;
  messages = data.messages;
  paramTypes = data.params || {};
  english = code === DEFAULT ? null : english;
  if (code !== DEFAULT && english === null) {
    try {
      english = (await fetchCatalogue(DEFAULT)).messages;
    } catch (err) {
      english = {};
    }
  }
  try {
    rules = new Intl.PluralRules(code);
  } catch (err) {
    rules = new Intl.PluralRules(DEFAULT);
  }
  document.documentElement.lang = code;
  return code;
}

/**
 * Remember the reader's choice of language (the page then reloads in it).
 * @param {string} wanted
 */
export function rememberLanguage(wanted) {
  try {
    localStorage.setItem(STORAGE_KEY, wanted);
  } catch (err) {
    /* storage may be off: the choice lasts for this page only */
  }
}

/**
 * The text of message `key`, in the form for `count` when it is a plural.
 * @param {string} key
 * @param {unknown} count
 * @returns {string}
 */
function template(key, count) {
  let text = messages[key];
  if ((text === undefined || text === "") && english) text = english[key]; // a message not yet translated is said in English
  if (text === undefined) return key;
  if (typeof text === "object") {
    const category = rules.select(typeof count === "number" ? count : 1);
    return text[category] ?? text.other ?? Object.values(text)[0];
  }
  return text;
}

/**
 * Marks a key for extraction where it is chosen before it is said (N_("replay.facts")).
 * @param {string} key
 * @returns {string}
 */
export function N_(key) {
  return key;
}

/** The message `key` with its {placeholders} filled from `params` (a number written in the
 * page's language, number(); anything else as given); a plural message takes its form from
 * params.count.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const text = template(key, params.count);
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    return typeof value === "number" ? number(value) : String(value);
  });
}

/**
 * The words saying when a sealed game opens (a deal of the day's while its day runs: its replay
 * and record open when the day ends, docs/daily.md), in the reader's language and time; null
 * for a game that is not sealed, or no longer.
 * @param {number | null | undefined} until when it opens (seconds since 1970), null: never sealed
 * @returns {string | null}
 */
export function sealedWords(until) {
  if (until === null || until === undefined || until * 1000 <= Date.now()) return null;
  const time = new Date(until * 1000).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  return t("game.sealed", { time });
}

// ---------------------------------------------------------------------- typed parameters

/**
 * A card face ("red 5", "wild_draw_four"; the first face of "red 5/pink 2") by its title.
 * @param {string} face
 * @returns {string}
 */
export function cardTitle(face) {
  const words = String(face).split("/")[0].trim().split(/\s+/);
  const kind = words[words.length - 1];
  const title = t(`card.${kind}`);
  if (words.length < 2) return t("face.wild", { card: title });
  const color = t(`face.color.${words[0]}`);
  return t(/^\d+$/.test(kind) ? "face.number" : "face.action", { color, card: title });
}

/**
 * A colour by its name; "none yet" while one is being chosen.
 * @param {string | null | undefined} color
 * @returns {string}
 */
export function colorName(color) {
  return color ? t(`color.${color}`) : t("color.none");
}

/** @param {string[]} items */
function join(items) {
  return items.join(t("list.separator"));
}

/**
 * A parameter of a line shown by its type; `names` are the seats' names, `me` the reader's seat
 * (a line inside is said to the reader too).
 * @param {string} kind the parameter's type (the catalogue's "params" table)
 * @param {any} value the parameter as the server sent it: any, as its `kind` says what it is
 *   (a seat number, a card's text, a list of either, a line)
 * @param {string[] | null} names
 * @param {number | null} [me]
 * @returns {string}
 */
export function showValue(kind, value, names, me = null) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value) && value.key) return say(value, names, me);
  if (typeof value === "string" && (kind === "seats" || kind === "cards" || kind === "numbers")) return value; // already said
  switch (kind) {
    case "seat":
      return names && names[value] !== undefined ? names[value] : t("seat.numbered", { number: Number(value) + 1 });
    case "seats":
      return join(value.map((/** @type {number} */ s) => showValue("seat", s, names)));
    case "card":
      return cardTitle(value);
    case "cards":
      return value.length ? join(value.map(cardTitle)) : t("cards.none");
    case "kind":
      return t(`card.${value}`);
    case "color":
      return colorName(value);
    case "side":
      return t(`side.${value}`);
    case "direction":
      return t(`direction.${value}`);
    case "reason":
      return messages[`card.${value}`] !== undefined ? t(`card.${value}`) : t(`reason.${value}`);
    case "decision":
      return t(`decision.${value}.todo`);
    case "option":
      return t(`option.${value}`);
    case "variant":
      return t(`variant.${value}`);
    case "numbers":
      return join(value.map((/** @type {number} */ points, /** @type {number} */ seat) =>
        t("score.entry", { player: showValue("seat", seat, names), points })));
    case "number":
      return typeof value === "number" ? number(value) : String(value);
    default:
      return String(value);
  }
}

/**
 * The line to say for `line` to the reader at seat `me`: its reader form where one of its person
 * places holds the reader and the catalogue has that form (docs/i18n.md, "The reader"), else the
 * line itself. A seat place holding `me` is "you_<place>"; a list of seats that is `me` alone is
 * too, and one holding `me` among others is "you_and_<place>", its parameter then the others;
 * the places are sorted by name. The same choice as Python's unokit.i18n.lines.reader_form.
 * @param {import("./types").Line} line
 * @param {number | null} me
 * @returns {import("./types").Line}
 */
export function reader(line, me) {
  if (me === null || me === undefined) return line;
  const params = { ...(line.params || {}) };
  /** @type {string[]} */
  const places = [];
  for (const [name, value] of Object.entries(line.params || {})) {
    const kind = paramTypes[name];
    if (kind === "seat" && value === me) places.push(name);
    else if (kind === "seats" && Array.isArray(value) && value.includes(me)) {
      const others = value.filter((seat) => seat !== me);
      places.push(others.length ? `and_${name}` : name);
      if (others.length) params[name] = others;
    }
  }
  if (!places.length) return line;
  const bare = (/** @type {string} */ place) => place.replace(/^and_/, "");
  places.sort((a, b) => (bare(a) < bare(b) ? -1 : bare(a) > bare(b) ? 1 : 0));
  const key = `${line.key}.you_${places.join("_")}`;
  return messages[key] !== undefined || (english && english[key] !== undefined) ? { key, params } : line;
}

/**
 * A line from the server ({key, params}) in words; `names` name the seats, and a line naming the
 * reader (at seat `me`) is said in its reader form (reader()).
 * @param {import("./types").Line} line
 * @param {string[] | null} [names]
 * @param {number | null} [me]
 * @returns {string}
 */
export function say(line, names = null, me = null) {
  const chosen = reader(line, me);
  /** @type {Record<string, unknown>} */
  const shown = {};
  for (const [name, value] of Object.entries(chosen.params || {})) {
    shown[name] = showValue(paramTypes[name] || "text", value, names, me);
  }
  const params = chosen.params || {};
  if (typeof params.count === "number") shown.count = params.count;
  return t(chosen.key, shown);
}

/** A <select> that switches the page's language (`languages`: {code: name}); `id` names it
 * (the bar's is "language", the table's menu has its own).
 * @param {Record<string, string>} languages
 * @param {string} [id]
 * @returns {HTMLSelectElement}
 */
export function languageSwitcher(languages, id = "language") {
  const select = document.createElement("select");
  select.id = id;
  select.setAttribute("aria-label", t("ui.language"));
  for (const [value, name] of Object.entries(languages)) {
    const option = document.createElement("option");
    option.value = value;
    option.lang = value;
    option.textContent = name;
    option.selected = value === code;
    select.append(option);
  }
  select.addEventListener("change", () => {
    rememberLanguage(select.value);
    location.reload();
  });
  return select;
}

/** Put the words into the page's static elements: data-i18n="key" sets the text,
 * data-i18n-label="key" the aria-label.
 * @param {ParentNode} [root]
 */
export function translateStatic(root = document) {
  root.querySelectorAll(/** @type {"span"} */ ("[data-i18n]")).forEach((node) => {
    node.textContent = t(/** @type {string} */ (node.dataset.i18n)); // the selector has it
  });
  root.querySelectorAll(/** @type {"span"} */ ("[data-i18n-label]")).forEach((node) => {
    node.setAttribute("aria-label", t(/** @type {string} */ (node.dataset.i18nLabel)));
  });
  document.title = t("ui.title");
}
