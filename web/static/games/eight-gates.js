// 8 Gates on the phone: the middle as a tappable grid, the players, the Archivist's paper and,
// once the game is over, the score-over-turns chart. Built with DOM calls only (strict CSP).
"use strict";

(function () {
  const CELL = 44;
  const PALETTE = ["#d1495b", "#2e86ab", "#edae49", "#3b8b5a"];
  const VALUES = [1, 2, 3, 4, 5, 6];

  const STRINGS = {
    en: {
      round: "Round {round} of {rounds}", face_down: "Face-down cards: {count} of {rounds}",
      warn_next_last: "The next round is the last: the game ends after {name}'s turn in it.",
      warn_last: "Last round: the game ends after {name}'s turn.",
      archivist: "Archivist", choose_archivist: "Choosing the Archivist",
      dealt_to: "Deal one card face up to: {names}", deal_n: "Deal {n}",
      opening: "{name} places the top 3 cards of the deck in a row: enter their values.",
      middle: "The middle", ruins: "Ruins", tap_cell: "Tap a highlighted cell to play a Gate there.",
      pick_value: "Gate value for cell ({x}, {y})", type: "Type (optional)", cancel: "Cancel",
      gates_this_turn: "Gates played this turn: {played} of {allowed}",
      players: "Players", name: "Player", hand: "Hand", points: "Points", flipped: "Flipped",
      revealed: "Revealed", proposal: "Proposed",
      scoresheet: "Scoresheet", turn_n: "T{n}", end: "End", total: "Total",
      reveal_now: "Reveal one Run or one Set from your hand: 4 points per card.",
      reveal_hand: "The Hand column is the companion's count: if a Gate's text made someone draw or discard and it was not entered, put it right first with Draw cards or Discard under the deck.",
      result: "Result", chart: "Score over turns", start: "start",
    },
    ko: {
      summary: "아키비스트의 기록: 가운데 격자, 점수, 라운드 수, 마지막 공개; 3–4명.", // the host page's description of the game
      round: "{rounds}라운드 중 {round}라운드", face_down: "뒷면 카드: {count} / {rounds}",
      warn_next_last: "다음 라운드가 마지막입니다: 그 라운드의 {name} 차례 뒤에 게임이 끝납니다.",
      warn_last: "마지막 라운드: {name} 차례 뒤에 게임이 끝납니다.",
      archivist: "아키비스트", choose_archivist: "아키비스트 정하기",
      dealt_to: "카드를 한 장씩 앞면으로 나눠 주세요: {names}", deal_n: "{n}번째 분배",
      opening: "{name}님이 덱 맨 위 카드 3장을 한 줄로 놓습니다: 값을 입력하세요.",
      middle: "가운데", ruins: "폐허", tap_cell: "강조된 칸을 눌러 관문을 놓으세요.",
      pick_value: "({x}, {y}) 칸에 놓을 관문의 값", type: "종류 (선택)", cancel: "취소",
      gates_this_turn: "이번 차례에 놓은 관문: {played} / {allowed}",
      players: "플레이어", name: "플레이어", hand: "손패", points: "점수", flipped: "뒤집음",
      revealed: "공개", proposal: "제안",
      scoresheet: "점수표", turn_n: "{n}차례", end: "끝", total: "합계",
      reveal_now: "손패에서 런 하나 또는 세트 하나를 공개하세요: 카드당 4점.",
      reveal_hand: "손패 칸은 도우미가 센 장수입니다: 관문 효과로 카드를 뽑거나 버렸는데 입력하지 않았다면, 먼저 '카드 뽑기'나 '덱 아래로 버리기'로 바로잡으세요.",
      result: "결과", chart: "차례별 점수", start: "시작",
      // argument titles in the move forms
      player: "플레이어", cards: "카드 수", "x (column)": "X (열)", "y (row)": "Y (행)", "value (1–6)": "값 (1–6)",
      "the dealt values, in seat order of the contenders": "받은 카드 값 (자리 순서대로)",
      "values, left to right": "값 (왼쪽부터)", "types, left to right": "종류 (왼쪽부터)",
      "the revealed Run or Set": "공개한 런 또는 세트",
      "the values in your hand (all of them, or those to choose from)": "손패의 값 (전부, 또는 고를 카드)",
    },
  };

  const MOVE_TITLES = {
    en: {
      deal: "Dealt for the Archivist", choose_archivist: "The table chooses the Archivist",
      starting_gates: "Starting Gates", place_gate: "Play a Gate",
      flip_reference: "Flip the reference card (second Gate)", destroy_gate: "Destroy a Gate (→ Ruins)",
      gain_points: "Gain points", lose_points: "Lose points", draw_cards: "Draw cards",
      discard_cards: "Discard under the deck", end_turn: "End turn", reveal: "Reveal a Run or Set",
      enter_hand: "Enter my hand (propose the best)", accept_proposal: "Reveal the proposed Run or Set",
    },
    ko: {
      deal: "아키비스트 정하기: 받은 카드 값", choose_archivist: "아키비스트 직접 정하기",
      starting_gates: "시작 관문 3장", place_gate: "관문 놓기",
      flip_reference: "참조 카드 뒤집기 (관문 하나 더)", destroy_gate: "관문 파괴 (→ 폐허)",
      gain_points: "점수 얻기", lose_points: "점수 잃기", draw_cards: "카드 뽑기",
      discard_cards: "덱 아래로 버리기", end_turn: "차례 끝", reveal: "런 또는 세트 공개",
      enter_hand: "손패 입력 (최선 제안)", accept_proposal: "제안대로 공개",
    },
  };

  // The cell waiting for a value, kept across redraws while it stays legal.
  let pending = null;

  function text(key, values) {
    const found = Companion.gameText("eight-gates", key, values);
    return found === null ? key : found;
  }

  const svg = Companion.svg;

  function playerName(view, seat) {
    const player = view.players && view.players[seat];
    return player ? player.name : "?";
  }

  // The seat that may play a Gate from this phone (its own, or any for the host), or null.
  function placingSeat(snapshot) {
    const entry = (snapshot.legal_moves || []).find((move) => move.move === "place_gate");
    return entry ? entry.seat : null;
  }

  function header(view, ui) {
    const archivist = view.archivist === null ? null : playerName(view, view.archivist);
    let warning = null;
    if (view.warning) {
      warning = text(view.round === view.rounds ? "warn_last" : "warn_next_last", { name: archivist });
    }
    return ui.el("section", { class: "eight-gates-header" },
      ui.el("h2", {}, text("round", { round: view.round, rounds: view.rounds })),
      archivist === null ? null : ui.el("p", {}, `${text("archivist")}: ${archivist}`),
      view.phase === "playing" || view.phase === "reveal"
        ? ui.el("p", { class: "muted" }, text("face_down", { count: view.face_down, rounds: view.rounds })) : null,
      warning ? ui.el("p", { class: "notice warn", role: "alert" }, warning) : null);
  }

  function archivistDraw(view, ui) {
    if (view.phase !== "archivist") return null;
    const draw = view.archivist_draw || { contenders: [], deals: [] };
    const names = draw.contenders.map((seat) => playerName(view, seat)).join(", ");
    const rows = draw.deals.map((deal, index) => ui.el("tr", {},
      ui.el("th", {}, text("deal_n", { n: index + 1 })),
      ui.el("td", {}, deal.contenders.map((seat, place) => `${playerName(view, seat)} ${deal.values[place]}`).join(", "))));
    return ui.el("section", { class: "eight-gates-part" },
      ui.el("h3", {}, text("choose_archivist")),
      ui.el("p", {}, text("dealt_to", { names })),
      rows.length ? ui.el("table", { class: "table" }, ui.el("tbody", {}, rows)) : null);
  }

  function middle(view, snapshot, ui) {
    if (view.phase === "archivist") return null;
    if (view.phase === "opening") {
      return ui.el("section", { class: "eight-gates-part" }, ui.el("p", {}, text("opening", { name: playerName(view, view.archivist) })));
    }
    const seat = placingSeat(snapshot);
    const legal = seat === null ? [] : view.legal_cells;
    if (pending && !legal.some((cell) => cell.x === pending.x && cell.y === pending.y)) pending = null;
    const box = view.bounds;
    const width = (box.max_x - box.min_x + 1) * CELL;
    const height = (box.max_y - box.min_y + 1) * CELL;
    const at = (x, y) => ({ left: (x - box.min_x) * CELL, top: (y - box.min_y) * CELL });
    const slot = ui.el("div", { class: "picker-slot" });
    const targets = [];
    const choose = (cell) => {
      pending = cell ? { x: cell.x, y: cell.y } : null;
      for (const target of targets) mark(target.shape, pending && target.cell.x === pending.x && target.cell.y === pending.y);
      slot.replaceChildren(...(pending ? [valuePicker(pending, seat, ui, () => choose(null))] : []));
    };
    for (const cell of legal) targets.push({ cell, shape: legalShape(cell, at(cell.x, cell.y), () => choose(cell), ui) });
    const shapes = view.middle.map((gate) => gateShape(gate, at(gate.x, gate.y), ui)).concat(targets.map((target) => target.shape));
    const grid = svg("svg", { class: "eight-gates-middle", viewBox: `0 0 ${width} ${height}`, width, height,
      role: "group", "aria-label": text("middle") }, ...shapes);
    if (pending) choose(pending);
    return ui.el("section", { class: "eight-gates-part" },
      ui.el("h3", {}, text("middle")),
      view.phase === "playing"
        ? ui.el("p", { class: "muted" }, text("gates_this_turn", { played: view.gates_played, allowed: view.gates_allowed })) : null,
      legal.length ? ui.el("p", {}, text("tap_cell")) : null,
      ui.el("div", { class: "scroll" }, grid),
      slot);
  }

  function gateShape(gate, spot, ui) {
    const label = gate.ruins ? text("ruins") : `${gate.value}${gate.type ? ` ${gate.type}` : ""}`;
    return svg("g", { class: gate.ruins ? "gate ruins" : "gate" },
      svg("title", {}, `(${gate.x}, ${gate.y}) ${label}`),
      svg("rect", { x: spot.left + 2, y: spot.top + 2, width: CELL - 4, height: CELL - 4, rx: 6,
        fill: gate.ruins ? "#8a8078" : "#f4ecd8", stroke: "#5b4636", "stroke-width": 2 }),
      svg("text", { x: spot.left + CELL / 2, y: spot.top + CELL / 2 + 7, "text-anchor": "middle", "font-size": 20,
        "font-weight": "bold", fill: gate.ruins ? "#f4ecd8" : "#2b1d12" }, gate.ruins ? "✕" : gate.value));
  }

  // An empty cell where a Gate may go: tappable (and reachable by keyboard); illegal cells are not drawn.
  function legalShape(cell, spot, choose, ui) {
    return svg("rect", { class: "legal-cell", x: spot.left + 4, y: spot.top + 4, width: CELL - 8, height: CELL - 8,
      rx: 6, fill: "#e3f2e1", stroke: "#3b8b5a", "stroke-width": 2, "stroke-dasharray": "4 3", tabindex: 0,
      role: "button", "data-x": cell.x, "data-y": cell.y, "aria-label": text("pick_value", { x: cell.x, y: cell.y }),
      onclick: choose, onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") choose(); } });
  }

  function mark(shape, chosen) {
    shape.setAttribute("fill", chosen ? "#ffe08a" : "#e3f2e1");
    shape.setAttribute("class", chosen ? "legal-cell chosen" : "legal-cell");
  }

  // The value buttons (1–6) and an optional type for the chosen cell; a tap places the Gate.
  function valuePicker(cell, seat, ui, cancel) {
    const type = ui.el("input", { type: "text", maxlength: 24, name: "type", id: "f-eg-type", "aria-label": text("type"),
      placeholder: text("type") });
    const place = (value) => {
      const args = { x: cell.x, y: cell.y, value };
      if (type.value.trim()) args.type = type.value.trim();
      pending = null;
      return ui.act("place_gate", args, seat);
    };
    return ui.el("div", { class: "value-picker" },
      ui.el("p", {}, text("pick_value", { x: cell.x, y: cell.y })),
      ui.el("div", { class: "row" },
        VALUES.map((value) => ui.el("button", { type: "button", class: "primary", "data-value": value,
          onclick: () => place(value) }, String(value)))),
      ui.el("label", { class: "field" }, ui.el("span", {}, text("type")), type),
      ui.el("button", { type: "button", onclick: cancel }, text("cancel")));
  }

  function players(view, snapshot, ui) {
    const turn = new Set(snapshot.whose_turn || []);
    // What a player revealed (or was proposed) goes on a line of its own under theirs: four columns fit a small phone.
    const rows = view.players.map((player) => {
      const shown = reveal(player);
      return [ui.el("tr", { class: [turn.has(player.seat) && "current", shown && "has-detail"] },
        ui.el("th", {}, player.name, player.archivist ? ` (${text("archivist")})` : ""),
        ui.el("td", {}, String(player.hand_size)),
        ui.el("td", {}, String(player.points)),
        ui.el("td", {}, player.flipped ? "✓" : "")),
      shown ? ui.el("tr", { class: "detail" }, ui.el("td", { colspan: 4 }, shown)) : null];
    });
    return ui.el("section", { class: "eight-gates-part" },
      ui.el("h3", {}, text("players")),
      view.phase === "reveal" ? ui.el("p", {}, text("reveal_now")) : null,
      view.phase === "reveal" ? ui.el("p", { class: "muted" }, text("reveal_hand")) : null,
      ui.el("div", { class: "scroll" }, ui.el("table", { class: "table" },
        ui.el("thead", {}, ui.el("tr", {}, ["name", "hand", "points", "flipped"].map((key) => ui.el("th", {}, text(key))))),
        ui.el("tbody", {}, rows))));
  }

  function reveal(player) {
    if (player.revealed) return `${text("revealed")}: ${player.revealed.join(" ")}`;
    if (player.proposal) return `${text("proposal")}: ${player.proposal.join(" ")}`;
    return "";
  }

  function scoresheet(view, ui) {
    if (view.phase === "archivist" || view.phase === "opening") return null;
    const sheet = view.scoresheet;
    const columns = [];
    for (let number = 1; number <= sheet.rounds; number += 1) columns.push(text("turn_n", { n: number }));
    // The total comes first after the name: on a small phone it stays in sight while the turns scroll.
    const rows = sheet.rows.map((row) => ui.el("tr", {},
      ui.el("th", {}, row.name),
      ui.el("td", { class: "total" }, String(row.total)),
      row.by_round.map((points, index) => ui.el("td", {}, index + 1 <= view.round || points ? String(points) : "")),
      ui.el("td", {}, row.reveal === null ? "" : String(row.reveal))));
    return ui.el("section", { class: "eight-gates-part" },
      ui.el("h3", {}, text("scoresheet")),
      ui.el("div", { class: "scroll" }, ui.el("table", { class: "table scoresheet" },
        ui.el("thead", {}, ui.el("tr", {}, ui.el("th", {}, text("name")), ui.el("th", {}, text("total")),
          columns.map((title) => ui.el("th", {}, title)), ui.el("th", {}, text("end")))),
        ui.el("tbody", {}, rows))));
  }

  function result(view, ui) {
    if (!view.result) return null;
    return ui.el("section", { class: "eight-gates-result" },
      ui.el("h3", {}, text("result")),
      ui.el("p", {}, view.result.summary),
      ui.el("h4", {}, text("chart")),
      chart(view.result.series, view, ui));
  }

  // One polyline per player: running score after each turn, with a legend in the players' colours.
  function chart(series, view, ui) {
    const width = 320;
    const height = 180;
    const pad = 28;
    const all = series.players.flat();
    const low = Math.min(0, ...all);
    const high = Math.max(1, ...all);
    const steps = Math.max(1, series.labels.length - 1);
    const px = (index) => pad + (index * (width - 2 * pad)) / steps;
    const py = (value) => height - pad - ((value - low) * (height - 2 * pad)) / (high - low);
    const lines = series.players.map((points, seat) => svg("polyline", {
      points: points.map((value, index) => `${px(index).toFixed(1)},${py(value).toFixed(1)}`).join(" "),
      fill: "none", stroke: PALETTE[seat % PALETTE.length], "stroke-width": 3, "stroke-linejoin": "round" },
    svg("title", {}, `${playerName(view, seat)}: ${points[points.length - 1]}`)));
    const axes = [
      svg("line", { x1: pad, y1: py(low), x2: width - pad, y2: py(low), stroke: "#888" }),
      svg("line", { x1: pad, y1: pad, x2: pad, y2: height - pad, stroke: "#888" }),
      svg("text", { x: pad - 4, y: py(high) + 4, "text-anchor": "end", "font-size": 10 }, high),
      svg("text", { x: pad - 4, y: py(low) + 4, "text-anchor": "end", "font-size": 10 }, low),
      svg("text", { x: pad, y: height - 8, "font-size": 10 }, text("start")),
      svg("text", { x: width - pad, y: height - 8, "text-anchor": "end", "font-size": 10 }, series.labels[series.labels.length - 1]),
    ];
    const legend = view.players.map((player, seat) => svg("text", { x: pad + seat * 72, y: 14, "font-size": 12,
      fill: PALETTE[seat % PALETTE.length], "font-weight": "bold" }, player.name));
    return svg("svg", { class: "eight-gates-chart", viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
      "aria-label": text("chart") }, ...axes, ...lines, ...legend);
  }

  function render(root, view, snapshot, ui) {
    while (root.firstChild) root.removeChild(root.firstChild);
    const parts = [header(view, ui), archivistDraw(view, ui), result(view, ui), middle(view, snapshot, ui),
      players(view, snapshot, ui), scoresheet(view, ui)];
    for (const part of parts) if (part) root.appendChild(part);
  }

  Companion.registerGame("eight-gates", {
    render,
    customMoves: ["place_gate"],
    usesDice: false, // no dice and no camera line on its table
    moveTitles: MOVE_TITLES,
    strings: STRINGS,
  });
})();
