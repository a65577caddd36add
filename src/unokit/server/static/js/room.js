// A room: the invite page (who hosts, which rules, join or watch), the waiting room (seats,
// the link to send, the host's controls, the chat) and the table once a game runs. The
// connection says hello again with the seat's token after every drop, so a reload gives the
// seat back.

import { turnAlert } from "./alerts.js";
import { avatarSvg } from "./avatars.js";
import { ChatPanel } from "./chat.js";
import { clear, h } from "./dom.js";
import { openHelp } from "./help.js";
import { t } from "./i18n.js";
import { api, errorText, memory, RoomConnection } from "./net.js";
import { botOptions, botStrength, rulesOn } from "./options.js";
import { pageTools, setStatus } from "./page.js";
import { TableView } from "./table.js";
import { playAgainButtons, playNow } from "./together.js";
import { runs } from "./features.js";
import { standingsLink } from "./standings.js";
import { arenaOf, backToArena } from "./arena.js";

/** @param {string} message */
function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

/**
 * A seat in the lists of the waiting room and the invite page: avatar, name, what it is.
 * @param {{host_seat: number | null}} room the room, or the room's facts (GET /api/rooms/CODE)
 * @param {import("./types").Seat} seat
 * @param {number | null} me the reader's seat
 */
function seatLine(room, seat, me) {
  const open = seat.kind === "open";
  const name = open ? t("seat.numbered", { number: seat.seat + 1 }) : seat.name;
  const bits = [];
  if (seat.kind === "bot") bits.push(botStrength(/** @type {string} a bot's seat names it */ (seat.bot)));
  if (room.host_seat === seat.seat) bits.push(t("room.host"));
  if (seat.seat === me) bits.push(t("seat.you_mark"));
  return h(`li.seat-line${open ? ".open" : ""}${seat.seat === me ? ".me" : ""}`,
    { dataset: { seat: String(seat.seat), kind: seat.kind, seatBox: String(seat.seat) } },
    open ? h("span.avatar.empty", { "aria-hidden": "true" }) : avatarSvg(seat.name || ""),
    h("span.seat-who", {}, h("span.name", {}, name), bits.length ? h("span.hint", {}, ` · ${bits.join(" · ")}`) : null,
      room.host_seat === seat.seat ? h("span.crown", { "aria-hidden": "true" }, " ♛") : null),
    open ? h("span.hint", {}, t("room.open_seat")) : null);
}

/**
 * At a public table: each seated person's share of finished games (of their games of the last
 * days, those they stayed in to the end), added to the seat lines of `list` when it comes.
 * @param {string} code
 * @param {HTMLElement} list
 */
async function showShares(code, list) {
  /** @type {{days: number, seats: {seat: number, games: number, share: number | null}[]}} */
  let found;
  try {
    found = await api(`/api/rooms/${code}/finishing`);
  } catch (err) {
    return; // the room went, or is no longer public: nothing to add
  }
  for (const seat of found.seats) {
    const line = list.querySelector(`li[data-seat="${seat.seat}"] .seat-who`);
    if (!line || seat.share === null) continue;
    const text = t("n.room.finished_share", { count: seat.games, percent: Math.round(seat.share * 100), days: found.days });
    line.append(h("span.hint.finish-share", { dataset: { share: String(seat.share) } }, ` · ${text}`));
  }
}

/** A trophy, drawn (an emoji needs a font the device may not have: it showed as an empty box). */
function trophyIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const cup = document.createElementNS("http://www.w3.org/2000/svg", "path");
  cup.setAttribute("d", "M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V17h3v2H8v-2h3v-2.1A5 5 0 0 1 8.3 12H8"
    + "a4 4 0 0 1-4-4V5h3zm-1 4v1a2 2 0 0 0 1.1 1.8L7 7zm12 0-.1 2.8A2 2 0 0 0 18 8V7zM7 20h10v1H7z");
  svg.append(cup);
  return svg;
}

/**
 * @param {HTMLElement} app
 * @param {string} code
 * @param {import("./types").Catalog} catalog
 * @param {((target: string | null) => WebSocket) | null} [openSocket] the room's transport (net.js, RoomConnection)
 */
export function roomPage(app, code, catalog, openSocket = null) {
  // A room of this device alone (another transport than the server's websocket) has no link to
  // share and no standings on the server.
  const own = openSocket !== null;
  const page = h("div.room");
  app.append(page);
  /** @type {ChatPanel | null} */
  let chat = null;
  /** @type {RoomConnection | null} made by start(); the page's parts that act are drawn once it is */
  let conn = null;
  /** @type {TableView | null} */
  let table = null;
  /** @type {import("./types").Room | null} */
  let room = null;
  /** @type {import("./types").State | null} */
  let state = null;
  /** @type {string | null} */
  let note = null;
  // The connection and the room for the parts of the page drawn once they are there: start()
  // connects before anything that acts is drawn, and nothing but the invite page is drawn
  // before the first state.
  const live = () => /** @type {RoomConnection} */ (conn);
  const shown = () => /** @type {import("./types").Room} */ (room);

  const saved = memory.seat(code);
  const autoName = sessionStorage.getItem(`unokit.join.${code}`);
  /**
   * Connect as a player or a spectator, under `name`.
   * @param {"player" | "spectator"} role
   * @param {string} name
   */
  const start = (role, name) => {
    const token = saved && role === "player" ? saved.token : null;
    conn = new RoomConnection(code, { role, name, token, hostToken: memory.host(code) }, handlers, openSocket);
    if (chat) chat.destroy();
    chat = new ChatPanel(conn);
  };

  /** @type {import("./net.js").Handlers} */
  const handlers = {
    onStatus: (status, params = {}) => setStatus(t(`net.${status}`, params), status),
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
    onChatError: (msg) => {
      if (chat) chat.error(msg);
      // A reaction sent from the table while the chat is out of sight: say why it was refused there.
      if (table && chat && !chat.inSight) table.showError(errorText(msg, table.names()));
    },
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
        live().close();
        conn = null;
        joinForm();
        return;
      }
      const playNowVariant = sessionStorage.getItem(`unokit.playnow.${code}`);
      if (playNowVariant && (msg.code === "room_full" || msg.code === "phase")) {
        // another player took the last seat first: find another table
        live().close();
        sessionStorage.removeItem(`unokit.playnow.${code}`);
        playNow(playNowVariant, memory.name()).catch((err) => clear(page).append(errorBox(errorText(err))));
        return;
      }
      if (msg.code === "no_room" || msg.code === "room_closed") {
        live().close();
        leaveTable();
        clear(page).append(errorBox(errorText(msg)), h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
        return;
      }
      if (table) table.showError(errorText(msg, table.names()));
      else {
        note = errorText(msg);
        draw();
      }
    },
    onBusy: (busy) => {
      if (table) table.setBusy(busy);
      page.querySelectorAll(/** @type {"button"} */ (".host-controls button")).forEach((b) => { b.disabled = busy; });
    },
    onClosed: (reason) => {
      leaveTable();
      const why = ["host", "idle"].includes(/** @type {string} */ (reason)) ? t(`room.closed.${reason}`) : t("room.closed.other");
      clear(page).append(errorBox(why), h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
    },
  };

  function leaveTable() {
    if (table) {
      table.destroy();
      table = null;
    }
    document.body.classList.remove("at-table");
  }

  /** The buttons of the page's bar: the room's code (to share the link), help, the drawer. */
  function tools() {
    const link = `${location.origin}/r/${code}`;
    /** @type {HTMLElement[]} */
    const buttons = own ? [] : [
      h("button.tool.invite", { type: "button", title: t("room.invite"), "aria-label": t("room.invite"), onclick: () => invite(link) },
        h("span.code", {}, code))];
    buttons.push(
      h("button.tool",
        { type: "button", title: t("help.open"), "aria-label": t("help.open"), dataset: { command: "help" },
          onclick: () => openHelp(catalog, shown()) },
        "?"));
    if (room && room.game_no > 0 && !own && runs("standings")) buttons.push(h("a.tool#standings-tool",
      { href: `/#/standings/${code}`, target: "_blank", rel: "noopener", title: t("standings.title"), "aria-label": t("standings.title") },
      trophyIcon()));
    if (table) buttons.push(h("button.tool.drawer-toggle",
      { type: "button", title: t("table.sidebar"), "aria-label": t("table.sidebar"), "aria-expanded": "false",
        dataset: { toggles: "drawer" }, onclick: () => /** @type {TableView} */ (table).toggleDrawer() },
      "☰"));
    pageTools(buttons);
    if (chat) chat.showUnread();
  }

  /** @param {string} link */
  async function invite(link) {
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      try {
        await navigator.share({ title: t("room.share_title"), url: link });
        return;
      } catch (err) {
        /* closed: copy instead */
      }
    }
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => setStatus(t("room.copied", { text: link }), "note"),
      () => setStatus(link, "note"));
    else setStatus(link, "note");
  }

  function draw() {
    if (!room) return;
    if (room.phase === "lobby" || !state || !state.observation) {
      leaveTable();
      clear(page).append(waitingRoom());
      if (chat) page.append(chat.element);
      tools();
      return;
    }
    if (!table) {
      clear(page);
      const body = h("div.table-root");
      page.append(body);
      document.body.classList.add("at-table");
      table = new TableView(body, live(), code, { onTurn: (text) => turnAlert(text) });
      table.chat = chat ? chat.element : null;
      table.hostControls = hostControls;
      const arena = arenaOf(code);
      // an arena's table plays one hand: its end leads back to the arena, which seats you again
      table.playAgain = () => arena ? [backToArena(arena)] : [
        ...playAgainButtons(shown(), live(), { onLeave: () => { memory.setSeat(code, null); location.assign("/"); } }),
        ...(own || !runs("standings") ? [] : [standingsLink(code)])];
      tools();
    }
    table.update(state);
  }

  function hostControls() {
    if (!conn || !live().isHost) return null;
    const box = h("section.host-controls", { "aria-labelledby": "host-title" }, h("h3#host-title", {}, t("host.controls")));
    const allowedSeats = shown().phase === "lobby" || shown().phase === "hand_over" || shown().phase === "finished";
    const muted = shown().muted || [];
    const list = h("ul.seat-list");
    shown().seats.forEach((seat) => {
      const pick = h("select", { "aria-label": t("host.bot_for_seat", { number: seat.seat + 1 }) }, botOptions(catalog, "normal", true));
      const row = seatLine(shown(), seat, live().seat);
      const actions = h("span.seat-actions");
      if (allowedSeats && seat.seat !== live().seat) {
        if (seat.kind === "open") actions.append(pick,
          h("button",
          { type: "button", dataset: { verb: "add-bot" }, onclick: () => live().host("add_bot", { seat: seat.seat, bot: pick.value }) },
          t("host.add_bot")));
        else {
          // A person's seat is given to a bot; a bot's seat to another bot.
          actions.append(pick,
            h("button", { type: "button", onclick: () => live().host("replace", { seat: seat.seat, bot: pick.value }) },
            seat.kind === "human" ? t("host.replace") : t("host.change_bot")));
          actions.append(h("button", { type: "button", onclick: () => live().host("kick", { seat: seat.seat }) }, t("host.kick")));
        }
      }
      if (seat.kind === "human" && seat.seat !== live().seat) {
        const isMuted = muted.includes(seat.seat);
        actions.append(h("button",
          { type: "button", dataset: { verb: isMuted ? "unmute" : "mute", seat: String(seat.seat) },
            onclick: () => live().host(isMuted ? "unmute" : "mute", { seat: seat.seat }) },
          isMuted ? t("host.unmute") : t("host.mute")));
      }
      if (actions.childNodes.length) row.append(actions);
      list.append(row);
    });
    box.append(list);
    const more = h("div.row");
    more.append(h("button",
      { type: "button", dataset: { verb: shown().spectators_muted ? "unmute" : "mute" },
        onclick: () => live().host(shown().spectators_muted ? "unmute" : "mute") },
      shown().spectators_muted ? t("host.unmute_spectators") : t("host.mute_spectators")));
    more.append(h("button",
      { type: "button", dataset: { verb: shown().public ? "make-private" : "make-public" },
        onclick: () => live().host(shown().public ? "make_private" : "make_public") },
      shown().public ? t("host.make_private") : t("host.make_public")));
    box.append(more);
    const buttons = h("div.row");
    if (shown().phase === "lobby" || shown().phase === "finished") buttons.append(h("button.primary.big#start-game",
      { type: "button", dataset: { verb: "host-start" }, onclick: () => live().host("start") },
      shown().phase === "lobby" ? t("host.start") : t("host.start_new")));
    if (shown().phase === "hand_over") buttons.append(h("button.primary", { type: "button", onclick: () => live().host("continue") },
      t("host.next_hand")));
    buttons.append(h("button.danger", { type: "button", onclick: () => { if (confirm(t("host.close_confirm"))) live().host("close"); } },
      t("host.close")));
    box.append(buttons);
    if (shown().phase === "playing") box.append(h("p.hint", {}, t("host.between_hands")));
    return box;
  }

  /**
   * What starts the game, for a player or spectator who is not the host: the bots' countdown in
   * a room that bots fill (Play now), how many more people it waits for, or the host.
   * @returns {HTMLElement}
   */
  function startNote() {
    const open = shown().seats.filter((seat) => seat.kind === "open").length;
    if (shown().fill_at) {
      const note = h("p.wait-note.fill-countdown", { role: "timer", dataset: { fillAt: String(shown().fill_at) } });
      fillCountdown(note);
      return note;
    }
    const fillSeconds = /** @type {number} the settings' number (undefined: none) */ ((shown().settings || {}).fill_seconds);
    if (fillSeconds > 0 || shown().host_seat === null || shown().host_seat === undefined) {
      return h("p.wait-note", {}, t("n.room.starting_when", { count: open }));
    }
    return h("p.wait-note", {}, live().seat === null ? t("room.watching_wait") : t("room.waiting_host"));
  }

  /**
   * The words of a bots' countdown, from the wall-clock time it ends (its data-fill-at).
   * @param {HTMLElement} node
   */
  function fillCountdown(node) {
    const left = Math.max(0, Math.ceil(Number(node.dataset.fillAt) - Date.now() / 1000));
    node.textContent = left > 0 ? t("n.room.bots_in", { count: left }) : t("room.bots_now");
  }
  const ticker = setInterval(() => page.querySelectorAll(/** @type {"p"} */ (".fill-countdown")).forEach(fillCountdown), 250);

  /**
   * The rules a room plays, as chips.
   * @param {{variant: string, options: Record<string, unknown>}} info the room, or the room's facts
   */
  function rulesBox(info) {
    const rules = rulesOn(catalog, info);
    return h("div.rules-on", {}, h("h3", {}, t("lobby.rules")),
      rules.length ? h("ul.chips-list", {}, rules.map((r) => h("li.rule-chip", {}, r))) : h("p", {}, t("together.standard_rules")));
  }

  function waitingRoom() {
    const link = `${location.origin}/r/${code}`;
    const box = h("section.panel.waiting", { "data-region": "lobby", "aria-labelledby": "waiting-title" });
    const arena = arenaOf(code);
    box.append(
      h("h2#waiting-title", {}, t("room.title", { variant: t(`variant.${shown().variant}`), code })),
      // an arena's table is set for its players alone: nobody to invite (startNote says when bots sit)
      arena ? h("p.arena-table-note", {}, t("arena.table_waiting"), " ", h("a", { href: `/#/arena/${arena}` }, t("arena.back"))) :
      h("div.invite-box", {},
        h("p", {}, t("room.send_link")),
        h("p.link-row", {}, h("a#room-link", { href: link }, link),
          h("button.copy", { type: "button", onclick: () => invite(link) }, t("room.copy_link"))),
        h("p.hint", {}, t("room.tell_code"), " ", h("strong.code", {}, code), " · ",
          h("a", { href: `${link}#watch` }, t("room.watch_link")))),
    );
    if (note) box.append(errorBox(note));
    const seats = h("ol.seat-list");
    shown().seats.forEach((seat) => seats.append(seatLine(shown(), seat, live().seat)));
    box.append(h("h3", {}, t("room.seats")), seats, rulesBox(shown()));
    if (shown().public && runs("finishing")) showShares(code, seats);
    if (shown().game_no > 0 && runs("standings")) box.append(h("p", {}, standingsLink(code)));
    if (live().isHost) box.append(/** @type {HTMLElement} */ (hostControls()));
    else box.append(startNote());
    if (live().seat !== null && !live().isHost) box.append(h("button",
      { type: "button", onclick: () => { live().leave(); memory.setSeat(code, null); location.assign("/"); } }, t("room.leave_seat")));
    return box;
  }

  /** The invite page: who hosts, what is played, who sits, and a seat or a place to watch. */
  async function joinForm() {
    clear(page);
    leaveTable();
    /** @type {import("./types").Room} the room as its invite shows it */
    let info;
    try {
      info = await api(`/api/rooms/${code}`);
    } catch (err) {
      page.append(errorBox(errorText(err)), h("p", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
      return;
    }
    const open = info.seats.filter((s) => s.kind === "open").length;
    const host = info.host_seat !== null && info.host_seat !== undefined ? info.seats[info.host_seat] : null;
    const form = h("form.panel.invite#join-form", { "data-region": "lobby", "aria-labelledby": "join-form-title" });
    const name = h("input#join-name", { type: "text", maxlength: "40", value: memory.name(), autocomplete: "nickname", required: true });
    const variant = t(`variant.${info.variant}`);
    form.append(...[
      h("h2#join-form-title", {}, host ? t("room.invited_by", { name: host.name, variant }) : t("room.title", { variant, code })),
      h("p", {},
        t("room.join_facts",
        { seats: t("n.seats", { count: info.players }), open: t("n.open_seats", { count: open }), phase: t(`phase.${info.phase}`) })),
      note ? errorBox(note) : null,
      h("ol.seat-list#join-seats", {}, info.seats.map((s) => seatLine(info, s, null))),
      rulesBox(info),
      h("div.field", {}, h("label", { for: "join-name" }, t("lobby.your_name")), name),
      h("div.row", {},
        h("button.primary.big#join-player", { type: "submit", disabled: open === 0 || undefined }, t("room.join_player")),
        h("button#join-spectator", { type: "button", onclick: () => { clear(page); start("spectator", name.value.trim()); } },
          t("room.join_spectator"))),
      open === 0 ? h("p.hint", {}, t("room.full")) : null,
    ].filter((part) => part !== null));
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
    if (info.public) showShares(code, /** @type {HTMLElement} */ (form.querySelector("#join-seats")));
    pageTools([]);
  }

  if (location.hash === "#watch") start("spectator", memory.name());
  else if (saved) start("player", "");
  else if (autoName) start("player", autoName);
  else joinForm();

  return () => {
    clearInterval(ticker);
    if (conn) conn.close();
    if (chat) chat.destroy();
    leaveTable();
  };
}
