() => {
  const parse = (s) => { const m = s.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  // Every colour the text may stand on: a gradient counts with each of its stops.
  const backgrounds = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.backgroundImage !== "none") {
        if (!cs.backgroundImage.includes("gradient")) return null;
        layers.push((cs.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(parse));
        break;
      }
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0) { layers.push([c]); if (c[3] >= 0.999) break; }
    }
    let colours = [[255, 255, 255, 1]];
    for (const layer of layers.reverse()) colours = layer.flatMap((top) => colours.map((under) => over(top, under)));
    return colours;
  };
  const low = []; let checked = 0, unknown = 0;
  for (const el of document.querySelectorAll("body *")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const box = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    const bgs = backgrounds(el); if (!bgs) { unknown++; continue; }
    const ratio = Math.min(...bgs.map((bg) => { const a = lum(over(parse(cs.color), bg)), b = lum(bg); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }));
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    checked++;
    if (ratio < need) low.push(`${el.tagName.toLowerCase()}.${el.className} '${el.textContent.trim().slice(0, 25)}' ${ratio.toFixed(2)} < ${need}`);
  }
  return { checked, unknown, low };
}
