// The league's rating chart (#43): a line per player, named where it ends. It drew 10 of 16
// players (a 10-colour palette, matched through a legend), equal lines lay one over another,
// its words were ~8 px on a projector (a small drawing scaled up), and it came only from the
// second evening. Now every player has a line and a label at its end, labels kept apart where
// lines end close together (in columns beside each other when the chart is too low for one);
// lines at one value are drawn a little apart; the drawing is made at the size it is shown,
// so its words are 16 px on the screen; one evening is drawn game by game (league/ratings.py).

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { PALETTE } from "./palette.js";

const FONT_PX = 16; // every word of the chart, as the screen shows it (CSS: .lg-chart text)
const ROW_PX = 21; // a label's row: its text (~1.17 em) and a gap
const EQUAL_PX = 3; // lines at one value, this far apart
const AXIS_PX = 30; // under the lines: the evenings' (or games') names
const SWATCH_PX = 12; // the line's colour before its name
const WIDE = matchMedia("(min-width: 901px)"); // the projector's layout: the chart fills its column's height

// Distinct colours for n lines: the palette (told apart with colour blindness) while it lasts,
// else n hues around the circle, dark and light in turn, handed out in strides of about 3/8 of
// the circle, so that neighbours in the standings (whose lines end close together) differ most.
// The label names the line either way.
function colours(n) {
  if (n <= PALETTE.length) return PALETTE.slice(0, n);
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  let stride = Math.round(n * 0.38);
  while (gcd(stride, n) !== 1) stride += 1;
  return Array.from({ length: n }, (_, i) => `hsl(${Math.round((((i * stride) % n) * 360) / n)} 75% ${i % 2 ? 30 : 45}%)`);
}

// Tick values: a round step, three or four of them between lo and hi.
function ticks(lo, hi) {
  const raw = (hi - lo) / 3;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 100) / 100);
  return out;
}

// Positions for labels wanted at `targets` (ascending), at least `gap` apart and within [lo, hi]:
// labels that would overlap are gathered and centred on the mean of their targets.
function spread(targets, lo, hi, gap) {
  const groups = [];
  const top = (g) => Math.max(lo, Math.min(hi - (g.n - 1) * gap, g.sum / g.n - ((g.n - 1) * gap) / 2));
  for (const y of targets) {
    groups.push({ n: 1, sum: y });
    while (groups.length > 1) {
      const [a, b] = groups.slice(-2);
      if (top(a) + a.n * gap <= top(b)) break;
      a.n += b.n;
      a.sum += b.sum;
      groups.pop();
    }
  }
  return groups.flatMap((g) => Array.from({ length: g.n }, (_, i) => top(g) + i * gap));
}

const text = (attrs, words) => svg("text", attrs, document.createTextNode(words));

// `chart`: the room's points ({evening, ratings: {name: rating}}), `rows`: the standings, whose
// order gives the colours. A figure that draws itself once it has its width (and, on a
// projector, its height), and again when either changes.
export function ratingChart(chart, rows) {
  const names = rows.map((r) => r.name).filter((n) => chart.some((e) => n in e.ratings));
  if (!names.length) return null;
  const byGame = chart.every((e) => e.evening === 1); // one evening: a point after each game
  const box = h("div", { class: "lg-chart-box" });
  const figure = h("figure", { class: "lg-chart", id: "lg-chart" }, box, h("figcaption", { text: t(byGame ? "lg_chartGames" : "lg_chart") }));
  // Drawn as soon as laid out, before the screen is painted (the room's screen draws anew at
  // every move at a table: drawn a frame later, the chart would blink). Off the projector the
  // chart is as high as its labels need, which its width does not change.
  const low = Math.max(200, names.length * ROW_PX + AXIS_PX + 8);
  const fit = () => { box.style.height = WIDE.matches ? "" : `${low}px`; }; // CSSOM, which the CSP allows
  fit();
  let drawnFor = "";
  const observer = new ResizeObserver(() => {
    if (!box.isConnected) { observer.disconnect(); return; }
    fit();
    const size = `${box.clientWidth}×${box.clientHeight}`;
    if (!box.clientWidth || size === drawnFor) return;
    drawnFor = size;
    draw(box, chart, names, byGame);
  });
  observer.observe(box);
  return figure;
}

function draw(box, chart, names, byGame) {
  const W = box.clientWidth;
  const H = Math.max(box.clientHeight, 4 * ROW_PX + AXIS_PX);
  const plot = svg("svg", { width: W, height: H, role: "img", "aria-label": t(byGame ? "lg_chartGames" : "lg_chart") });
  box.replaceChildren(plot);
  const width = (words) => {
    const el = text({}, words);
    plot.append(el);
    const w = el.getComputedTextLength();
    el.remove();
    return w;
  };
  const colour = Object.fromEntries(colours(names.length).map((c, i) => [names[i], c]));
  const values = chart.flatMap((e) => Object.values(e.ratings));
  const tickValues = ticks(Math.min(0, ...values), Math.max(1, ...values));
  const lo = Math.min(tickValues[0], ...values), hi = Math.max(tickValues.at(-1), ...values);
  const left = Math.max(...tickValues.map((v) => width(String(v)))) + 8;
  const top = FONT_PX / 2 + 2, bottom = H - AXIS_PX;
  const y = (v) => top + ((hi - v) * (bottom - top)) / (hi - lo || 1);

  // The lines' ends, top first; their labels in as many columns as the height needs.
  const last = Object.fromEntries(names.map((n) => [n, chart.findLastIndex((e) => n in e.ratings)]));
  const offset = offsets(chart, names, y);
  const endY = (n) => y(chart[last[n]].ratings[n]) + offset[last[n]][n];
  const ordered = names.slice().sort((a, b) => endY(a) - endY(b) || names.indexOf(a) - names.indexOf(b));
  const perColumn = WIDE.matches ? Math.max(1, Math.floor((H - 4) / ROW_PX)) : names.length;
  const columns = Array.from({ length: Math.ceil(names.length / perColumn) }, () => []);
  ordered.forEach((n, i) => columns[i % columns.length].push(n));
  const labelWidth = Object.fromEntries(names.map((n) => [n, width(n) + SWATCH_PX]));
  const columnWidth = columns.map((c) => Math.max(...c.map((n) => labelWidth[n])));
  const right = W - columnWidth.reduce((a, b) => a + b + 10, 14);
  const x = (j) => (chart.length === 1 ? (left + right) / 2 : left + (j * (right - left)) / (chart.length - 1));

  const axis = svg("g", { class: "lg-axis" },
    tickValues.flatMap((v) => [svg("line", { x1: left, x2: right, y1: y(v), y2: y(v), class: v === 0 ? "lg-zero" : "lg-grid" }),
      text({ x: left - 6, y: y(v), "text-anchor": "end", "dominant-baseline": "central" }, String(v))]),
    xLabels(chart, byGame, x, width).map(([j, words, anchor]) => text({ x: x(j), y: H - 6, "text-anchor": anchor }, words)));
  const lines = names.map((n) => {
    const points = chart.map((e, j) => (n in e.ratings ? `${x(j).toFixed(1)},${(y(e.ratings[n]) + offset[j][n]).toFixed(1)}` : null)).filter(Boolean);
    return svg("g", { class: "lg-line", "data-name": n },
      points.length > 1 ? svg("polyline", { points: points.join(" "), fill: "none", stroke: colour[n], "stroke-width": 2.5 }) : null,
      svg("circle", { cx: x(last[n]), cy: endY(n), r: 4, fill: colour[n] }));
  });
  // Labels over the leaders: a leader to a far column passes under the nearer column's names.
  const labels = svg("g", { class: "lg-labels" });
  let at = right + 14;
  columns.forEach((column, c) => {
    const ys = spread(column.map(endY), ROW_PX / 2, H - ROW_PX / 2, ROW_PX);
    column.forEach((n, i) => {
      lines[names.indexOf(n)].append(svg("line", { x1: x(last[n]) + 4, y1: endY(n), x2: at, y2: ys[i], stroke: colour[n], "stroke-width": 1.5 }));
      labels.append(svg("rect", { x: at - 2, y: ys[i] - ROW_PX / 2 + 1, width: labelWidth[n] + 4, height: ROW_PX - 2, class: "lg-label-bg" }),
        svg("rect", { x: at, y: ys[i] - 4, width: SWATCH_PX - 4, height: 8, fill: colour[n] }),
        text({ x: at + SWATCH_PX, y: ys[i], "dominant-baseline": "central", class: "lg-label" }, n));
    });
    at += columnWidth[c] + 10;
  });
  plot.append(axis, ...lines, labels);
}

// Each line's shift at each point: lines at one value there are drawn EQUAL_PX apart (in the
// standings' order), not one over another.
function offsets(chart, names, y) {
  return chart.map((e) => {
    const at = {};
    for (const n of names) if (n in e.ratings) (at[Math.round(y(e.ratings[n]))] ||= []).push(n);
    return Object.fromEntries(Object.values(at).flatMap((same) => same.map((n, i) => [n, (i - (same.length - 1) / 2) * EQUAL_PX])));
  });
}

// The x axis's words (evening or game), as many as fit: the last, and from the first on those
// that keep clear of the one before and of the last.
function xLabels(chart, byGame, x, width) {
  const words = chart.map((e, j) => t(byGame ? "lg_game" : "lg_evening", { n: byGame ? j + 1 : e.evening }));
  const lastOne = chart.length - 1;
  const anchor = (j) => (lastOne === 0 ? "middle" : j === 0 ? "start" : j === lastOne ? "end" : "middle");
  const span = (j) => {
    const w = width(words[j]);
    const from = { start: x(j), end: x(j) - w, middle: x(j) - w / 2 }[anchor(j)];
    return [from, from + w];
  };
  const end = span(lastOne)[0];
  const chosen = [];
  let clear = -Infinity;
  for (let j = 0; j < lastOne; j += 1) {
    const [from, to] = span(j);
    if (from >= clear && to + 12 <= end) { chosen.push(j); clear = to + 12; }
  }
  return [...chosen, lastOne].map((j) => [j, words[j], anchor(j)]);
}
