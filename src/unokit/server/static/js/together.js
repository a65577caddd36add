// Playing together: "play again" after a game (who is ready, for everyone to see), the lobby's
// list of public rooms with "Play now", and "My games" (this browser's finished games, kept by
// the server under the browser's player identity).

import { api, errorText, memory } from "./net.js";
import { clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";

// ---------------------------------------------------------------------- play again

/** The play-again area of a finished game: every player's mark, and this seat's buttons. */
export function playAgainPanel(room, conn, { onLeave }) {
  const box = h("section.play-again", { "aria-labelledby": "play-again-title", dataset: { region: "play-again" } });
  box.append(h("h3#play-again-title", {}, t("together.play_again_title")));
  const list = h("ul.ready-list");
  for (const seat of room.seats) {
    if (seat.kind === "open") {
      list.append(h("li", { dataset: { seat: String(seat.seat), ready: "open" } }, h("em", {}, t("together.open_seat"))));
      continue;
    }
    const mark = seat.kind === "bot" ? t("together.bot_plays_along") : seat.ready ? t("together.ready") : t("together.not_yet");
    const name = seat.kind === "bot" && seat.bot ? `${seat.name} · ${t(`bot.${seat.bot}`)}` : seat.name;
    list.append(h(`li${seat.ready ? ".ready" : ""}`, { dataset: { seat: String(seat.seat), ready: seat.kind === "bot" ? "bot" : String(seat.ready) } },
      h("span.ready-name", {}, seat.seat === conn.seat ? t("seat.you", { name }) : name), " — ", h("span.ready-mark", {}, mark)));
  }
  box.append(list, h("p.hint", {}, t("together.next_when_ready")));
  if (conn.seat !== null && conn.seat !== undefined) {
    const mine = room.seats[conn.seat];
    const ready = Boolean(mine && mine.ready);
    box.append(h("div.row", {},
      h("button.primary#play-again", { type: "button", "aria-pressed": String(ready), onclick: () => conn.ready(!ready) }, ready ? t("together.ready_undo") : t("together.play_again")),
      h("button#leave-table", { type: "button", onclick: () => { if (conn.leave()) onLeave(); } }, t("together.leave_table"))));
  }
  return box;
}

// ---------------------------------------------------------------------- the lobby's list

/** The options a room changed, as people read them: "Target score: 300, Stacking: same card". */
function optionWords(options) {
  const parts = Object.entries(options || {}).map(([name, value]) => {
    let shown;
    if (Array.isArray(value)) shown = value.join(" ");
    else if (typeof value === "number" || value === null) shown = value === null ? t("lobby.none") : String(value);
    else if (name === "stacking" && typeof value === "boolean") shown = t(value ? "option.stacking.same" : "option.stacking.false");
    else shown = t(`option.${name}.${value}`);
    return t("room.option_value", { option: t(`option.${name}`), value: shown });
  });
  return parts.length ? parts.join(t("list.separator")) : t("together.standard_rules");
}

/** "Play now" and the public rooms, refreshed every few seconds; returns [element, stop]. */
export function publicRoomsPanel(catalog, nameInput) {
  const panel = h("section.panel#public-rooms", { "aria-labelledby": "public-title" });
  const names = Object.keys(catalog.variants);
  const variant = h("select#play-now-variant", { "aria-label": t("together.play_now_variant") }, names.map((n) => h("option", { value: n }, t(`variant.${n}`))));
  const message = h("div.form-message", { "aria-live": "polite" });
  const button = h("button.primary#play-now", { type: "button" }, t("together.play_now"));
  button.addEventListener("click", async () => {
    const name = nameInput.value.trim();
    clear(message);
    if (!name) {
      message.append(h("p.error", { role: "alert" }, t("lobby.name_first")));
      nameInput.focus();
      return;
    }
    button.disabled = true;
    try {
      await playNow(variant.value, name);
    } catch (err) {
      message.append(h("p.error", { role: "alert" }, errorText(err)));
      button.disabled = false;
    }
  });
  const waiting = h("ul.room-list#waiting-rooms");
  const playing = h("ul.room-list#playing-rooms");
  panel.append(
    h("h2#public-title", {}, t("together.find_game")),
    h("p.hint", {}, t("together.play_now_hint")),
    h("div.row", {}, variant, button),
    message,
    h("h3", {}, t("together.waiting_rooms")), waiting,
    h("h3", {}, t("together.games_to_watch")), playing,
  );
  const refresh = async () => {
    let found;
    try {
      found = await api("/api/lobby");
    } catch (err) {
      return;
    }
    clear(waiting).append(...(found.waiting.length ? found.waiting.map((room) => roomItem(catalog, room, false)) : [h("li.none", {}, t("together.no_waiting"))]));
    clear(playing).append(...(found.playing.length ? found.playing.map((room) => roomItem(catalog, room, true)) : [h("li.none", {}, t("together.no_playing"))]));
  };
  refresh();
  const timer = setInterval(refresh, 5000);
  return [panel, () => clearInterval(timer)];
}

function roomItem(catalog, room, watch) {
  const host = room.host ? t("together.host", { name: room.host }) : t("together.open_table");
  const seats = watch ? t("n.together.players_of", { count: room.names.length, total: room.players }) : t("n.together.open_of", { count: room.open_seats, total: room.players });
  return h("li", { dataset: { room: room.room } },
    h("span.room-title", {}, t(`variant.${room.variant}`)), ` · ${optionWords(room.options)} · ${seats} · ${host} `,
    h("a.button", { href: watch ? `/r/${room.room}#watch` : `/r/${room.room}` }, watch ? t("together.watch") : t("together.join")));
}

/** Find a public room of `variant` with an open seat (or open one) and go and sit in it. */
export async function playNow(variant, name) {
  const found = await api("/api/play-now", { variant });
  memory.setName(name);
  sessionStorage.setItem(`unokit.join.${found.room}`, name);
  sessionStorage.setItem(`unokit.playnow.${found.room}`, variant);
  location.assign(`/r/${found.room}`);
}

// ---------------------------------------------------------------------- my games

/** The "My games" page: this browser's finished games, each to replay or download. */
export function myGamesPage(app, catalog) {
  const page = h("section.panel.my-games", { "aria-labelledby": "my-games-title" });
  app.append(page);
  const draw = async () => {
    clear(page).append(h("h1#my-games-title", {}, t("ui.nav.games")));
    let found;
    try {
      found = await api("/api/my-games", { player: memory.identity() });
    } catch (err) {
      page.append(h("p.error", { role: "alert" }, errorText(err)));
      return;
    }
    page.append(h("p.hint", {}, t("n.together.my_games_hint", { count: Math.round(found.retention_days) }), " ", t("n.together.records_hint", { count: Math.round(found.records_days) })));
    if (!found.games.length) page.append(h("p.none", {}, t("together.no_games")));
    else {
      const table = h("table.games", {}, h("caption.visually-hidden", {}, t("together.finished_games")));
      const heads = [t("together.when"), t("together.game"), t("together.players"), t("together.result"), ""];
      table.append(h("thead", {}, h("tr", {}, heads.map((title) => h("th", { scope: "col" }, title)))));
      const body = h("tbody");
      for (const game of found.games) {
        const winners = game.winners.map((s) => game.names[s]).join(t("list.separator"));
        const result = game.winners.includes(game.seat) ? t("together.you_won") : t("together.won", { winners });
        body.append(h("tr", { dataset: { room: game.room, game: String(game.game) } },
          h("td", {}, new Date(game.at * 1000).toLocaleString(lang())),
          h("td", {}, t("together.game_in_room", { variant: t(`variant.${game.variant}`), code: game.room, number: game.game })),
          h("td", {}, game.names.map((n, i) => (i === game.seat ? t("seat.you", { name: n }) : n)).join(t("list.separator"))),
          h("td", {}, `${result} · ${game.scores.join(" / ")}`),
          h("td.links", {},
            h("a.button", { href: `/#/replay/${game.room}/${game.game}` }, t("together.replay")),
            " ",
            h("a.button.download", { href: game.record, download: `unokit-${game.room}-${game.game}.json` }, t("together.download")))));
      }
      table.append(body);
      page.append(table);
    }
    page.append(h("div.row", {}, h("button.danger#forget-me", {
      type: "button",
      onclick: async () => {
        if (!confirm(t("together.forget_confirm"))) return;
        await api("/api/my-games/forget", { player: memory.identity() });
        memory.forgetIdentity();
        draw();
      },
    }, t("together.forget_me"))));
  };
  draw();
  return () => {};
}
