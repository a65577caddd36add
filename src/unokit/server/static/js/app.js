// The browser client of unokit serve: the lobby (create or join a room), the room (seats,
// host controls, the table) and the pages for real cards (score sheet, launcher) and replays.
// Pages: "/" the lobby, "/r/CODE" a room, "/#/sheet", "/#/launcher", "/#/replay/CODE/N",
// "/#/games" this browser's finished games.

import { api, errorText, memory, RoomConnection } from "./net.js";
import { useCatalog } from "./cards.js";
import { clear, h } from "./dom.js";
import { languageSwitcher, loadLanguage, pickLanguage, t, translateStatic } from "./i18n.js";
import { TableView } from "./table.js";
import { launcherPage, replayPage, sheetPage } from "./tools.js";
import { ChatPanel } from "./chat.js";
import { myGamesPage, playAgainPanel, playNow, publicRoomsPanel } from "./together.js";

const app = document.getElementById("app");
const status = document.getElementById("status");
let current = null; // the page's clean-up function
let languageReady = false;

/** The test pseudo-language: chosen with ?lang=en-XA, never offered. */
const PSEUDO = "en-XA";

function setStatus(text) {
  status.textContent = text;
}

function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

async function route() {
  if (current) current();
  current = null;
  clear(app);
  setStatus("");
  let catalog;
  try {
    catalog = await api("/api/catalog");
  } catch (err) {
    if (!languageReady) await loadLanguage(pickLanguage({ en: "English" }, [PSEUDO]));
    app.append(errorBox(t("ui.unreachable", { error: errorText(err) })));
    return;
  }
  if (!languageReady) {
    // Once per page: a change of language reloads the page.
    await loadLanguage(pickLanguage(catalog.languages, [PSEUDO]));
    languageReady = true;
    translateStatic();
    clear(document.getElementById("language-box")).append(languageSwitcher(catalog.languages));
  }
  useCatalog(catalog);
  const hash = location.hash.replace(/^#\/?/, "");
  const roomMatch = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  if (hash.startsWith("sheet")) current = sheetPage(app, catalog);
  else if (hash.startsWith("launcher")) current = launcherPage(app, catalog);
  else if (hash.startsWith("games")) current = myGamesPage(app, catalog);
  else if (hash.startsWith("replay/")) {
    const [, code, number] = hash.split("/");
    current = replayPage(app, catalog, code.toUpperCase(), Number(number));
  } else if (roomMatch) current = roomPage(roomMatch[1].toUpperCase(), catalog);
  else current = lobbyPage(catalog);
  document.querySelectorAll("nav a").forEach((a) => a.removeAttribute("aria-current"));
  const here = document.querySelector(`nav a[href="/${location.hash || ""}"]`);
  if (here) here.setAttribute("aria-current", "page");
}

window.addEventListener("hashchange", route);
route();

// ---------------------------------------------------------------------- the lobby

/** One form control for an engine option, its default shown and preselected. */
function optionField(option, variantName) {
  const id = `opt-${option.name}`;
  const label = h("label", { for: id }, t(`option.${option.name}`));
  const hint = h("span.hint", { id: `${id}-hint` }, t(`option.${option.name}.help`), " ", t("lobby.default", { value: formatValue(option.name, option.default) }), defaultsByWords(option));
  let input;
  if (option.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: option.name, "aria-describedby": `${id}-hint` });
    input.checked = Boolean(option.default);
    return h("div.field.check", { dataset: { variant: variantName } }, input, label, hint);
  }
  if (option.kind === "choice") {
    input = h("select", { id, name: option.name, "aria-describedby": `${id}-hint` }, option.choices.map((c) => h("option", { value: c, selected: c === String(option.default) }, t(`option.${option.name}.${c}`))));
  } else if (option.kind === "int" || option.kind === "int_or_none") {
    input = h("input", { type: "number", min: "1", id, name: option.name, placeholder: option.default === null ? t("lobby.none") : String(option.default), "aria-describedby": `${id}-hint` });
  } else {
    input = h("input", { type: "text", id, name: option.name, placeholder: option.kind === "numbers" ? t("lobby.numbers_example") : "", "aria-describedby": `${id}-hint` });
  }
  return h("div.field", { dataset: { variant: variantName } }, label, input, hint);
}

/** An option's value in words: "on", "the winner scores", "none", a number. */
function formatValue(name, value) {
  if (value === null) return t("lobby.none");
  if (Array.isArray(value)) return value.length ? value.join(" ") : t("lobby.none");
  if (typeof value === "boolean") return t(`option.${name}.${value}`);
  if (typeof value === "number") return String(value);
  if (name === "stacking" && value === true) return t("option.stacking.same");
  if (name === "stacking" && value === false) return t("option.stacking.false");
  return t(`option.${name}.${value}`);
}

function defaultsByWords(option) {
  if (!option.defaults_by) return "";
  const parts = [];
  for (const [other, values] of Object.entries(option.defaults_by)) {
    for (const [choice, value] of Object.entries(values)) {
      parts.push(t("lobby.default_with", { value: formatValue(option.name, value), option: t(`option.${other}`), choice: t(`option.${other}.${choice}`) }));
    }
  }
  return ` (${parts.join("; ")})`;
}

/** The options the reader changed from their defaults, as the engine reads them. */
function readOptions(form, variant) {
  const out = {};
  for (const option of variant.options) {
    const input = form.elements.namedItem(option.name);
    if (!input) continue;
    if (option.kind === "bool") {
      if (input.checked !== Boolean(option.default)) out[option.name] = input.checked;
    } else if (option.kind === "choice") {
      if (input.value !== String(option.default)) out[option.name] = input.value;
    } else if (input.value.trim() !== "") {
      if (option.kind === "int" || option.kind === "int_or_none") out[option.name] = Number(input.value);
      else if (option.kind === "numbers") out[option.name] = input.value.trim().split(/[\s,;]+/).map(Number);
      else out[option.name] = input.value;
    }
  }
  return out;
}

function lobbyPage(catalog) {
  const names = Object.keys(catalog.variants);
  const create = h("form.panel#create-room", { "aria-labelledby": "create-title" });
  const variantSelect = h("select#variant", { name: "variant" }, names.map((n) => h("option", { value: n }, t(`variant.${n}`))));
  const players = h("input#players", { type: "number", name: "players", value: "4", min: "2", max: "10", required: true });
  const bots = h("input#bots", { type: "number", name: "bots", value: "2", min: "0", max: "9" });
  const strength = h("select#bot-kind", { name: "bot" }, catalog.bots.map((b) => h("option", { value: b, selected: b === "normal" }, botWords(b))));
  const yourName = h("input#your-name", { type: "text", name: "name", maxlength: "40", required: true, value: memory.name(), autocomplete: "nickname" });
  const optionsBox = h("fieldset.options", {}, h("legend", {}, t("lobby.options")));
  const settingsBox = h("fieldset.settings", {}, h("legend", {}, t("lobby.settings_legend")));
  for (const [name, value] of Object.entries(catalog.settings)) {
    if (name === "standin_bot") continue;
    const id = `set-${name}`;
    const [low, high] = catalog.setting_limits[name] || [0, 3600];
    settingsBox.append(h("div.field", {}, h("label", { for: id }, t(`setting.${name}`)), h("input", { type: "number", id, name, min: String(low), max: String(high), step: "any", placeholder: String(value), "aria-describedby": `${id}-hint` }), h("span.hint", { id: `${id}-hint` }, t(`setting.${name}.help`), " ", t("lobby.default", { value: String(value) }))));
  }
  const message = h("div.form-message", { "aria-live": "polite" });
  const showOptions = () => {
    const variant = catalog.variants[variantSelect.value];
    clear(optionsBox).append(h("legend", {}, t("lobby.options_of", { variant: t(`variant.${variantSelect.value}`) })), h("p.hint", {}, t(`variant.${variantSelect.value}.help`)));
    variant.options.forEach((option) => optionsBox.append(optionField(option, variantSelect.value)));
    players.min = String(variant.min_players);
    players.max = String(variant.max_players);
    bots.max = String(variant.max_players - 1);
  };
  variantSelect.addEventListener("change", showOptions);
  showOptions();
  create.append(
    h("h2#create-title", {}, t("lobby.create")),
    h("div.field", {}, h("label", { for: "your-name" }, t("lobby.your_name")), yourName),
    h("div.field", {}, h("label", { for: "variant" }, t("lobby.variant")), variantSelect),
    h("div.row", {}, h("div.field", {}, h("label", { for: "players" }, t("lobby.players")), players), h("div.field", {}, h("label", { for: "bots" }, t("lobby.bots")), bots), h("div.field", {}, h("label", { for: "bot-kind" }, t("lobby.bot_strength")), strength)),
    optionsBox,
    h("details", {}, h("summary", {}, t("lobby.timers")), settingsBox),
    h("div.field.check", {}, h("input#public-room", { type: "checkbox", name: "public" }), h("label", { for: "public-room" }, t("lobby.public"))),
    h("button.primary#create-button", { type: "submit" }, t("lobby.create_button")),
    message,
  );
  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = create.querySelector("#create-button");
    if (button.disabled) return;
    const variant = catalog.variants[variantSelect.value];
    const seats = Number(players.value);
    const botCount = Number(bots.value || 0);
    clear(message);
    if (!yourName.value.trim()) {
      message.append(errorBox(t("lobby.name_first")));
      return;
    }
    if (botCount < 0 || botCount > seats - 1) {
      message.append(errorBox(t("lobby.bots_range", { high: seats - 1 })));
      return;
    }
    const settings = {};
    for (const name of Object.keys(catalog.settings)) {
      const input = create.elements.namedItem(name);
      if (input && input.value.trim() !== "") settings[name] = Number(input.value);
    }
    button.disabled = true;
    try {
      const request = { variant: variantSelect.value, players: seats, options: readOptions(create, variant), settings };
      if (create.querySelector("#public-room").checked) request.public = true;
      const room = await api("/api/rooms", request);
      memory.setHost(room.room, room.host_token);
      memory.setName(yourName.value.trim());
      sessionStorage.setItem(`unokit.bots.${room.room}`, JSON.stringify({ count: botCount, bot: strength.value }));
      sessionStorage.setItem(`unokit.join.${room.room}`, yourName.value.trim());
      location.assign(`/r/${room.room}`);
    } catch (err) {
      message.append(errorBox(errorText(err)));
      button.disabled = false;
    }
  });

  const join = h("form.panel#join-room", { "aria-labelledby": "join-title" });
  const code = h("input#join-code", { type: "text", name: "code", required: true, maxlength: "16", autocapitalize: "characters", autocomplete: "off" });
  join.append(
    h("h2#join-title", {}, t("lobby.join")),
    h("div.field", {}, h("label", { for: "join-code" }, t("lobby.room_code")), code),
    h("button.primary", { type: "submit" }, t("lobby.go_to_room")),
  );
  join.addEventListener("submit", (event) => {
    event.preventDefault();
    if (code.value.trim()) location.assign(`/r/${code.value.trim().toUpperCase()}`);
  });
  const [publicRooms, stopPublic] = publicRoomsPanel(catalog, yourName);
  app.append(h("div.lobby", {}, create, h("div.side-panels", {}, publicRooms, join, h("section.panel", {}, h("h2", {}, t("lobby.real_table")), h("p", {}, t("lobby.real_table.text"), " ", h("a", { href: "/#/sheet" }, t("ui.nav.sheet")), " · ", h("a", { href: "/#/launcher" }, t("ui.nav.launcher")))))));
  return stopPublic;
}

/** A bot's name and what it is like: "Heuristic (good)". */
function botWords(bot) {
  if (bot.startsWith("policy:")) return bot.slice(7); // a trained policy, named by its file (the operator's word)
  return t("lobby.bot_choice", { bot: t(`bot.${bot}`), help: t(`bot.${bot}.help`) });
}

// ---------------------------------------------------------------------- a room

function roomPage(code, catalog) {
  const shell = h("div.room");
  const page = h("div.room-main");
  shell.append(page);
  app.append(shell);
  let chat = null;
  let conn = null;
  let table = null;
  let room = null;
  let state = null;
  let note = null;
  const botPlan = JSON.parse(sessionStorage.getItem(`unokit.bots.${code}`) || "null");

  const saved = memory.seat(code);
  const autoName = sessionStorage.getItem(`unokit.join.${code}`);
  const start = (role, name) => {
    conn = new RoomConnection(code, { role, name, token: saved && role === "player" ? saved.token : null, hostToken: memory.host(code) }, handlers);
    if (chat) chat.element.remove();
    chat = new ChatPanel(conn);
    shell.append(chat.element);
  };

  const handlers = {
    onStatus: (status, params = {}) => setStatus(t("room.status", { code, status: t(`net.${status}`, params) })),
    onWelcome: (msg) => {
      if (msg.token) memory.setSeat(code, { token: msg.token, seat: msg.seat });
      sessionStorage.removeItem(`unokit.join.${code}`);
    },
    onState: (msg) => {
      state = msg;
      room = msg.room;
      if (chat) chat.setRoom(room);
      draw();
    },
    onChat: (msg) => chat && chat.receive(msg),
    onChatError: (msg) => chat && chat.error(msg),
    onRoom: (msg) => {
      room = msg.room;
      if (chat) chat.setRoom(room);
      if (state) state = { ...state, room };
      if (table && room.phase !== "lobby") table.updateRoom(room);
      else draw();
    },
    onError: (msg) => {
      if (msg.code === "bad_token" || msg.code === "seat_lost") {
        memory.setSeat(code, null);
        note = t("room.seat_gone");
        conn.close();
        conn = null;
        joinForm();
        return;
      }
      const playNowVariant = sessionStorage.getItem(`unokit.playnow.${code}`);
      if (playNowVariant && (msg.code === "room_full" || msg.code === "phase")) {
        // another player took the last seat first: find another table
        conn.close();
        sessionStorage.removeItem(`unokit.playnow.${code}`);
        playNow(playNowVariant, memory.name()).catch((err) => clear(page).append(errorBox(errorText(err))));
        return;
      }
      if (msg.code === "no_room" || msg.code === "room_closed") {
        conn.close();
        clear(shell).append(errorBox(errorText(msg)), h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
        return;
      }
      if (table) table.showError(errorText(msg));
      else {
        note = errorText(msg);
        draw();
      }
    },
    onBusy: (busy) => {
      if (table) table.setBusy(busy);
      page.querySelectorAll(".host-controls button").forEach((b) => { b.disabled = busy; });
    },
    onClosed: (reason) => {
      const why = ["host", "idle"].includes(reason) ? t(`room.closed.${reason}`) : t("room.closed.other");
      clear(shell).append(errorBox(why), h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
    },
  };

  function addBotsIfPlanned() {
    if (!botPlan || !conn || !conn.isHost || !room || room.phase !== "lobby" || conn.busy) return;
    const wanted = room.seats.length - botPlan.count;
    const open = room.seats.filter((s) => s.kind === "open").map((s) => s.seat).filter((s) => s >= wanted);
    if (open.length && conn.seat !== null) conn.host("add_bot", { seat: open[open.length - 1], bot: botPlan.bot });
    else if (!open.length) sessionStorage.removeItem(`unokit.bots.${code}`);
  }

  function draw() {
    if (!room) return;
    if (room.phase === "lobby" || !state || !state.observation) {
      if (table) {
        table.destroy();
        table = null;
      }
      clear(page).append(waitingRoom());
      setTimeout(addBotsIfPlanned, 0);
      return;
    }
    if (!table) {
      clear(page);
      const header = h("div.room-bar");
      const body = h("div.table-root");
      page.append(header, body);
      table = new TableView(body, conn, code);
      table.playAgain = () => playAgainPanel(room, conn, { onLeave: () => { memory.setSeat(code, null); location.assign("/"); } });
    }
    const bar = page.querySelector(".room-bar");
    clear(bar).append(roomBar(), hostControls());
    table.update(state);
  }

  function roomBar() {
    const link = `${location.origin}/r/${code}`;
    const me = conn.seat === null ? t("room.watching") : t("room.you_are", { name: (room.seats[conn.seat] || {}).name || "" });
    return h("div.room-facts", {},
      h("span", {}, h("strong", {}, t(`variant.${room.variant}`)), " · ", t("room.room"), " ", h("strong.code", {}, code), " · ", t("room.game_no", { number: room.game_no })),
      h("span", {}, me, conn.isHost ? ` · ${t("room.host")}` : "", ` · ${t("n.spectators", { count: room.spectators || 0 })}`),
      h("button.copy", { type: "button", onclick: () => copy(link) }, t("room.copy_link")));
  }

  function copy(text) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => setStatus(t("room.copied", { text })), () => setStatus(text));
    else setStatus(text);
  }

  function hostControls() {
    if (!conn || !conn.isHost) return h("div");
    const box = h("details.host-controls", { open: room.phase === "lobby" || undefined }, h("summary", {}, t("host.controls")));
    const allowedSeats = room.phase === "lobby" || room.phase === "hand_over" || room.phase === "finished";
    const muted = room.muted || [];
    const list = h("ul.seat-list");
    room.seats.forEach((seat) => {
      const number = seat.seat + 1;
      const pick = h("select", { "aria-label": t("host.bot_for_seat", { number }) }, catalog.bots.map((b) => h("option", { value: b, selected: b === "normal" }, botWords(b))));
      const who = seat.kind === "open" ? h("em", {}, t("host.open")) : seat.kind === "bot" ? t("seat.bot_name", { bot: t(`bot.${seat.bot}`) }) : seat.name;
      const row = h("li", {}, h("span.seat-title", {}, t("host.seat", { number }), " ", who));
      if (allowedSeats) {
        if (seat.kind === "open") row.append(pick, h("button", { type: "button", dataset: { verb: "add-bot" }, onclick: () => conn.host("add_bot", { seat: seat.seat, bot: pick.value }) }, t("host.add_bot")));
        else if (seat.seat !== conn.seat) {
          row.append(pick, h("button", { type: "button", onclick: () => conn.host("replace", { seat: seat.seat, bot: pick.value }) }, t("host.replace")));
          row.append(h("button", { type: "button", onclick: () => conn.host("kick", { seat: seat.seat }) }, t("host.kick")));
        }
      }
      if (seat.kind === "human" && seat.seat !== conn.seat) {
        const isMuted = muted.includes(seat.seat);
        row.append(h("button", { type: "button", dataset: { verb: isMuted ? "unmute" : "mute", seat: String(seat.seat) }, onclick: () => conn.host(isMuted ? "unmute" : "mute", { seat: seat.seat }) }, isMuted ? t("host.unmute") : t("host.mute")));
      }
      list.append(row);
    });
    box.append(list);
    box.append(h("p", {}, h("button", { type: "button", dataset: { verb: room.spectators_muted ? "unmute" : "mute" }, onclick: () => conn.host(room.spectators_muted ? "unmute" : "mute") }, room.spectators_muted ? t("host.unmute_spectators") : t("host.mute_spectators"))));
    box.append(h("p", {}, h("button", { type: "button", dataset: { verb: room.public ? "make-private" : "make-public" }, onclick: () => conn.host(room.public ? "make_private" : "make_public") }, room.public ? t("host.make_private") : t("host.make_public"))));
    const buttons = h("div.row");
    if (room.phase === "lobby" || room.phase === "finished") buttons.append(h("button.primary#start-game", { type: "button", dataset: { verb: "host-start" }, onclick: () => conn.host("start") }, room.phase === "lobby" ? t("host.start") : t("host.start_new")));
    if (room.phase === "hand_over") buttons.append(h("button.primary", { type: "button", onclick: () => conn.host("continue") }, t("host.next_hand")));
    buttons.append(h("button.danger", { type: "button", onclick: () => { if (confirm(t("host.close_confirm"))) conn.host("close"); } }, t("host.close")));
    box.append(buttons);
    if (!allowedSeats && room.phase === "playing") box.append(h("p.hint", {}, t("host.between_hands")));
    return box;
  }

  function waitingRoom() {
    const link = `${location.origin}/r/${code}`;
    const box = h("section.panel.waiting", { "aria-labelledby": "waiting-title" });
    box.append(
      h("h2#waiting-title", {}, t("room.title", { variant: t(`variant.${room.variant}`), code })),
      h("p", {}, t("room.send_link"), " ", h("a#room-link", { href: link }, link), " ", h("button.copy", { type: "button", onclick: () => copy(link) }, t("room.copy"))),
      h("p", {}, t("room.tell_code"), " ", h("strong.code", {}, code), " · ", h("a", { href: `${link}#watch` }, t("room.watch_link"))),
    );
    if (note) box.append(errorBox(note));
    const seats = h("ol.seat-list");
    room.seats.forEach((seat) => {
      let who = seat.kind === "open" ? h("em", {}, t("room.open_seat")) : seat.kind === "bot" ? t("seat.bot_name", { bot: t(`bot.${seat.bot}`) }) : seat.name;
      if (seat.seat === conn.seat) who = t("seat.you", { name: seat.name });
      seats.append(h("li", { dataset: { kind: seat.kind, seatBox: String(seat.seat) } }, who));
    });
    box.append(h("h3", {}, t("room.seats")), seats);
    const opts = Object.entries(room.options).map(([k, v]) => t("room.option_value", { option: t(`option.${k}`), value: formatValue(k, v) })).join("; ");
    const timer = room.settings.turn_seconds ? t("room.seconds", { count: room.settings.turn_seconds }) : t("room.timer_off");
    box.append(h("p.hint", {}, t("room.options_line", { options: opts, timer })));
    if (conn.isHost) box.append(hostControls());
    else box.append(h("p", {}, conn.seat === null ? t("room.watching_wait") : t("room.waiting_host")));
    if (conn.seat !== null && !conn.isHost) box.append(h("button", { type: "button", onclick: () => { conn.leave(); memory.setSeat(code, null); location.assign("/"); } }, t("room.leave_seat")));
    return box;
  }

  async function joinForm() {
    clear(page);
    let info = null;
    try {
      info = await api(`/api/rooms/${code}`);
    } catch (err) {
      page.append(errorBox(errorText(err)), h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
      return;
    }
    const open = info.seats.filter((s) => s.kind === "open").length;
    const form = h("form.panel#join-form", { "aria-labelledby": "join-form-title" });
    const name = h("input#join-name", { type: "text", maxlength: "40", value: memory.name(), autocomplete: "nickname" });
    form.append(
      h("h2#join-form-title", {}, t("room.title", { variant: t(`variant.${info.variant}`), code })),
      h("p", {}, t("room.join_facts", { seats: t("n.seats", { count: info.players }), open: t("n.open_seats", { count: open }), phase: t(`phase.${info.phase}`) })),
      note ? errorBox(note) : null,
      h("div.field", {}, h("label", { for: "join-name" }, t("lobby.your_name")), name),
      h("div.row", {}, h("button.primary#join-player", { type: "submit", disabled: open === 0 || undefined }, t("room.join_player")), h("button#join-spectator", { type: "button", onclick: () => { clear(page); start("spectator", name.value.trim()); } }, t("room.join_spectator"))),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!name.value.trim()) {
        name.focus();
        return;
      }
      memory.setName(name.value.trim());
      note = null;
      clear(page);
      start("player", name.value.trim());
    });
    page.append(form);
  }

  if (location.hash === "#watch") start("spectator", memory.name());
  else if (saved) start("player", "");
  else if (autoName) start("player", autoName);
  else joinForm();

  return () => {
    if (conn) conn.close();
    if (table) table.destroy();
  };
}
