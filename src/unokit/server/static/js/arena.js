// Arenas (docs/arena.md): the lobby's panel of the arenas running or about to start, each with
// Join, and an arena's page ("/#/arena/ID"): the time left, where the reader stands, the live
// standings and, once it is over, its podium. While the reader waits the page asks the server
// where they stand (POST /api/arenas/ID/mine) every few seconds, within the address's look-ups
// (--lookup-rate: 20 a minute by default), and opens the table it is given (the room page); the
// room's end screen links back here (arenaOf).

import { api, errorText, memory } from "./net.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { botStrength } from "./options.js";

/**
 * @typedef {Object} Arena an arena as GET /api/arenas lists it
 * @property {string} id
 * @property {string} name
 * @property {string} variant
 * @property {number} players the seats of a table
 * @property {number} starts when it starts (seconds since 1970)
 * @property {number} ends when it ends
 * @property {string} bot_level the level of the bots that fill a table
 * @property {number} bot_wait seconds a player waits before bots fill their table
 * @property {string} status upcoming, running or finished
 * @property {number} entrants how many joined
 */

/**
 * @typedef {Object} ArenaLine a line of an arena's standings
 * @property {number} place
 * @property {string} name
 * @property {number} points
 * @property {number} wins
 * @property {number} games
 * @property {boolean} on_fire whether the player's games count double (two wins in a row)
 */

/**
 * @typedef {Arena & {standings: ArenaLine[], podium?: ArenaLine[]}} ArenaBoard GET /api/arenas/ID
 */

/**
 * @typedef {Object} ArenaMine where the reader stands (POST /api/arenas/ID/mine); the line's
 *   fields only once joined
 * @property {string} status
 * @property {boolean} joined
 * @property {number} [place]
 * @property {string} [name]
 * @property {number} [points]
 * @property {number} [games]
 * @property {number} [streak] wins in a row
 * @property {boolean} [on_fire]
 * @property {boolean} [free] waiting for a table
 * @property {string | null} [room] the table to sit at
 */

/** How often the page asks where the reader stands while they wait: 15 look-ups a minute. */
export const POLL_MS = 4000;
/** The standings are read every this many polls (and whenever the reader's line changed): 3
 * look-ups a minute more, 18 in all, within the allowance of 20. */
const BOARD_EVERY = 5;
/** The lobby's list of arenas is read again this often: 2 look-ups a minute. */
const LIST_MS = 30000;

/**
 * A length of time as the clock shows it: "4:05", "1:04:05".
 * @param {number} seconds
 */
export function clockTime(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

/**
 * The arena's clock in words at `now` (seconds since 1970): the time left, or until it starts.
 * @param {Arena} arena
 * @param {number} now
 */
function clockWords(arena, now) {
  if (arena.status === "upcoming" && now < arena.starts) return t("arena.starts_in", { time: clockTime(arena.starts - now) });
  if (now < arena.ends && arena.status !== "finished") return t("arena.time_left", { time: clockTime(arena.ends - now) });
  return t("arena.over");
}

/**
 * What an arena plays, in words: "Classic · tables of 4 · bots: Easy".
 * @param {Arena} arena
 */
function arenaFacts(arena) {
  return [t(`variant.${arena.variant}`), t("n.arena.table_size", { count: arena.players }),
    t("arena.bots", { bot: botStrength(arena.bot_level) })].join(" · ");
}

/** The time now, in seconds since 1970. */
const nowSeconds = () => Date.now() / 1000;

/**
 * Join arena `id` under `name` with this browser's identity, then go to its page.
 * @param {string} id
 * @param {string} name
 */
async function joinArena(id, name) {
  await api(`/api/arenas/${id}/join`, { player: memory.identity(), name });
  memory.setName(name);
  location.assign(`/#/arena/${id}`);
}

/**
 * A Join button for arena `id`, under the name in `nameInput` (or the remembered one).
 * @param {string} id
 * @param {string} words the button's words
 * @param {HTMLInputElement | null} nameInput
 * @param {HTMLElement} message where a refusal is said
 */
function joinButton(id, words, nameInput, message) {
  const button = h("button.primary.arena-join", { type: "button", dataset: { arena: id } }, words);
  button.addEventListener("click", async () => {
    const name = (nameInput ? nameInput.value : memory.name()).trim();
    clear(message);
    if (!name) {
      message.append(h("p.error", { role: "alert" }, t("lobby.name_first")));
      if (nameInput) nameInput.focus();
      return;
    }
    button.disabled = true;
    try {
      await joinArena(id, name);
    } catch (err) {
      message.append(h("p.error", { role: "alert" }, errorText(err)));
      button.disabled = false;
    }
  });
  return button;
}

/**
 * The lobby's panel of the arenas running or about to start (hidden while there is none), each
 * with its clock, its players and Join; returns [element, stop].
 * @param {HTMLInputElement} nameInput the lobby's name field
 * @returns {[HTMLElement, () => void]}
 */
export function arenaPanel(nameInput) {
  const list = h("ul.arena-list");
  const message = h("div.form-message", { "aria-live": "polite" });
  const panel = h("section.panel.arena-panel", { "aria-labelledby": "arena-panel-title", "data-region": "arenas", hidden: true },
    h("h2#arena-panel-title", {}, t("arena.panel_title")), h("p.hint", {}, t("arena.panel_hint")), list, message);
  /** @type {{arena: Arena, clock: HTMLElement}[]} */
  let shown = [];
  const tick = () => shown.forEach(({ arena, clock }) => { clock.textContent = clockWords(arena, nowSeconds()); });
  const refresh = async () => {
    /** @type {{arenas: Arena[]}} */
    let found;
    try {
      found = await api("/api/arenas");
    } catch (err) {
      return; // the panel stays as it was (hidden when it never had one)
    }
    const open = found.arenas.filter((arena) => arena.status === "running" || arena.status === "upcoming");
    shown = open.map((arena) => ({ arena, clock: h("span.arena-clock") }));
    clear(list).append(...shown.map(({ arena, clock }) => h("li", { dataset: { arena: arena.id, status: arena.status } },
      h("h3.arena-name", {}, arena.name),
      h("p.arena-facts", {}, arenaFacts(arena)),
      h("p.arena-when", {}, clock, " · ", t("n.arena.entrants", { count: arena.entrants })),
      h("p.row", {}, joinButton(arena.id, t("arena.join"), nameInput, message), " ",
        h("a.button", { href: `/#/arena/${arena.id}` }, t("arena.standings"))))));
    tick();
    panel.hidden = open.length === 0;
  };
  refresh();
  const listing = setInterval(refresh, LIST_MS);
  const ticking = setInterval(tick, 1000);
  return [panel, () => { clearInterval(listing); clearInterval(ticking); }];
}

/**
 * The arena a room is a table of, as this browser opened it from the arena's page (null: none).
 * @param {string} code the room's code
 * @returns {string | null}
 */
export function arenaOf(code) {
  return sessionStorage.getItem(`unokit.arena.${code}`);
}

/**
 * The link back to arena `id` (a table's end screen).
 * @param {string} id
 */
export function backToArena(id) {
  return h("a.button.primary#back-to-arena", { href: `/#/arena/${id}` }, t("arena.back"));
}

/**
 * A place in words: "1st", "2nd" as the language says it.
 * @param {number} place
 */
function placeWords(place) {
  return t("arena.place", { place });
}

/**
 * The standings table: place, name, points, games and whether the player is on a streak; the
 * reader's line marked.
 * @param {ArenaLine[]} lines
 * @param {number | null} mine the reader's place, null when not joined
 */
function standingsTable(lines, mine) {
  const heads = [t("daily.rank"), t("daily.player"), t("standings.points"), t("standings.games"), t("arena.streak")];
  /** @type {(column: number, value: string) => HTMLTableCellElement} */
  const cell = (column, value) => h("td.num", { dataset: { label: heads[column] } }, value);
  return h("table.games.arena-standings", { "data-region": "arena-standings" },
    h("caption.visually-hidden", {}, t("arena.standings")),
    h("thead", {}, h("tr", {}, heads.map((title) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, lines.map((line) => h(`tr${line.place === mine ? ".me" : ""}`, { dataset: { place: String(line.place) } },
      h("td.num", {}, String(line.place)),
      h("td.who", {}, line.place === mine ? t("seat.you", { name: line.name }) : line.name),
      cell(2, String(line.points)),
      cell(3, String(line.games)),
      h("td.fire", { dataset: { label: heads[4] } },
        line.on_fire ? [h("span.double", { "aria-hidden": "true" }, "×2"), t("arena.on_fire")] : "–")))));
}

/**
 * Where the reader stands, in words: their place, points and games, and their streak.
 * @param {ArenaMine} mine a joined reader's line
 * @param {number} entrants
 */
function yourLine(mine, entrants) {
  const parts = [t("arena.place_of", { place: placeWords(Number(mine.place)), count: entrants }),
    t("n.points", { count: Number(mine.points) }), t("n.arena.games", { count: Number(mine.games) })];
  let streak = null;
  if (mine.on_fire) streak = h("strong.fire", {}, h("span.double", { "aria-hidden": "true" }, "×2"), t("arena.you_on_fire"));
  else if (mine.streak === 1) streak = h("span.hint", {}, t("arena.one_more_win"));
  return h("p.arena-line", {}, parts.join(" · "), streak ? [" ", streak] : null);
}

/**
 * An arena's page: its clock, where the reader stands (and their table once it is given), the
 * standings, and its podium once it is over.
 * @param {HTMLElement} app
 * @param {string} id
 * @returns {() => void} what to do when the page is left
 */
export function arenaPage(app, id) {
  const page = h("section.panel.arena-page", { "aria-labelledby": "arena-title", "data-region": "arena" });
  const title = h("h1#arena-title", {}, t("arena.title"));
  const facts = h("p.arena-facts");
  const clock = h("p.arena-clock");
  const state = h("div.arena-state", { "aria-live": "polite" });
  const message = h("div.form-message", { "aria-live": "polite" });
  const you = h("section.arena-you", { "aria-labelledby": "arena-you-title" }, h("h2#arena-you-title", {}, t("arena.you")), state, message);
  const podium = h("section.arena-podium", { "aria-labelledby": "arena-podium-title", hidden: true });
  const board = h("section.arena-board", { "aria-labelledby": "arena-board-title" }, h("h2#arena-board-title", {}, t("arena.standings")));
  page.append(title, facts, clock, you, podium, board, h("p.links", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
  app.append(page);
  /** @type {ArenaBoard | null} */
  let arena = null;
  /** @type {ArenaMine | null} */
  let mine = null;
  let polls = 0;
  let lastLine = "";
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const tick = () => { if (arena) clock.textContent = clockWords(arena, nowSeconds()); };
  const ticking = setInterval(tick, 1000);

  /** @param {string} room */
  const openTable = (room) => {
    sessionStorage.setItem(`unokit.join.${room}`, String(mine && mine.name ? mine.name : memory.name()));
    sessionStorage.setItem(`unokit.arena.${room}`, id);
    location.assign(`/r/${room}`);
  };

  const drawBoard = () => {
    if (!arena) return;
    title.textContent = arena.name;
    facts.textContent = [arenaFacts(arena), t("n.arena.entrants", { count: arena.entrants })].join(" · ");
    tick();
    const place = mine && mine.joined ? Number(mine.place) : null;
    clear(board).append(h("h2#arena-board-title", {}, t("arena.standings")),
      arena.standings.length ? standingsTable(arena.standings, place) : h("p.none", {}, t("arena.nobody_yet")));
    if (arena.podium) {
      podium.hidden = false;
      clear(podium).append(h("h2#arena-podium-title", {}, t("arena.podium")),
        h("ol.podium", {}, arena.podium.map((line) => h(`li${line.place === place ? ".me" : ""}`, {},
          h("span.podium-place", {}, placeWords(line.place)), " ",
          h("strong", {}, line.place === place ? t("seat.you", { name: line.name }) : line.name), " · ",
          t("n.points", { count: line.points })))));
    }
  };

  const drawState = () => {
    if (!arena || !mine) return;
    clear(state);
    const over = mine.status === "finished" || mine.status === "cancelled";
    if (!mine.joined) {
      state.append(h("p", {}, over ? t("arena.over_not_played") : t("arena.not_joined")));
      if (!over) {
        const name = h("input#arena-name",
          { type: "text", maxlength: "40", required: true, value: memory.name(), autocomplete: "nickname" });
        state.append(h("div.field", {}, h("label", { for: "arena-name" }, t("lobby.your_name")), name),
          h("p.row", {}, joinButton(id, t("arena.join"), name, message)));
      }
      return;
    }
    if (over) {
      state.append(h("p.arena-result", {},
        t("arena.you_finished",
          { place: placeWords(Number(mine.place)), count: arena.entrants, points: t("n.points", { count: Number(mine.points) }) })));
      return;
    }
    state.append(yourLine(mine, arena.entrants));
    if (mine.room) {
      const room = mine.room;
      // a table this page opened before (its game just ended, and the server has not yet freed
      // the reader): offered, never opened again by itself
      if (sessionStorage.getItem(`unokit.arena.${room}`) === null) {
        state.append(h("p.arena-waiting", {}, t("arena.table_ready")));
        openTable(room);
      } else {
        state.append(h("p.row", {},
          h("button.primary#arena-table", { type: "button", onclick: () => openTable(room) }, t("arena.to_table"))));
      }
    } else if (mine.free) {
      state.append(h("p.arena-waiting", {}, mine.status === "upcoming" ? t("arena.waiting_start") : t("arena.waiting")));
    } else {
      state.append(h("p", {}, t("arena.withdrawn")), h("p.row", {}, joinButton(id, t("arena.join_again"), null, message)));
    }
  };

  /** @param {number} ms */
  const later = (ms) => {
    if (!stopped) timer = setTimeout(poll, ms);
  };

  /** Ask where the reader stands (and the standings every few times, or when their line moved). */
  const poll = async () => {
    try {
      const found = /** @type {ArenaMine} */ (await api(`/api/arenas/${id}/mine`, { player: memory.identity() }));
      if (stopped) return;
      mine = found;
      const line = JSON.stringify([found.status, found.points, found.games, found.place, found.joined]);
      if (!arena || polls % BOARD_EVERY === 0 || line !== lastLine) {
        arena = /** @type {ArenaBoard} */ (await api(`/api/arenas/${id}`));
        if (stopped) return;
        lastLine = line;
        drawBoard();
      }
      polls += 1;
      clear(message);
      drawState();
      if (found.status === "finished" || found.status === "cancelled") return; // nothing moves any more
      later(POLL_MS);
    } catch (err) {
      if (stopped) return;
      const error = /** @type {import("./net.js").ServerError} */ (err);
      if (error.code === "no_arena" && !arena) {
        clear(page).append(h("h1#arena-title", {}, t("arena.title")), h("p.error", { role: "alert" }, errorText(error)),
          h("p.links", {}, h("a", { href: "/" }, t("room.back_to_lobby"))));
        return;
      }
      clear(message).append(h("p.error", { role: "alert" }, errorText(error)));
      // refused for asking too often: wait as long as the server says, else back off
      later(Math.max(POLL_MS, (error.retryAfter || 0) * 1000, error.code === "rate_limited" ? 15000 : 0));
    }
  };
  poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(ticking);
  };
}
