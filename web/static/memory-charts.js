// Charts of the table's memory, drawn as SVG by the page (no chart library): a die's faces against a fair
// die's, and a player's scores over time.
"use strict";

(function () {
  const C = window.Companion;
  const { svg } = C;
  const WIDTH = 320;

  // Bars of each face's count, a dashed line where a fair die would put them; `label` names the chart.
  function faces(counts, label) {
    const total = counts.reduce((sum, count) => sum + count, 0);
    const expected = total / counts.length;
    const height = 150, bottom = 130, top = 12;
    const most = Math.max(expected, ...counts, 1);
    const step = WIDTH / counts.length;
    const y = (value) => bottom - (bottom - top) * (value / most);
    const bars = counts.map((count, index) => [
      svg("rect", { x: index * step + 6, y: y(count), width: step - 12, height: bottom - y(count), class: "bar" }),
      svg("text", { x: index * step + step / 2, y: height - 4, "text-anchor": "middle", class: "face" }, String(index + 1)),
      svg("text", { x: index * step + step / 2, y: Math.max(top, y(count) - 3), "text-anchor": "middle", class: "count" }, String(count)),
    ]);
    return svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": label, class: "chart faces" },
      svg("title", {}, label), bars,
      total ? svg("line", { x1: 0, x2: WIDTH, y1: y(expected), y2: y(expected), class: "expected" }) : null);
  }

  // Dots joined by a line: one score per finished game, oldest on the left; wins drawn filled.
  function scores(points, label) {
    const kept = points.filter((point) => point.score !== null && point.score !== undefined);
    const height = 160, left = 34, bottom = 140, top = 10;
    if (!kept.length) return null;
    const low = Math.min(0, ...kept.map((point) => point.score));
    const high = Math.max(1, ...kept.map((point) => point.score));
    const x = (index) => left + (kept.length === 1 ? (WIDTH - left) / 2 : index * (WIDTH - left - 10) / (kept.length - 1));
    const y = (value) => bottom - (bottom - top) * ((value - low) / (high - low || 1));
    const path = kept.map((point, index) => `${index ? "L" : "M"}${x(index).toFixed(1)},${y(point.score).toFixed(1)}`).join(" ");
    return svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": label, class: "chart scores" },
      svg("title", {}, label),
      svg("line", { x1: left, x2: WIDTH, y1: bottom, y2: bottom, class: "axis" }),
      svg("text", { x: left - 4, y: bottom, "text-anchor": "end", class: "tick" }, String(low)),
      svg("text", { x: left - 4, y: top + 8, "text-anchor": "end", class: "tick" }, String(high)),
      svg("path", { d: path, class: "line" }),
      kept.map((point, index) => svg("circle", { cx: x(index), cy: y(point.score), r: 4, class: point.winner ? "dot won" : "dot" },
        svg("title", {}, `${point.date} ${point.game}: ${point.score}`))));
  }

  C.memoryCharts = { faces, scores };
})();
