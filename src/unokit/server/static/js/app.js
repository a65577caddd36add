// The browser client of unokit serve: the lobby (create or join a room), the room (seats,
// host controls, the table) and the pages for real cards (score sheet, launcher) and replays.
// Pages: "/" the lobby, "/r/CODE" a room, "/#/sheet", "/#/launcher", "/#/replay/CODE/N".

import { api, memory, RoomConnection } from "./net.js";
import { useCatalog } from "./cards.js";
import { clear, h, plural, words } from "./dom.js";
import { TableView } from "./table.js";
import { launcherPage, replayPage, sheetPage } from "./tools.js";

const app = document.getElementById("app");
const status = document.getElementById("status");
let current = null; // the page's clean-up function

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
    app.append(errorBox(`The server cannot be reached: ${err.message}`));
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
  const label = h("label", { for: id }, words(option.name));
  const hint = h("span.hint", { id: `${id}-hint` }, `default: ${formatValue(option.default)}${defaultsByWords(option)}`);
  let input;
  if (option.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: option.name, "aria-describedby": `${id}-hint` });
    input.checked = Boolean(option.default);
    return h("div.field.check", { dataset: { variant: variantName } }, input, label, hint);
  }
  if (option.kind === "choice") {
    input = h("select", { id, name: option.name, "aria-describedby": `${id}-hint` }, option.choices.map((c) => h("option", { value: c, selected: c === String(option.default) }, words(c))));
  } else if (option.kind === "int" || option.kind === "int_or_none") {
    input = h("input", { type: "number", min: "1", id, name: option.name, placeholder: option.default === null ? "none" : String(option.default), "aria-describedby": `${id}-hint` });
  } else {
    input = h("input", { type: "text", id, name: option.name, placeholder: option.kind === "numbers" ? "e.g. 0 0 3 0 5" : "", "aria-describedby": `${id}-hint` });
  }
  return h("div.field", { dataset: { variant: variantName } }, label, input, hint);
}

function formatValue(value) {
  if (value === null) return "none";
  if (Array.isArray(value)) return value.length ? value.join(" ") : "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  return words(String(value));
}

function defaultsByWords(option) {
  if (!option.defaults_by) return "";
  const parts = [];
  for (const [other, values] of Object.entries(option.defaults_by)) {
    for (const [choice, value] of Object.entries(values)) parts.push(`${formatValue(value)} with ${words(other)} ${words(choice)}`);
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
  const variantSelect = h("select#variant", { name: "variant" }, names.map((n) => h("option", { value: n }, catalog.variants[n].title)));
  const players = h("input#players", { type: "number", name: "players", value: "4", min: "2", max: "10", required: true });
  const bots = h("input#bots", { type: "number", name: "bots", value: "2", min: "0", max: "9" });
  const strength = h("select#bot-kind", { name: "bot" }, catalog.bots.map((b) => h("option", { value: b, selected: b === "normal" }, botWords(b))));
  const yourName = h("input#your-name", { type: "text", name: "name", maxlength: "40", required: true, value: memory.name(), autocomplete: "nickname" });
  const optionsBox = h("fieldset.options", {}, h("legend", {}, "Rule options"));
  const settingsBox = h("fieldset.settings", {}, h("legend", {}, "In seconds; leave a field empty for its default"));
  for (const [name, value] of Object.entries(catalog.settings)) {
    if (name === "standin_bot") continue;
    const id = `set-${name}`;
    const [low, high] = catalog.setting_limits[name] || [0, 3600];
    settingsBox.append(h("div.field", {}, h("label", { for: id }, settingWords(name)), h("input", { type: "number", id, name, min: String(low), max: String(high), step: "any", placeholder: String(value), "aria-describedby": `${id}-hint` }), h("span.hint", { id: `${id}-hint` }, `default: ${value}${{ turn_seconds: " (0: no timer)", jump_seconds: " (0: the first action wins)" }[name] || ""}`)));
  }
  const message = h("div.form-message", { "aria-live": "polite" });
  const showOptions = () => {
    const variant = catalog.variants[variantSelect.value];
    clear(optionsBox).append(h("legend", {}, `Rule options of ${variant.title}`));
    variant.options.forEach((option) => optionsBox.append(optionField(option, variantSelect.value)));
    players.min = String(variant.min_players);
    players.max = String(variant.max_players);
    bots.max = String(variant.max_players - 1);
  };
  variantSelect.addEventListener("change", showOptions);
  showOptions();
  create.append(
    h("h2#create-title", {}, "Create a room"),
    h("div.field", {}, h("label", { for: "your-name" }, "Your name"), yourName),
    h("div.field", {}, h("label", { for: "variant" }, "Variant"), variantSelect),
    h("div.row", {}, h("div.field", {}, h("label", { for: "players" }, "Players (seats)"), players), h("div.field", {}, h("label", { for: "bots" }, "Bots among them"), bots), h("div.field", {}, h("label", { for: "bot-kind" }, "Bot strength"), strength)),
    optionsBox,
    h("details", {}, h("summary", {}, "Timers"), settingsBox),
    h("button.primary#create-button", { type: "submit" }, "Create the room"),
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
      message.append(errorBox("Write your name first."));
      return;
    }
    if (botCount < 0 || botCount > seats - 1) {
      message.append(errorBox(`Bots: from 0 to ${seats - 1} (one seat is yours).`));
      return;
    }
    const settings = {};
    for (const name of Object.keys(catalog.settings)) {
      const input = create.elements.namedItem(name);
      if (input && input.value.trim() !== "") settings[name] = Number(input.value);
    }
    button.disabled = true;
    try {
      const room = await api("/api/rooms", { variant: variantSelect.value, players: seats, options: readOptions(create, variant), settings });
      memory.setHost(room.room, room.host_token);
      memory.setName(yourName.value.trim());
      sessionStorage.setItem(`unokit.bots.${room.room}`, JSON.stringify({ count: botCount, bot: strength.value }));
      sessionStorage.setItem(`unokit.join.${room.room}`, yourName.value.trim());
      location.assign(`/r/${room.room}`);
    } catch (err) {
      message.append(errorBox(err.message));
      button.disabled = false;
    }
  });

  const join = h("form.panel#join-room", { "aria-labelledby": "join-title" });
  const code = h("input#join-code", { type: "text", name: "code", required: true, maxlength: "16", autocapitalize: "characters", autocomplete: "off" });
  join.append(
    h("h2#join-title", {}, "Join a room"),
    h("div.field", {}, h("label", { for: "join-code" }, "Room code"), code),
    h("button.primary", { type: "submit" }, "Go to the room"),
  );
  join.addEventListener("submit", (event) => {
    event.preventDefault();
    if (code.value.trim()) location.assign(`/r/${code.value.trim().toUpperCase()}`);
  });
  app.append(h("div.lobby", {}, create, h("div.side-panels", {}, join, h("section.panel", {}, h("h2", {}, "At a real table"), h("p", {}, "Playing with real cards? Keep the score on a ", h("a", { href: "/#/sheet" }, "score sheet"), ", and use the ", h("a", { href: "/#/launcher" }, "virtual launcher"), " when the UNO Attack launcher is missing.")))));
  return () => {};
}

function botWords(bot) {
  return { beginner: "Beginner", easy: "Easy", normal: "Normal", hard: "Hard", expert: "Expert", random: "random (engine: plays at random)", heuristic: "heuristic (engine: rule-based)", ismcts: "ismcts (engine: search)", ismcts_fast: "ismcts_fast (engine: compiled search)" }[bot] || bot;
}

function settingWords(name) {
  return {
    turn_seconds: "Turn timer",
    catch_seconds: "UNO catch window",
    jump_seconds: "Jump-In window",
    bot_seconds: "Bot thinking pause",
    grace_seconds: "Wait for a dropped player",
    hand_pause_seconds: "Pause between hands",
  }[name] || words(name);
}

// ---------------------------------------------------------------------- a room

function roomPage(code, catalog) {
  const page = h("div.room");
  app.append(page);
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
  };

  const handlers = {
    onStatus: (text) => setStatus(`Room ${code}: ${text}`),
    onWelcome: (msg) => {
      if (msg.token) memory.setSeat(code, { token: msg.token, seat: msg.seat });
      sessionStorage.removeItem(`unokit.join.${code}`);
    },
    onState: (msg) => {
      state = msg;
      room = msg.room;
      draw();
    },
    onRoom: (msg) => {
      room = msg.room;
      if (state) state = { ...state, room };
      if (table && room.phase !== "lobby") table.updateRoom(room);
      else draw();
    },
    onError: (msg) => {
      if (msg.code === "bad_token" || msg.code === "seat_lost") {
        memory.setSeat(code, null);
        note = "Your seat in this room is gone. Join again.";
        conn.close();
        conn = null;
        joinForm();
        return;
      }
      if (msg.code === "no_room" || msg.code === "room_closed") {
        conn.close();
        clear(page).append(errorBox(msg.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
        return;
      }
      if (table) table.showError(msg.message);
      else {
        note = msg.message;
        draw();
      }
    },
    onBusy: (busy) => {
      if (table) table.setBusy(busy);
      page.querySelectorAll(".host-controls button").forEach((b) => { b.disabled = busy; });
    },
    onClosed: (reason) => {
      clear(page).append(errorBox(`The room is closed: ${reason}.`), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
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
    }
    const bar = page.querySelector(".room-bar");
    clear(bar).append(roomBar(), hostControls());
    table.update(state);
  }

  function roomBar() {
    const variant = catalog.variants[room.variant];
    const link = `${location.origin}/r/${code}`;
    return h("div.room-facts", {},
      h("span", {}, h("strong", {}, variant.title), ` · room `, h("strong.code", {}, code), ` · game ${room.game_no}`),
      h("span", {}, conn.seat === null ? "watching" : `you are seat ${conn.seat}`, conn.isHost ? " · host" : "", ` · ${plural(room.spectators || 0, "spectator")}`),
      h("button.copy", { type: "button", onclick: () => copy(link) }, "Copy the link"));
  }

  function copy(text) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => setStatus(`Copied ${text}`), () => setStatus(text));
    else setStatus(text);
  }

  function hostControls() {
    if (!conn || !conn.isHost) return h("div");
    const box = h("details.host-controls", { open: room.phase === "lobby" || undefined }, h("summary", {}, "Host controls"));
    const allowedSeats = room.phase === "lobby" || room.phase === "hand_over";
    const list = h("ul.seat-list");
    room.seats.forEach((seat) => {
      const pick = h("select", { "aria-label": `bot for seat ${seat.seat}` }, catalog.bots.map((b) => h("option", { value: b, selected: b === "normal" }, botWords(b))));
      const row = h("li", {}, h("span.seat-title", {}, `Seat ${seat.seat}: `, seat.kind === "open" ? h("em", {}, "open") : `${seat.name}${seat.kind === "bot" ? " (bot)" : ""}`));
      if (allowedSeats) {
        if (seat.kind === "open") row.append(pick, h("button", { type: "button", dataset: { verb: "add-bot" }, onclick: () => conn.host("add_bot", { seat: seat.seat, bot: pick.value }) }, "Add bot"));
        else if (seat.seat !== conn.seat) {
          row.append(pick, h("button", { type: "button", onclick: () => conn.host("replace", { seat: seat.seat, bot: pick.value }) }, "Replace with bot"));
          row.append(h("button", { type: "button", onclick: () => conn.host("kick", { seat: seat.seat }) }, "Free the seat"));
        }
      }
      list.append(row);
    });
    box.append(list);
    const buttons = h("div.row");
    if (room.phase === "lobby" || room.phase === "finished") buttons.append(h("button.primary#start-game", { type: "button", dataset: { verb: "host-start" }, onclick: () => conn.host("start") }, room.phase === "lobby" ? "Start the game" : "Start a new game"));
    if (room.phase === "hand_over") buttons.append(h("button.primary", { type: "button", onclick: () => conn.host("continue") }, "Next hand now"));
    buttons.append(h("button.danger", { type: "button", onclick: () => { if (confirm("Close the room for everyone?")) conn.host("close"); } }, "Close the room"));
    box.append(buttons);
    if (!allowedSeats && room.phase === "playing") box.append(h("p.hint", {}, "Seats can be changed between hands."));
    return box;
  }

  function waitingRoom() {
    const variant = catalog.variants[room.variant];
    const link = `${location.origin}/r/${code}`;
    const box = h("section.panel.waiting", { "aria-labelledby": "waiting-title" });
    box.append(
      h("h2#waiting-title", {}, `${variant.title}: room ${code}`),
      h("p", {}, "Send this link to the other players: ", h("a#room-link", { href: link }, link), " ", h("button.copy", { type: "button", onclick: () => copy(link) }, "Copy")),
      h("p", {}, "Or tell them the code ", h("strong.code", {}, code), ". Spectators open ", h("a", { href: `${link}#watch` }, "the link with #watch"), "."),
    );
    if (note) box.append(errorBox(note));
    const seats = h("ol.seat-list");
    room.seats.forEach((seat) => seats.append(h("li", {}, seat.kind === "open" ? h("em", {}, "open seat") : `${seat.name}${seat.kind === "bot" ? ` (${seat.bot} bot)` : ""}${seat.seat === conn.seat ? " (you)" : ""}`)));
    box.append(h("h3", {}, "Seats"), seats);
    const opts = Object.entries(room.options).map(([k, v]) => `${words(k)}: ${formatValue(v)}`).join("; ");
    box.append(h("p.hint", {}, `Options: ${opts}. Turn timer: ${room.settings.turn_seconds ? `${room.settings.turn_seconds} s` : "off"}.`));
    if (conn.isHost) box.append(hostControls());
    else box.append(h("p", {}, conn.seat === null ? "You are watching. The host starts the game." : "Waiting for the host to start the game."));
    if (conn.seat !== null && !conn.isHost) box.append(h("button", { type: "button", onclick: () => { conn.leave(); memory.setSeat(code, null); location.assign("/"); } }, "Leave the seat"));
    return box;
  }

  async function joinForm() {
    clear(page);
    let info = null;
    try {
      info = await api(`/api/rooms/${code}`);
    } catch (err) {
      page.append(errorBox(err.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
      return;
    }
    const variant = catalog.variants[info.variant];
    const open = info.seats.filter((s) => s.kind === "open").length;
    const form = h("form.panel#join-form", { "aria-labelledby": "join-form-title" });
    const name = h("input#join-name", { type: "text", maxlength: "40", value: memory.name(), autocomplete: "nickname" });
    form.append(
      h("h2#join-form-title", {}, `${variant.title}: room ${code}`),
      h("p", {}, `${plural(info.players, "seat")}, ${plural(open, "open seat")}; the game is ${words(info.phase)}.`),
      note ? errorBox(note) : null,
      h("div.field", {}, h("label", { for: "join-name" }, "Your name"), name),
      h("div.row", {}, h("button.primary#join-player", { type: "submit", disabled: open === 0 || undefined }, "Join as a player"), h("button#join-spectator", { type: "button", onclick: () => { clear(page); start("spectator", ""); } }, "Watch as a spectator")),
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

  if (location.hash === "#watch") start("spectator", "");
  else if (saved) start("player", "");
  else if (autoName) start("player", autoName);
  else joinForm();

  return () => {
    if (conn) conn.close();
    if (table) table.destroy();
  };
}
