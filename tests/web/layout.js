// What a person on any screen must get, checked on the page as it is drawn; returns the list of
// problems (empty when none):
// - no horizontal scrolling of the page;
// - the hand and the decision inside the viewport, whole (while no dialog covers the table);
// - no clipped text: every visible element with text of its own has scrollWidth <= clientWidth,
//   and none sticks out of the viewport at the sides;
// - touch targets of at least 44 px: every visible button, field and link styled as a button,
//   and, in the hand, at least 44 px of each card that another does not cover;
// - no engine identifier in the visible text (a snake_case name, or a bot's engine name);
// - at the table (while no dialog covers it): your own place (data-region="self") inside the
//   viewport; no seat and not the decision over the piles (data-region="piles"); no two seats
//   touching; nothing of a seat (text, count, backs) outside its box; the decision's words and
//   buttons inside it (it never scrolls);
// - the end screens (the round's summary, the game's end): every row and button inside the
//   viewport, and nothing scrolled out of sight within them;
// - the table's regions (the table, the decision or a replay's controls, your own place, the
//   hand) never overlap, and nothing of the decision or a replay's controls is drawn outside its
//   region but what lies inside a box of its own that clips it (one that scrolls);
// - the last move in words (when drawn) touches no seat;
// - a review's graph and its key moments' buttons can each be seen whole: in the viewport, or
//   within a box that scrolls (in the viewport, as tall as they are at least).
// Measured once the animations of the last change are over. `skip` is a CSS selector of regions whose text is not checked for identifiers.
async (skip) => {
  // The page as it settles: after the animations of the last change (each under 400 ms).
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const bad = [];
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const what = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""} '${(el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30)}'`;
  if (document.documentElement.scrollWidth > vw) bad.push(`the page is ${document.documentElement.scrollWidth}px wide in ${vw}px`);
  const dialog = document.querySelector(".overlay, dialog[open]");
  if (!dialog) {
    for (const name of ["hand", "prompt"]) {
      const el = document.querySelector(`[data-region="${name}"]`);
      if (!el) continue;
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1 || r.height === 0) {
        bad.push(`the ${name} is at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} in ${vw}x${vh}`);
      }
    }
  }
  const box = (el) => el.getBoundingClientRect();
  const at = (r) => `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const piles = document.querySelector('[data-region="piles"]');
  const seats = [...document.querySelectorAll(".table-root .seat")];
  if (!dialog && piles) {
    const self = document.querySelector('[data-region="self"]');
    if (self && !inside(box(self), { left: 0, top: 0, right: vw, bottom: vh })) bad.push("your own place is outside the screen");
    const prompt = document.querySelector('[data-region="prompt"]');
    for (const el of [...seats, prompt].filter(Boolean)) {
      if (meets(box(el), box(piles))) bad.push(`${what(el)} covers the piles`);
    }
    if (prompt && prompt.scrollHeight > prompt.clientHeight + 1) bad.push(`the decision does not fit: ${prompt.scrollHeight}px in ${prompt.clientHeight}px`);
  }
  const regions = ["table", "prompt", "replay", "self", "hand"]
    .map((name) => document.querySelector(`.table-root [data-region="${name}"]`)).filter((el) => el && shown(el));
  if (!dialog) {
    regions.forEach((region, i) => {
      regions.slice(i + 1).forEach((other) => {
        if (meets(box(region), box(other))) bad.push(`the regions ${region.dataset.region} and ${other.dataset.region} overlap`);
      });
    });
  }
  const clips = (el) => getComputedStyle(el).overflowX !== "visible" || getComputedStyle(el).overflowY !== "visible";
  for (const region of regions.filter((el) => ["prompt", "replay"].includes(el.dataset.region))) {
    for (const part of region.querySelectorAll("*")) {
      if ((part.closest("svg") && part.tagName.toLowerCase() !== "svg") || !shown(part)) continue;
      let clip = part.parentElement;
      while (clip && clip !== region && !clips(clip)) clip = clip.parentElement;
      if (clip !== region && clip) continue; // clipped by a box of its own, itself checked as a part
      const r = box(part);
      if (r.width && r.height && !inside(r, box(region))) bad.push(`${what(part)} is drawn outside the ${region.dataset.region}: ${at(r)} in ${at(box(region))}`);
    }
  }
  const caption = document.querySelector('[data-region="last-move"]');
  if (caption && shown(caption) && caption.textContent.trim() && !caption.classList.contains("sr-only")) {
    for (const seat of seats) if (meets(box(caption), box(seat))) bad.push(`the last move ${what(caption)} covers the seat ${what(seat)}`);
  }
  const screen = { left: 0, top: 0, right: vw, bottom: vh };
  for (const el of document.querySelectorAll(".review-chart, .review-nav")) {
    if (!shown(el)) continue;
    let scroller = el.parentElement;
    while (scroller && !["auto", "scroll"].includes(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    if (!scroller || scroller === document.documentElement || scroller === document.body) {
      if (!inside(box(el), screen)) bad.push(`${what(el)} is outside the screen: ${at(box(el))}`);
    } else if (!inside(box(scroller), screen) || scroller.clientHeight + 1 < box(el).height) {
      bad.push(`${what(el)} cannot be seen whole: ${Math.round(box(el).height)}px high in ${what(scroller)}, ${scroller.clientHeight}px high at ${at(box(scroller))}`);
    }
  }
  seats.forEach((seat, i) => {
    seats.slice(i + 1).forEach((other) => {
      if (meets(box(seat), box(other))) bad.push(`the seats of ${what(seat)} and ${what(other)} touch`);
    });
    for (const part of seat.querySelectorAll("*")) {
      if (part.closest("svg") && part.tagName.toLowerCase() !== "svg") continue;
      const r = box(part);
      if (r.width && r.height && !inside(r, box(seat))) bad.push(`${what(part)} sticks out of its seat: ${at(r)} in ${at(box(seat))}`);
    }
  });
  for (const end of document.querySelectorAll(".table-root > .overlay, .table-root > .summary-panel")) {
    for (const el of end.querySelectorAll(".overlay-panel, .panel-scroll")) {
      if (el.scrollHeight > el.clientHeight + 1) bad.push(`${what(el)} scrolls: ${el.scrollHeight}px in ${el.clientHeight}px`);
    }
    for (const el of end.querySelectorAll("tr, li, button, a.button")) {
      if (shown(el) && !inside(box(el), { left: 0, top: 0, right: vw, bottom: vh })) bad.push(`${what(el)} is outside the screen`);
    }
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg, .sr-only, .visually-hidden, .skip-link, noscript")) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (!shown(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "inline" || cs.display === "contents") continue;
    if (el.scrollWidth > el.clientWidth + 1) bad.push(`clipped: ${what(el)} (${el.scrollWidth} > ${el.clientWidth})`);
    const r = el.getBoundingClientRect();
    if (!el.closest(".hand, .table-scroll") && (r.left < -1 || r.right > vw + 1)) bad.push(`outside the screen: ${what(el)} at ${Math.round(r.left)}-${Math.round(r.right)}`);
  }
  const targets = document.querySelectorAll("button:not(.hand-card), select, input:not([type=checkbox]):not([type=radio]):not([type=range]), a.button");
  for (const el of targets) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.height < 43.5 || r.width < 43.5) bad.push(`small target: ${what(el)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  const cards = [...document.querySelectorAll(".hand li")];
  cards.forEach((card, i) => {
    const next = cards[i + 1];
    if (!next) return;
    const slice = next.offsetLeft - card.offsetLeft;
    if (slice < 43) bad.push(`card ${i + 1} of the hand shows only ${Math.round(slice)}px`);
  });
  let text = document.body.innerText;
  if (skip) for (const el of document.querySelectorAll(skip)) text = text.split(el.innerText).join(" ");
  const ids = text.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?:heuristic|ismcts)\b/g);
  if (ids) bad.push(`engine identifiers in the text: ${[...new Set(ids)].join(", ")}`);
  return bad;
}
