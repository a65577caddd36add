// Rule options in words: an option's value ("Progressive", "On") and the rules a room plays
// that differ from its variant's defaults (the invite page, the waiting room, the drawer).

import { t } from "./text.js";

/** The words of an option's value. */
export function valueWords(option, value) {
  if (value === null || value === undefined || (Array.isArray(value) && !value.length)) return t("web.value.none");
  if (typeof value === "boolean") return value ? t("web.value.on") : t("web.value.off");
  if (option && option.kind === "choice") return t(`option.${option.name}.${String(value)}`, {}, String(value));
  return Array.isArray(value) ? value.join(" ") : String(value);
}

/** The rules a room plays that differ from the variant's defaults, as words. */
export function rulesOn(catalog, room) {
  const variant = catalog.variants[room.variant];
  const out = [];
  for (const option of variant.options) {
    if (!(option.name in room.options)) continue;
    const value = room.options[option.name];
    if (JSON.stringify(value) === JSON.stringify(option.default)) continue;
    if (option.name === "launcher_script") continue;
    if (option.name === "deck") {
      out.push(t("web.rules.own_deck"));
      continue;
    }
    const label = t(`option.${option.name}`, {}, option.name);
    out.push(option.kind === "bool" ? (value ? label : t("web.rules.off", { rule: label })) : `${label}: ${valueWords(option, value)}`);
  }
  return out;
}
