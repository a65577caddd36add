// The types of the browser client, for TypeScript's checker only (the page never loads this
// file): the messages of the protocol `unokit-server/2` (docs/protocol.md) and the objects they
// carry. The messages' interfaces mirror their declarations in src/unokit/server/messages.py
// field by field, and tests/server/test_js_types.py fails when the two disagree. A module uses
// them as `/** @param {import("./types").State} state */`.

// ---------------------------------------------------------------------- what messages carry

/** A thing to say: a catalogue key and its parameters (a parameter may itself be a line). */
export interface Line {
  key: string;
  params?: Record<string, unknown>;
}

/** One of the room's seats as everyone sees it. */
export interface Seat {
  seat: number;
  kind: "human" | "bot" | "open";
  name: string | null;
  bot: string | null;
  ready: boolean;
  standin_moves: number;
  from: string | null;
}

export type Phase = "lobby" | "playing" | "hand_over" | "finished" | "closed";

/** The room object (`room` of `state` and `room` messages). */
export interface Room {
  code: string;
  phase: Phase;
  variant: string;
  players: number;
  options: Record<string, unknown>;
  settings: Record<string, unknown>;
  seats: Seat[];
  game_no: number;
  version: number;
  closed_reason: string | null;
  public: boolean;
  host_seat: number | null;
  hosted: boolean;
  connected: boolean[];
  looking: boolean[];
  spectators: number;
  away: number[];
  deadline: number | null;
  catch_until: number | null;
  jump_until: number | null;
  continue_at: number | null;
  fill_at: number | null;
  muted: number[];
  spectators_muted: boolean;
  /** The host's pause: whether the table waits, and who paused it. */
  paused?: boolean;
  paused_by?: number | null;
  /** The bot a stand-in plays as here. */
  standin?: string;
  pause_left?: number;
  /** More time at a turn: how many seconds each asks for, how many a seat may ask, how many each asked. */
  more_time?: { seconds: number; most: number; used: number[] };
  /** Until when its finished games are sealed (seconds since 1970; a deal of the day's while its day runs), null: not. */
  sealed_until: number | null;
  /** What the end of its games says about them: catalogue keys (a deal of the day's: not rated). */
  notes?: string[];
}

/** A seat's view of the game: the engine's `observe(seat)` (docs/api.md). */
export interface Observation {
  variant: string;
  players: number;
  seat: number | null;
  side: string;
  /** The seat's hand ([] for a spectator). */
  hand: string[];
  hand_sizes: number[];
  /** On a double-sided deck: the backs of each hand (null for the reader's own). */
  backs?: (string[] | null)[];
  discard: string[];
  top: string | null;
  color: string | null;
  direction: string;
  draw_size: number;
  draw_top_back?: string | null;
  scores: number[];
  team_scores?: number[];
  teams?: number[][];
  to_act: number | null;
  decision: string | null;
  pending: Pending | null;
  /** The cards a stacked draw adds up to (0: none). */
  stack: number;
  /** The seat with one card that did not say UNO, while it may be caught. */
  uno_exposed: number | null;
  legal_actions: string[];
  round: number;
  dealer: number;
  over: boolean;
  winners: number[];
  turn: number;
  /** The cards of others' hands the seat was shown, by holder. */
  known?: Record<string, string[]>;
  /** Who played the top card while a jump may come (Jump-In). */
  jump_in?: number | null;
  launcher?: Record<string, unknown> | null;
  options: Record<string, unknown>;
  [more: string]: unknown;
}

/** The open decision's facts (the engine's `open_decision.public()`): what it is about. */
export interface Pending {
  /** The card it is about (the drawn card to play or keep, the kind to stack on). */
  card?: string;
  /** The seat that asked it of the reader. */
  by?: number;
  color?: string;
  count?: number;
  discarded?: string[];
  [more: string]: unknown;
}

/** One of the engine's events, redacted for the reader. */
export interface GameEvent {
  type: string;
  seat?: number;
  /** The seat a move is aimed at (a catch, a trade, a stacked draw's taker). */
  target?: number;
  card?: string;
  /** The cards moved (kept only for the seats that may see them). */
  cards?: string[];
  count?: number;
  /** A press of the launcher: whether it fired. */
  fired?: boolean;
  /** A challenge: whether it succeeded. */
  success?: boolean;
  /** A challenge's: the challenged hand; a revealing trade's: each hand by its seat. */
  revealed?: string[] | Record<string, string[]>;
  winners?: number[];
  scores?: number[];
  [more: string]: unknown;
}

/** A move of the game's log as the reader saw it. */
export interface LogEntry {
  lines: Line[];
  standin?: number;
}

/** A round's summary (server/stating.py `round_summary`): each hand left and what it scored. */
export interface RoundSummary {
  round: number;
  winner: number;
  side: string;
  blocked: boolean;
  over: boolean;
  winners: number[];
  lines: {
    seat: number;
    name: string;
    cards: { card: string; points: number }[];
    hand_points: number;
    gained: number;
    total: number;
  }[];
}

/** A chat line. */
export interface ChatLine {
  n: number;
  from: string;
  /** The sender's seat (null: a spectator). */
  seat: number | null;
  name: string | null;
  channel: "players" | "spectators";
  text?: string;
  reaction?: string;
  [more: string]: unknown;
}

// ---------------------------------------------------------------------- server messages
// (messages.py, SERVER)

export interface Welcome {
  type: "welcome";
  protocol: string;
  room: string;
  role: "player" | "spectator";
  seat: number | null;
  host: boolean;
  token?: string | null;
  from: string;
  reply_to?: string | number | null;
  rate?: { per_second: number; burst: number } | null;
}

export interface State {
  type: "state";
  version: number;
  seat: number | null;
  room: Room;
  game_step: number;
  observation: Observation | null;
  events: GameEvent[];
  lines: Line[];
  standin?: number | null;
  log?: LogEntry[] | null;
  summary?: RoundSummary | null;
  reply_to?: string | number | null;
}

export interface RoomUpdate {
  type: "room";
  version: number;
  room: Room;
}

export interface Ack {
  type: "ack";
  reply_to: string | number;
  version: number;
}

export interface ErrorMessage {
  type: "error";
  code: string;
  message: string;
  params?: Record<string, unknown> | null;
  reason?: string | null;
  reason_params?: Record<string, unknown> | null;
  reply_to?: string | number | null;
  state?: State | null;
}

export interface Closed {
  type: "closed";
  reason: string | null;
}

export interface Redirect {
  type: "redirect";
  room: string;
  websocket: string;
  reply_to?: string | number | null;
}

export interface Pong {
  type: "pong";
  reply_to: string | number | null;
}

export interface ChatMessages {
  type: "chat";
  history?: boolean;
  messages: ChatLine[];
}

/** The answer to a `hint` request, to that connection only (messages.py: `HintAnswer`): the
 * action the hint suggests, in words, and its chance. */
export interface HintReply {
  type: "hint";
  reply_to: string | number | null;
  step: number;
  action: string;
  line: Line;
  chance: number;
}

/** Every message the server sends over the websocket. */
export type ServerMessage = Welcome | State | RoomUpdate | Ack | ErrorMessage | Closed | Redirect | Pong | ChatMessages | HintReply;

// ---------------------------------------------------------------------- client messages
// (messages.py, CLIENT); each may carry an `id`, answered as `reply_to`.

interface Request {
  id?: string | number;
}

export interface Hello extends Request {
  type: "hello";
  room: string;
  protocol?: string;
  role?: "player" | "spectator";
  name?: string;
  token?: string | null;
  host_token?: string | null;
  player?: string | null;
  redirects?: boolean | null;
  unreachable?: string | null;
  visible?: boolean | null;
}

export interface Action extends Request {
  type: "action";
  action: string;
  version: number;
  token: string;
  seat?: number;
  decision?: string | null;
}

export interface Host extends Request {
  type: "host";
  command: string;
  host_token: string;
  version: number;
  seat?: number;
  bot?: string;
}

export interface MoreTime extends Request {
  type: "more_time";
  token: string;
}

export interface Back extends Request {
  type: "back";
  token: string;
}

export interface Leave extends Request {
  type: "leave";
  token: string;
}

export interface Ready extends Request {
  type: "ready";
  token: string;
  ready?: boolean;
}

export interface Chat extends Request {
  type: "chat";
  text?: string;
  reaction?: string;
  token?: string | null;
}

export interface Report extends Request {
  type: "report";
  about: "chat" | "name" | "conduct";
  token?: string | null;
  message?: number;
  seat?: number;
  from?: string;
}

export interface Quiet extends Request {
  type: "quiet";
  token: string;
  quiet: boolean;
}

export interface Hint extends Request {
  type: "hint";
  token: string;
}

export interface Visibility extends Request {
  type: "visibility";
  visible: boolean;
}

export interface Sync extends Request {
  type: "sync";
}

export interface Ping extends Request {
  type: "ping";
}

/** Every message the client sends over the websocket. */
export type ClientMessage = Hello | Action | Host | MoreTime | Back | Leave | Ready | Chat | Report | Quiet | Hint | Visibility | Sync | Ping;

/** A client message before the connection gives it its `id` (and, for `without`, the fields it adds). */
export type Unsent<M, Without extends string = never> = M extends unknown ? Omit<M, "id" | Without> : never;

// ---------------------------------------------------------------------- the catalogue
// (GET /api/catalog, server/web.py `catalog()`)

/** An option of a variant's rules, from its declaration (web.py `option_catalog`). */
export interface OptionInfo {
  name: string;
  kind: "bool" | "int" | "int_or_none" | "choice" | "numbers" | "lines";
  default: unknown;
  house_rule: boolean;
  label: string;
  help: string;
  choices?: string[];
  minimum?: number;
  /** How another choice changes this default: `defaults_by[chooser][choice]` is the value. */
  defaults_by?: Record<string, Record<string, unknown>>;
}

/** A variant as the catalogue describes it. */
export interface VariantInfo {
  double_sided: boolean;
  uses_launcher: boolean;
  min_players: number;
  max_players: number;
  side_names: string[];
  side_colors: string[][];
  marks: Record<string, string> | null;
  kinds: string[][];
  options: OptionInfo[];
}

/** One of the table's keys (keys.py `catalog_keys`). */
export interface KeyBinding {
  command: string;
  shown: string;
  keys: string[];
  words: string;
  where: string;
}

/** One wording of a decision's question (i18n/prompts.py `Wording.to_json`). */
export interface Wording {
  key: string;
  when: string[];
  params: string[];
}

/** The catalogue the page draws cards, forms and words from. */
export interface Catalog {
  /** Each language the page speaks, by its tag, in its own name ("de": "Deutsch"). */
  languages: Record<string, string>;
  language_tags: { aliases: Record<string, string>; never: string[] };
  colors: { name: string; symbol: string }[];
  /** Every card kind: its name, whether it is wild, the cards its victim draws and what it draws until ("color"). */
  kinds: { name: string; wild: boolean; draws: number; until: string }[];
  /** What a failed challenge of a fair Wild Draw play costs beyond the card's own draw. */
  challenge_extra: number;
  variants: Record<string, VariantInfo>;
  bots: string[];
  /** The bots' levels, weakest first. */
  levels: string[];
  reactions: string[];
  /** The room settings with their defaults (seconds, the hints switch, the stand-in bot). */
  settings: Record<string, number | boolean | string>;
  setting_limits: Record<string, number[]>;
  keys: KeyBinding[];
  /** The decisions answered from the hand (keys.py HAND_DECISIONS): the digits pick a card there. */
  hand_decisions: string[];
  prompts: Record<string, Wording[]>;
  /** The largest request POST /api/replay reads, in bytes: a replay file's record must fit. */
  replay_file_bytes: number;
  /** Set in the catalogue of a static site (server/offline.py): no server behind the page. */
  static_site?: boolean;
}

// ---------------------------------------------------------------------- the DOM helper

/** The tag of an `h()` spec: "button#id.primary" -> "button" ("" for a plain div). */
type TagOf<S extends string> = S extends `${infer T}#${string}` ? TagOf<T> : S extends `${infer T}.${string}` ? T : S;

/** The element `h(spec)` makes: the tag's own type where the spec is written out. */
export type ElementOf<S extends string> = TagOf<S> extends keyof HTMLElementTagNameMap
  ? HTMLElementTagNameMap[TagOf<S>]
  : TagOf<S> extends ""
    ? HTMLDivElement
    : HTMLElement;
