// Playing together: "play again" after a game (who is ready, for everyone to see), the lobby's
// list of public rooms with "Play now", and "My games" (this browser's finished games, kept by
// the server under the browser's player identity).

import { api, memory } from "./net.js";
import { clear, h, plural, words } from "./dom.js";

// ---------------------------------------------------------------------- play again

/** The play-again area of a finished game: every player's mark, and this seat's buttons. */
export function playAgainPanel(room, conn, { onLeave }) {
  const box = h("section.play-again", { "aria-labelledby": "play-again-title", dataset: { region: "play-again" } });
  box.append(h("h3#play-again-title", {}, "Play again?"));
  const list = h("ul.ready-list");
  for (const seat of room.seats) {
    if (seat.kind === "open") {
      list.append(h("li", { dataset: { seat: String(seat.seat), ready: "open" } }, h("em", {}, "open seat: a newcomer or a bot takes it")));
      continue;
    }
    const mark = seat.kind === "bot" ? "plays along" : seat.ready ? "ready" : "not yet";
    list.append(h(`li${seat.ready ? ".ready" : ""}`, { dataset: { seat: String(seat.seat), ready: seat.kind === "bot" ? "bot" : String(seat.ready) } },
      h("span.ready-name", {}, seat.name, seat.seat === conn.seat ? " (you)" : ""), " — ", h("span.ready-mark", {}, mark)));
  }
  box.append(list, h("p.hint", {}, "The next game starts when everyone here is ready."));
  if (conn.seat !== null && conn.seat !== undefined) {
    const mine = room.seats[conn.seat];
    const ready = Boolean(mine && mine.ready);
    box.append(h("div.row", {},
      h("button.primary#play-again", { type: "button", "aria-pressed": String(ready), onclick: () => conn.ready(!ready) }, ready ? "Ready: waiting for the others (undo)" : "Play again"),
      h("button#leave-table", { type: "button", onclick: () => { if (conn.leave()) onLeave(); } }, "Leave the table")));
  }
  return box;
}

// ---------------------------------------------------------------------- the lobby's list

/** Options as people read them: "target 300, stacking". */
function optionWords(options) {
  const parts = Object.entries(options || {}).map(([name, value]) => (value === true ? words(name) : value === false ? `no ${words(name)}` : `${words(name)} ${Array.isArray(value) ? value.join(" ") : words(String(value))}`));
  return parts.length ? parts.join(", ") : "standard rules";
}

/** "Play now" and the public rooms, refreshed every few seconds; returns [element, stop]. */
export function publicRoomsPanel(catalog, nameInput) {
  const panel = h("section.panel#public-rooms", { "aria-labelledby": "public-title" });
  const names = Object.keys(catalog.variants);
  const variant = h("select#play-now-variant", { "aria-label": "Variant to play now" }, names.map((n) => h("option", { value: n }, catalog.variants[n].title)));
  const message = h("div.form-message", { "aria-live": "polite" });
  const button = h("button.primary#play-now", { type: "button" }, "Play now");
  button.addEventListener("click", async () => {
    const name = nameInput.value.trim();
    clear(message);
    if (!name) {
      message.append(h("p.error", { role: "alert" }, "Write your name first."));
      nameInput.focus();
      return;
    }
    button.disabled = true;
    try {
      await playNow(variant.value, name);
    } catch (err) {
      message.append(h("p.error", { role: "alert" }, err.message));
      button.disabled = false;
    }
  });
  const waiting = h("ul.room-list#waiting-rooms");
  const playing = h("ul.room-list#playing-rooms");
  panel.append(
    h("h2#public-title", {}, "Find a game"),
    h("p.hint", {}, "Play now seats you at a public table of the variant, or opens one that bots fill if nobody comes."),
    h("div.row", {}, variant, button),
    message,
    h("h3", {}, "Public rooms waiting for players"), waiting,
    h("h3", {}, "Games to watch"), playing,
  );
  const refresh = async () => {
    let found;
    try {
      found = await api("/api/lobby");
    } catch (err) {
      return;
    }
    clear(waiting).append(...(found.waiting.length ? found.waiting.map((room) => roomItem(catalog, room, false)) : [h("li.none", {}, "None right now: play now, or create a public room.")]));
    clear(playing).append(...(found.playing.length ? found.playing.map((room) => roomItem(catalog, room, true)) : [h("li.none", {}, "No public game is being played.")]));
  };
  refresh();
  const timer = setInterval(refresh, 5000);
  return [panel, () => clearInterval(timer)];
}

function roomItem(catalog, room, watch) {
  const variant = catalog.variants[room.variant];
  const host = room.host ? `host ${room.host}` : "open table";
  const seats = watch ? plural(room.names.length, "player") : plural(room.open_seats, "open seat");
  return h("li", { dataset: { room: room.room } },
    h("span.room-title", {}, variant ? variant.title : room.variant), ` · ${optionWords(room.options)} · ${seats} of ${room.players} · ${host} `,
    h("a.button", { href: watch ? `/r/${room.room}#watch` : `/r/${room.room}` }, watch ? "Watch" : "Join"));
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
    clear(page).append(h("h1#my-games-title", {}, "My games"));
    let found;
    try {
      found = await api("/api/my-games", { player: memory.identity() });
    } catch (err) {
      page.append(h("p.error", { role: "alert" }, err.message));
      return;
    }
    page.append(h("p.hint", {}, `The games this browser played on this server, newest first. The server forgets them ${Math.round(found.retention_days)} days after you last played or looked here.`));
    if (!found.games.length) page.append(h("p.none", {}, "No finished game yet."));
    else {
      const table = h("table.games", {}, h("caption.visually-hidden", {}, "Finished games"));
      table.append(h("thead", {}, h("tr", {}, ["When", "Game", "Players", "Result", ""].map((title) => h("th", { scope: "col" }, title)))));
      const body = h("tbody");
      for (const game of found.games) {
        const variant = catalog.variants[game.variant];
        const winners = game.winners.map((s) => (s === game.seat ? "you" : game.names[s])).join(" and ");
        const result = game.winners.includes(game.seat) ? "You won" : `${winners} won`;
        body.append(h("tr", { dataset: { room: game.room, game: String(game.game) } },
          h("td", {}, new Date(game.at * 1000).toLocaleString()),
          h("td", {}, `${variant ? variant.title : game.variant}, room ${game.room} #${game.game}`),
          h("td", {}, game.names.map((n, i) => (i === game.seat ? `${n} (you)` : n)).join(", ")),
          h("td", {}, `${result} · ${game.scores.join(" / ")}`),
          h("td.links", {},
            h("a.button", { href: `/#/replay/${game.room}/${game.game}` }, "Replay"),
            " ",
            h("a.button.download", { href: game.record, download: `unokit-${game.room}-${game.game}.json` }, "Download"))));
      }
      table.append(body);
      page.append(table);
    }
    page.append(h("div.row", {}, h("button.danger#forget-me", {
      type: "button",
      onclick: async () => {
        if (!confirm("Forget this browser's games on this server? The games stay, but they are no longer yours to find.")) return;
        await api("/api/my-games/forget", { player: memory.identity() });
        memory.forgetIdentity();
        draw();
      },
    }, "Forget me")));
  };
  draw();
  return () => {};
}
