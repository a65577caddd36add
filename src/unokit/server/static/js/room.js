// A room: the invite page (who hosts, which rules, join or watch), the waiting room (seats,
// the link to send, the host's controls) and the table once a game runs. The connection says
// hello again with the seat's token after every drop, so a reload gives the seat back.

import { avatarSvg } from "./avatars.js";
import { h, clear } from "./dom.js";
import { api, memory, RoomConnection } from "./net.js";
import { turnAlert } from "./alerts.js";
import { openHelp } from "./help.js";
import { rulesOn } from "./options.js";
import { pageTools, setStatus } from "./page.js";
import { TableView } from "./table.js";
import { botStrength, t } from "./text.js";

function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

function seatLine(seat, me, phase) {
  const open = seat.kind === "open";
  const name = open ? t("web.seat.open", { seat: seat.seat + 1 }) : seat.name;
  const bits = [];
  if (seat.kind === "bot") bits.push(botStrength(seat.bot));
  if (seat.host) bits.push(t("web.seat.host"));
  if (seat.seat === me) bits.push(t("web.seat.you"));
  return h(`li.seat-line${open ? ".open" : ""}${seat.seat === me ? ".me" : ""}`, { dataset: { seat: String(seat.seat), kind: seat.kind } },
    open ? h("span.avatar.empty", { "aria-hidden": "true" }) : avatarSvg(seat.name),
    h("span.seat-who", {}, h("span.name", {}, name), bits.length ? h("span.hint", {}, ` · ${bits.join(" · ")}`) : null, seat.host ? h("span.crown", { "aria-hidden": "true" }, " ♛") : null),
    phase === "lobby" && open ? h("span.hint", {}, t("web.seat.waiting")) : null);
}

export function roomPage(app, code, catalog) {
  const page = h("div.room");
  app.append(page);
  let conn = null;
  let table = null;
  let room = null;
  let state = null;
  let note = null;
  let dismissedStandin = 0;

  const saved = memory.seat(code);
  const autoName = sessionStorage.getItem(`unokit.join.${code}`);
  const start = (role, name) => {
    conn = new RoomConnection(code, { role, name, token: saved && role === "player" ? saved.token : null, hostToken: memory.host(code) }, handlers);
  };

  const handlers = {
    onStatus: (text, kind) => setStatus(text, kind),
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
      if (msg.code === "bad_token") {
        memory.setSeat(code, null);
        note = t("web.room.seat_gone");
        conn.close();
        conn = null;
        joinForm();
        return;
      }
      if (msg.code === "no_room" || msg.code === "room_closed") {
        conn.close();
        clear(page).append(errorBox(msg.message), h("p", {}, h("a", { href: "/" }, t("web.room.back_to_lobby"))));
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
      clear(page).append(errorBox(t("web.room.closed", { reason })), h("p", {}, h("a", { href: "/" }, t("web.room.back_to_lobby"))));
    },
  };

  /** The buttons of the page's bar: the room's code and link, help, the drawer. */
  function tools() {
    const link = `${location.origin}/r/${code}`;
    const buttons = [
      h("button.tool.invite", { type: "button", title: t("web.room.invite"), "aria-label": t("web.room.invite"), onclick: () => invite(link) }, h("span.code", {}, code)),
      h("button.tool", { type: "button", title: t("web.help.open"), "aria-label": t("web.help.open"), dataset: { command: "help" }, onclick: () => openHelp(catalog, room) }, "?"),
    ];
    if (table) buttons.push(h("button.tool.drawer-toggle", { type: "button", title: t("web.drawer.open"), "aria-label": t("web.drawer.open"), "aria-expanded": "false", dataset: { toggles: "drawer" }, onclick: () => table.toggleDrawer() }, "☰"));
    pageTools(buttons);
  }

  async function invite(link) {
    if (navigator.share && matchMedia("(pointer: coarse)").matches) {
      try {
        await navigator.share({ title: t("web.room.share_title"), url: link });
        return;
      } catch (err) {
        /* closed: copy instead */
      }
    }
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => setStatus(t("web.room.copied", { link }), "note"), () => setStatus(link, "note"));
    else setStatus(link, "note");
  }

  function draw() {
    if (!room) return;
    if (room.phase === "lobby" || !state || !state.observation) {
      if (table) {
        table.destroy();
        table = null;
      }
      document.body.classList.remove("at-table");
      clear(page).append(waitingRoom());
      tools();
      return;
    }
    if (!table) {
      clear(page);
      const body = h("div.table-root");
      page.append(body);
      document.body.classList.add("at-table");
      table = new TableView(body, conn, code, { onTurn: (text) => turnAlert(text) });
      tools();
      table.hostControls = hostControls;
    }
    const me = state.seat;
    const moves = me !== null && me !== undefined && room.seats[me] ? room.seats[me].standin_moves : 0;
    if (moves < dismissedStandin) dismissedStandin = 0;
    table.standinDismissed = dismissedStandin;
    table.onBack = () => { dismissedStandin = moves; };
    table.update(state);
  }

  function hostControls() {
    if (!conn || !conn.isHost) return null;
    const box = h("section.host-controls", { "aria-labelledby": "host-title" }, h("h3#host-title", {}, t("web.host.title")));
    const allowedSeats = room.phase === "lobby" || room.phase === "hand_over";
    const list = h("ul.seat-list");
    room.seats.forEach((seat) => {
      const pick = h("select", { "aria-label": t("web.host.bot_for", { seat: seat.seat + 1 }) }, catalog.bots.map((b) => h("option", { value: b, selected: b === "heuristic" }, botStrength(b))));
      const row = seatLine(seat, conn.seat, room.phase);
      if (allowedSeats && seat.seat !== conn.seat) {
        const actions = h("span.seat-actions");
        if (seat.kind === "open") actions.append(pick, h("button", { type: "button", dataset: { verb: "add-bot" }, onclick: () => conn.host("add_bot", { seat: seat.seat, bot: pick.value }) }, t("web.host.add_bot")));
        else if (seat.kind === "human") {
          actions.append(pick, h("button", { type: "button", onclick: () => conn.host("replace", { seat: seat.seat, bot: pick.value }) }, t("web.host.replace")));
          actions.append(h("button", { type: "button", onclick: () => conn.host("kick", { seat: seat.seat }) }, t("web.host.free")));
        } else {
          actions.append(pick, h("button", { type: "button", onclick: () => conn.host("replace", { seat: seat.seat, bot: pick.value }) }, t("web.host.change_bot")));
          actions.append(h("button", { type: "button", onclick: () => conn.host("kick", { seat: seat.seat }) }, t("web.host.free")));
        }
        row.append(actions);
      }
      list.append(row);
    });
    box.append(list);
    const buttons = h("div.row");
    if (room.phase === "lobby" || room.phase === "finished") buttons.append(h("button.primary.big#start-game", { type: "button", dataset: { verb: "host-start" }, onclick: () => conn.host("start") }, room.phase === "lobby" ? t("web.host.start") : t("web.over.new_game")));
    if (room.phase === "hand_over") buttons.append(h("button.primary", { type: "button", onclick: () => conn.host("continue") }, t("web.summary.next_now")));
    buttons.append(h("button.danger", { type: "button", onclick: () => { if (confirm(t("web.host.close_confirm"))) conn.host("close"); } }, t("web.host.close")));
    box.append(buttons);
    if (room.phase === "playing") box.append(h("p.hint", {}, t("web.host.between_hands")));
    return box;
  }

  function rulesBox(info) {
    const rules = rulesOn(catalog, info);
    return h("div.rules-on", {}, h("h3", {}, t("web.room.rules")), rules.length ? h("ul.chips-list", {}, rules.map((r) => h("li.rule-chip", {}, r))) : h("p", {}, t("web.room.official")));
  }

  function waitingRoom() {
    const variant = catalog.variants[room.variant];
    const link = `${location.origin}/r/${code}`;
    const box = h("section.panel.waiting", { "data-region": "lobby", "aria-labelledby": "waiting-title" });
    box.append(
      h("h2#waiting-title", {}, t("web.room.title", { variant: variant.title })),
      h("div.invite-box", {},
        h("p", {}, t("web.room.send_link")),
        h("p.link-row", {}, h("a#room-link", { href: link }, link), h("button.copy", { type: "button", onclick: () => invite(link) }, t("web.room.copy"))),
        h("p.hint", {}, t("web.room.or_code"), " ", h("strong.code", {}, code), " · ", h("a", { href: `${link}#watch` }, t("web.room.watch_link")))),
    );
    if (note) box.append(errorBox(note));
    const seats = h("ol.seat-list");
    room.seats.forEach((seat) => seats.append(seatLine(seat, conn.seat, room.phase)));
    box.append(h("h3", {}, t("web.room.seats")), seats, rulesBox(room));
    if (conn.isHost) box.append(hostControls());
    else box.append(h("p.wait-note", {}, conn.seat === null ? t("web.room.watching") : t("web.room.waiting_host")));
    if (conn.seat !== null && !conn.isHost) box.append(h("button", { type: "button", onclick: () => { conn.leave(); memory.setSeat(code, null); location.assign("/"); } }, t("web.room.leave")));
    return box;
  }

  /** The invite page: who hosts, what is played, and a seat or a place to watch. */
  async function joinForm() {
    clear(page);
    document.body.classList.remove("at-table");
    let info = null;
    try {
      info = await api(`/api/rooms/${code}`);
    } catch (err) {
      page.append(errorBox(err.message), h("p", {}, h("a", { href: "/" }, t("web.room.back_to_lobby"))));
      return;
    }
    const variant = catalog.variants[info.variant];
    const open = info.seats.filter((s) => s.kind === "open").length;
    const host = info.seats.find((s) => s.host);
    const form = h("form.panel.invite#join-form", { "data-region": "lobby", "aria-labelledby": "join-form-title" });
    const name = h("input#join-name", { type: "text", maxlength: "40", value: memory.name(), autocomplete: "nickname", required: true });
    const phaseWords = t(`web.phase.${info.phase}`, {}, "");
    form.append(...[
      h("h2#join-form-title", {}, host ? t("web.invite.title_host", { host: host.name, variant: variant.title }) : t("web.invite.title", { variant: variant.title })),
      h("p", {}, t("web.invite.seats", { count: info.players, open }), phaseWords ? ` ${phaseWords}` : ""),
      note ? errorBox(note) : null,
      h("ol.seat-list", {}, info.seats.map((s) => seatLine(s, null, info.phase))),
      rulesBox(info),
      h("div.field", {}, h("label", { for: "join-name" }, t("web.lobby.your_name")), name),
      h("div.row", {},
        h("button.primary.big#join-player", { type: "submit", disabled: open === 0 || undefined }, t("web.invite.join")),
        h("button#join-spectator", { type: "button", onclick: () => { clear(page); start("spectator", ""); } }, t("web.invite.watch"))),
      open === 0 ? h("p.hint", {}, t("web.invite.full")) : null,
    ].filter(Boolean));
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
    pageTools([]);
  }

  if (location.hash === "#watch") start("spectator", "");
  else if (saved) start("player", "");
  else if (autoName) start("player", autoName);
  else joinForm();

  return () => {
    if (conn) conn.close();
    if (table) table.destroy();
    document.body.classList.remove("at-table");
  };
}
