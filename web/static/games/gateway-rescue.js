// Gateway: rescue the creatures — each player's world and rescues, the creatures still lost, the
// move's D6 allowance and the last rescue roll: what the D8 decided and how many D6 steps it takes; a folded
// correction of where a player is.
// DOM calls and SVG attributes only (strict CSP: no innerHTML, no inline styles).
"use strict";

(function () {
  const WORLD_ICONS = { home: "🏠", creatures: "🌀" };
  const RESULT_ICONS = { rescued: "🎉", pushed_back: "↩", escaped: "💨", alone: "🌀" };

  const strings = {
    en: {
      first_roll: "Lowest D6 goes first", rolls_next: "{name} rolls the D6 next", turn: "Turn {turn}",
      creatures_left: "Creatures still lost: {left} of {total}", all_home: "Every creature is home!",
      home: "players' world", creatures: "creatures' world", rescues: "{n} rescued",
      held: "in the centre until their next turn", now: "now playing", leads: "most rescues",
      waiting_move: "Roll the D6 to move.", waiting_rescue: "Roll the D8 and the D6 together.",
      allowance: "Move up to {n} steps (never diagonally).", allowance_one: "Move up to 1 step (never diagonally).",
      last_move: "{name} rolled D6 {d6}{from}: up to {d6} steps.", last_move_one: "{name} rolled D6 {d6}{from}: up to 1 step.",
      last_rescue: "{name}'s rescue: D8 {d8}{d8from}, D6 {d6}{d6from}",
      steps: "{n} steps", steps_one: "1 step", from: " ({origin})",
      rescued: "Rescued! Player and creature go to the creatures' world; +1 rescue.",
      pushed_back: "The creature pushes the player back {n} steps.",
      pushed_back_one: "The creature pushes the player back 1 step.",
      escaped: "The creature escapes {n} steps away from the player.",
      escaped_one: "The creature escapes 1 step away from the player.",
      alone: "The player goes to the creatures' world alone; the creature stays.",
      table: "The D8", origin_camera: "camera", origin_phone: "phone", origin_button: "button",
      origin_host: "host", origin_system: "box", origin_corrected: "corrected",
      // the host's new-game option
      "creatures to rescue": "Creatures to rescue",
      // the correction of a player's world
      correct_world: "Correct where a player is", player: "Player", "where they are": "Where they are", save: "Save",
    },
    ko: {
      summary: "생물 6마리 구출: D6로 이동, D8 + D6로 구출; 1–4명.", // the host page's description of the game
      first_roll: "D6가 가장 낮은 사람이 먼저", rolls_next: "다음은 {name}의 D6 굴림", turn: "{turn}번째 턴",
      creatures_left: "아직 길 잃은 생물: {total} 중 {left}", all_home: "모든 생물이 집에 돌아갔습니다!",
      home: "플레이어의 세계", creatures: "생물의 세계", rescues: "구출 {n}",
      held: "다음 턴까지 중앙에 머묾", now: "진행 중", leads: "최다 구출",
      waiting_move: "이동: D6를 굴리세요.", waiting_rescue: "D8과 D6를 함께 굴리세요.",
      allowance: "최대 {n}칸 이동 (대각선 불가).",
      last_move: "{name}: D6 {d6}{from} — 최대 {d6}칸.",
      last_rescue: "{name}의 구출: D8 {d8}{d8from}, D6 {d6}{d6from}",
      steps: "{n}칸", from: " ({origin})",
      rescued: "구출 성공! 플레이어와 생물이 생물의 세계로 갑니다; 구출 +1.",
      pushed_back: "생물이 플레이어를 {n}칸 밀어냅니다.",
      escaped: "생물이 플레이어에게서 {n}칸 도망칩니다.",
      alone: "플레이어 혼자 생물의 세계로 갑니다; 생물은 남습니다.",
      table: "D8 결과표", origin_camera: "카메라", origin_phone: "휴대폰", origin_button: "버튼",
      origin_host: "호스트", origin_system: "본체", origin_corrected: "정정됨",
      "creatures to rescue": "구출할 생물 수",
      correct_world: "플레이어 위치 바로잡기", player: "플레이어", "where they are": "있는 곳", save: "저장",
    },
  };

  const moveTitles = {
    en: {},
    ko: { move: "이동 (D6 굴리기)", rescue: "구출 시도 (D8 + D6 굴리기)", through_portal: "포털 통과", end_turn: "턴 종료",
      set_world: "플레이어 위치 바로잡기" },
  };

  const svg = Companion.svg;

  function render(root, view, snap, ui) {
    const { el, t } = ui;
    const name = (seat) => (view.players[seat] ? view.players[seat].name : `#${seat}`);
    const parts = [phase(view, el, t, name), creatures(view, el, t), players(view, el, t), waiting(view, el, t),
      lastRoll(view, el, t, name), d8Table(view, el, t), correction(snap, ui)];
    root.append(...parts.filter(Boolean));
  }

  // Where a player is, put right (a mis-tapped "Through the portal" passes the turn, so it cannot be undone):
  // one folded form for this phone, open to every seat and the host at any time, not one per seat among the moves.
  function correction(snap, ui) {
    const entry = (snap.legal_moves || []).find((move) => move.move === "set_world");
    if (!entry) return null;
    const form = Companion.schemaForm(entry.args, { prefix: "gr-correct", label: (key) => ui.t(key), submitLabel: ui.t("save"),
      players: snap.players, onSubmit: (values) => ui.act("set_world", values, entry.seat) });
    return ui.el("details", { class: "gr-correct" }, ui.el("summary", {}, ui.t("correct_world")), form);
  }

  function phase(view, el, t, name) {
    if (view.phase === "first_roll" && view.roll_off) {
      const { contenders, rolls } = view.roll_off;
      const next = rolls.length < contenders.length ? contenders[rolls.length] : null;
      return el("div", { class: "gr-rolloff" }, el("h3", {}, t("first_roll")),
        el("ul", {}, contenders.map((seat, index) => el("li", {}, `${name(seat)}: `,
          index < rolls.length ? el("b", {}, `🎲 ${rolls[index]}`) : el("span", { class: "muted" }, "…")))),
        next !== null ? el("p", {}, t("rolls_next", { name: name(next) })) : null);
    }
    return el("p", { class: "gr-phase muted" }, view.phase === "playing" ? t("turn", { turn: view.turn }) : "");
  }

  function creatures(view, el, t) {
    const size = 22;
    const marks = [];
    for (let index = 0; index < view.creatures_total; index += 1) {
      const lost = index < view.creatures_left;
      marks.push(svg("circle", { cx: index * (size + 6) + size / 2, cy: size / 2, r: size / 2 - 2,
        fill: lost ? "#d1495b" : "#3b8b5a", stroke: "#0006", "stroke-width": 1 },
      svg("title", {}, lost ? "lost" : "home")));
    }
    const width = Math.max(1, view.creatures_total * (size + 6));
    return el("div", { class: "gr-creatures" },
      el("p", {}, el("b", {}, view.creatures_left ? t("creatures_left", { left: view.creatures_left, total: view.creatures_total })
        : t("all_home"))),
      svg("svg", { class: "gr-creature-marks", viewBox: `0 0 ${width} ${size}`, width, height: size, role: "img" }, ...marks));
  }

  function players(view, el, t) {
    const leaders = new Set(view.leaders || []);
    const anyRescue = view.players.some((player) => player.rescues > 0);
    return el("ul", { class: "gr-players" }, view.players.map((player, seat) => {
      const current = view.phase === "playing" && seat === view.current;
      return el("li", { class: ["gr-player", current && "current", `world-${player.world}`] },
        el("b", {}, current ? "▶ " : "", player.name), current ? el("small", { class: "muted" }, ` ${t("now")}`) : null,
        el("div", {}, `${WORLD_ICONS[player.world] || ""} ${t(player.world)}`,
          player.held_at_centre ? el("small", { class: "muted" }, ` · ${t("held")}`) : null),
        el("div", {}, "⭐ ", t("rescues", { n: player.rescues }),
          anyRescue && leaders.has(seat) ? el("small", {}, ` · ${t("leads")}`) : null));
    }));
  }

  function waiting(view, el, t) {
    if (view.phase !== "playing") return null;
    if (view.waiting) return el("p", { class: "gr-waiting" }, "🎲 ", el("b", {}, t(`waiting_${view.waiting}`)));
    if (view.allowance !== null && view.allowance !== undefined) {
      return el("p", { class: "gr-allowance" }, "👣 ", el("b", {}, t("allowance", { n: view.allowance })));
    }
    return null;
  }

  function origin(t, value) {
    return value ? t("from", { origin: t(`origin_${value}`) }) : "";
  }

  function lastRoll(view, el, t, name) {
    const roll = view.last_roll;
    if (!roll) return null;
    if (roll.kind === "move") {
      return el("div", { class: "gr-last" },
        el("p", {}, t("last_move", { name: name(roll.player), d6: roll.d6, n: roll.d6, from: origin(t, roll.d6_origin) })));
    }
    return el("div", { class: ["gr-last", `result-${roll.result}`] },
      el("p", {}, t("last_rescue", { name: name(roll.player), d8: roll.d8, d8from: origin(t, roll.d8_origin),
        d6: roll.d6, d6from: origin(t, roll.d6_origin) })),
      el("p", {}, el("b", {}, `${RESULT_ICONS[roll.result] || ""} `, t(roll.result, { n: roll.d6 }))),
      roll.steps !== null && roll.steps !== undefined ? el("p", { class: "gr-steps" }, "👣 ", t("steps", { n: roll.steps })) : null);
  }

  function d8Table(view, el, t) {
    const last = view.last_roll && view.last_roll.kind === "rescue" ? view.last_roll.result : null;
    return el("details", { class: "gr-table" }, el("summary", {}, t("table")),
      el("dl", { class: "kv" }, view.rescue_table.map((row) => [
        el("dt", {}, row.result === last ? "▶ " : "", row.d8.join(" / ")),
        el("dd", {}, `${RESULT_ICONS[row.result] || ""} `, t(row.result, { n: "D6" }))])));
  }

  window.Companion.registerGame("gateway-rescue", { render, customMoves: ["set_world"], moveTitles, strings });
})();
