// Rule options and bots in words: an option's value ("progressive", "on"), the rules a room
// plays that differ from its variant's defaults (the invite page, the waiting room, the
// drawer), and a bot's strength beside its name.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The words of an option's value.
 * @param {{name: string}} option
 * @param {unknown} value
 * @returns {string}
 */
export function valueWords(option, value) {
  const name = option.name;
  if (value === null || value === undefined || (Array.isArray(value) && !value.length)) return t("lobby.none");
  if (Array.isArray(value)) return value.join(" ");
  if (typeof value === "number") return String(value);
  if (name === "stacking" && value === true) return t("option.stacking.same");
  return t(`option.${name}.${String(value)}`);
}

/**
 * The rules a room plays that differ from the variant's defaults, as words.
 * @param {import("./types").Catalog} catalog
 * @param {{variant: string, options: Record<string, unknown>}} room the room, or the room's facts (GET /api/rooms/CODE)
 * @returns {string[]}
 */
export function rulesOn(catalog, room) {
  const variant = catalog.variants[room.variant];
  const out = [];
  for (const option of variant.options) {
    if (!(option.name in room.options)) continue;
    const value = room.options[option.name];
    if (JSON.stringify(value) === JSON.stringify(option.default)) continue;
    if (option.name === "launcher_script") continue;
    if (option.name === "deck") {
      out.push(t("room.own_deck"));
      continue;
    }
    const label = t(option.label);
    out.push(option.kind === "bool" && value ? label : t("room.option_value", { option: label, value: valueWords(option, value) }));
  }
  return out;
}

/**
 * The fewest and the most players any of the catalogue's variants seats (a form that names no
 * variant yet offers that range).
 * @param {import("./types").Catalog} catalog
 * @returns {{fewest: number, most: number}}
 */
export function playerRange(catalog) {
  const variants = Object.values(catalog.variants);
  return { fewest: Math.min(...variants.map((v) => v.min_players)), most: Math.max(...variants.map((v) => v.max_players)) };
}

/**
 * A bot's strength in words ("Normal"); a trained policy by its file's name.
 * @param {string} bot
 * @returns {string}
 */
export function botStrength(bot) {
  if (bot.startsWith("policy:")) return bot.slice(7);
  return t(`bot.${bot}`);
}

/**
 * A bot to choose in a list: its strength and what it is like ("Normal (plays sensibly…)").
 * @param {string} bot
 * @returns {string}
 */
export function botChoice(bot) {
  if (bot.startsWith("policy:")) return bot.slice(7);
  return t("lobby.bot_choice", { bot: t(`bot.${bot}`), help: t(`bot.${bot}.help`) });
}

/** The options of a bot list: the levels first, by strength, then the other bots (the engine's
 * own and any trained policy the server offers), each group labelled. `titled` puts each
 * bot's description on its option too (where no hint line says it).
 * @param {import("./types").Catalog} catalog
 * @param {string} selected
 * @param {boolean} [titled]
 * @returns {HTMLOptGroupElement[]}
 */
export function botOptions(catalog, selected, titled = false) {
  /** @param {string} b */
  const option = (b) => h("option", { value: b, selected: b === selected, title: titled ? botChoice(b) : undefined }, botStrength(b));
  const levels = catalog.bots.filter((b) => catalog.levels.includes(b));
  const others = catalog.bots.filter((b) => !catalog.levels.includes(b));
  const groups = [h("optgroup", { label: t("lobby.bot_levels") }, levels.map(option))];
  if (others.length) groups.push(h("optgroup", { label: t("lobby.bot_others") }, others.map(option)));
  return groups;
}
