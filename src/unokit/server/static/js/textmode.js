// Text mode: a field to type a move in, for a braille display or speech input. A move is typed
// in the engine's notation ("play red 5", "draw", "catch 1") or in the words of the page's
// language, as the buttons say it ("play Red 5", «сыграть красную 5», "Draw a card"); word
// endings are forgiven (Russian adjectives agree with the card) and the field completes from
// the moves offered now. "hand", "table", "moves" read the table out, "uno" calls UNO. What the
// field cannot do is said, with what it can.

import { h } from "./dom.js";
import { N_, t } from "./i18n.js";

/**
 * @typedef {Object} Move one thing the reader may type now
 * @property {string} label the words shown and completed ("play Red 5")
 * @property {string[]} phrases every way of writing it (the label, the notation, words)
 * @property {function(): void} run what it does
 * @property {string} group what it does, for telling a choice of colour from other moves
 */

/**
 * The words of a text, lower-cased, without punctuation, "ё" as "е" and underscores as spaces.
 * @param {string} text
 * @returns {string[]}
 */
export function words(text) {
  return text.toLocaleLowerCase().replace(/ё/g, "е").split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * How well a typed word stands for a word of a phrase: 3 the same word, 2 the same stem (the
 * ending of a word of four or more letters forgiven: «красную» for «красная»), 1 the start of it
 * (typing goes on), 0 not at all.
 * @param {string} typed
 * @param {string} word
 * @returns {number}
 */
export function wordMatch(typed, word) {
  if (typed === word) return 3;
  if (/^\p{N}+$/u.test(typed) || /^\p{N}+$/u.test(word)) return 0;
  let common = 0;
  while (common < typed.length && common < word.length && typed[common] === word[common]) common++;
  const shorter = Math.min(typed.length, word.length);
  if (shorter >= 4 && common >= Math.max(3, shorter - 2)) return 2;
  return common === typed.length ? 1 : 0;
}

/**
 * The score of a typed text against a phrase: every typed word must stand for a word of its
 * own in the phrase; null when one does not. Ties go to the phrase with fewer words left over.
 * @param {string[]} typed the typed words
 * @param {string[]} phrase the phrase's words
 * @returns {number[]|null} [points, -words left over]
 */
export function phraseScore(typed, phrase) {
  const used = new Set();
  let points = 0;
  for (const word of typed) {
    let best = 0;
    let at = -1;
    phrase.forEach((candidate, i) => {
      const score = used.has(i) ? 0 : wordMatch(word, candidate);
      if (score > best) {
        best = score;
        at = i;
      }
    });
    if (!best) return null;
    used.add(at);
    points += best;
  }
  return [points, used.size - phrase.length];
}

/**
 * The moves a typed text names best (several when it names more than one equally well).
 * @param {string} text what was typed
 * @param {Move[]} moves what may be typed now
 * @returns {Move[]}
 */
export function bestMoves(text, moves) {
  const typed = words(text);
  if (!typed.length) return [];
  /** @type {number[] | null} */
  let best = null;
  /** @type {Move[]} */
  let found = [];
  /** @type {[Move, number[]][]} every move the text names, with its score */
  const scored = [];
  for (const move of moves) {
    const scores = move.phrases.map((p) => phraseScore(typed, words(p))).filter((s) => s !== null);
    if (!scores.length) continue;
    const top = scores.reduce((a, b) => (a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]) ? a : b));
    const better = !best || top[0] > best[0] || (top[0] === best[0] && top[1] > best[1]);
    if (better) {
      best = top;
      found = [move];
    } else if (best && top[0] === best[0] && top[1] === best[1]) found.push(move);
    scored.push([move, top]);
  }
  // A text that leaves words of its best move untyped ("play" for "Play Wild") names it only
  // when no other move takes the same words as well: a shorter name does not win by itself.
  if (best && best[1] < 0) return scored.filter(([, top]) => top[0] === best[0]).map(([move]) => move);
  return found;
}

/** The field to type moves in, kept from one drawing of the table to the next. */
export class MoveBox {
  /**
   * @param {function(): Move[]} offered the moves that may be typed now
   * @param {function(string): void} say how an answer is said (shown and announced)
   */
  constructor(offered, say) {
    this.offered = offered;
    this.say = say;
    this.input = h("input#move-text", { type: "text", list: "move-list", autocomplete: "off", spellcheck: "false",
      "aria-describedby": "move-note" });
    this.list = h("datalist#move-list");
    this.note = h("p.hint.move-note#move-note");
    this.element = h("form.move-box", { "data-region": "command" },
      h("label", { for: "move-text" }, t("text.label")), this.input, this.list,
      h("button", { type: "submit" }, t("text.go")), this.note);
    this.element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /** Offer the moves of now for completion. */
  refresh() {
    const labels = [...new Set(this.offered().map((m) => m.label))];
    const same = labels.length === this.list.children.length && labels.every((l, i) => this.list.children[i].getAttribute("value") === l);
    if (!same) this.list.replaceChildren(...labels.map((label) => h("option", { value: label })));
  }

  /** Do what the field says, or say why not. */
  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const moves = this.offered();
    const found = bestMoves(text, moves);
    if (found.length === 1 || (found.length > 1 && found.every((m) => m.group === found[0].group && m.group))) {
      this.input.value = "";
      this.note.textContent = "";
      found[0].run();
      return;
    }
    const labels = (found.length ? found : moves).map((m) => m.label);
    const key = found.length ? N_("text.which") : N_("text.unknown");
    this.tell(t(key, { text, moves: [...new Set(labels)].join(t("list.separator")) }));
  }

  /**
   * Show and say an answer of the field.
   * @param {string} words
   */
  tell(words) {
    this.note.textContent = words;
    this.say(words);
  }
}
