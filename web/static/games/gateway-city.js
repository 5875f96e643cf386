// Gateway (the city) on the phone: the districts around the table, the VP track, the phase stepper,
// the event deck, the battle calculator's preview and report. DOM calls only (strict CSP).
"use strict";

(function () {
  const PALETTE = ["#2e86ab", "#edae49", "#3b8b5a"];
  const FACTION_FILL = { horde: "#7a1f2b", guard: "#4a5a78", nobody: "#d9d2c5" };
  const PHASES = ["deployment", "drafting", "attack", "cleanup", "event"];
  const CARD_W = 112;
  const CARD_H = 84;
  const GAP = 8;

  const STRINGS = {
    en: {
      round: "Round {round}", starting: "Starting player: {name}", attacks: "Attacks this turn: {made} of {allowed}",
      deployment: "Deployment", drafting: "Drafting", attack: "Attack", cleanup: "Cleanup", event: "Event draw",
      districts: "Districts", vp_track: "Victory points (20 wins)", deck: "Event deck", cards_left: "{n} cards left", cards_left_one: "1 card left",
      next_tier: "next: tier {tier}", tier: "Tier {tier}", nobody: "nobody", horde: "Horde", guard: "City Guard",
      tokens: "tokens", tap_target: "Tap a district to attack it.",
      choose_target: "Choose the district to attack first.",
      battle: "Battle preview", last_battle: "Last battle", attacker: "Attacker", defender: "Defender",
      card: "Card", atk: "Atk", def: "Def", hit: "Damage", dies: "Dies", damage: "Damage {n}",
      proposed: "(proposed assignment)", played_by: "{name} plays the Horde / City Guard side.",
      fight: "Fight!", call_off: "Call off",
      plan_attack: "Attack", target: "District", your_army: "Your army", defending_army: "Defending army",
      runestones: "Runestones ±", spawn_runestones: "Spawn ±", own_damage: "Assign damage yourself",
      damage_to_defenders: "On each defender (e.g. 2,0,3)", damage_to_attackers: "On each attacker",
      damage_to_spawn: "On each spawned card", damage_from_spawn: "On each defender",
      preview: "Preview", defend: "Defend the district", army_help: "Your whole army: one row per insurgent.",
      draw_event: "Event card", spawns: "What it spawned (none: leave empty)", record_event: "Record the event card",
      add_card: "+ card", remove: "✕", kind: "Kind", vp: "VP", name: "Name", district: "District",
      correct: "Correct a district", held_by: "Held by", player: "Player", cards: "Cards", save: "Save",
      // the host's new-game options and the titles of the moves' fields
      "district tokens": "District tokens", "district names": "District names", "shuffle the tokens": "Shuffle the tokens",
      "starting City Guard attack": "Starting City Guard attack", "starting City Guard defence": "Starting City Guard defence",
      "starting City Guard VP": "Starting City Guard VP", "starting player": "Starting player",
      "last game's winner": "Last game's winner", "Event Cards I": "Event cards I", "Event Cards II": "Event cards II",
      "Event Cards III": "Event cards III", "VP (±)": "VP (±)",
    },
    ko: {
      summary: "구역 장악, 승점, 네 단계, 이벤트 덱과 전투 계산기; 2–3명.", // the host page's description of the game
      round: "{round}라운드", starting: "시작 플레이어: {name}", attacks: "이번 차례 공격: {made} / {allowed}",
      deployment: "배치", drafting: "영입", attack: "공격", cleanup: "정리", event: "이벤트 뽑기",
      districts: "구역", vp_track: "승점 (20점 승리)", deck: "이벤트 덱", cards_left: "{n}장 남음",
      next_tier: "다음: {tier}단계", tier: "{tier}단계", nobody: "없음", horde: "호드", guard: "시 경비대",
      tokens: "토큰", tap_target: "공격할 구역을 누르세요.",
      choose_target: "먼저 공격할 구역을 고르세요.",
      battle: "전투 미리보기", last_battle: "지난 전투", attacker: "공격자", defender: "방어자",
      card: "카드", atk: "공", def: "방", hit: "피해", dies: "사망", damage: "피해 {n}",
      proposed: "(제안된 배분)", played_by: "{name}님이 호드 / 경비대 쪽을 맡습니다.",
      fight: "전투!", call_off: "공격 취소",
      plan_attack: "공격", target: "구역", your_army: "내 군대", defending_army: "방어 군대",
      runestones: "룬스톤 ±", spawn_runestones: "등장 카드 ±", own_damage: "피해 직접 배분",
      damage_to_defenders: "방어 카드별 (예: 2,0,3)", damage_to_attackers: "공격 카드별",
      damage_to_spawn: "등장 카드별", damage_from_spawn: "방어 카드별",
      preview: "미리보기", defend: "구역 방어", army_help: "군대 전체: 반란군 한 장당 한 줄.",
      draw_event: "이벤트 카드", spawns: "등장한 카드 (없으면 비워 두기)", record_event: "이벤트 카드 기록",
      add_card: "+ 카드", remove: "✕", kind: "종류", vp: "승점", name: "이름", district: "구역",
      correct: "구역 바로잡기", held_by: "지배", player: "플레이어", cards: "카드", save: "저장",
      "district tokens": "구역 토큰", "district names": "구역 이름", "shuffle the tokens": "토큰 섞기",
      "starting City Guard attack": "시작 경비대 공격력", "starting City Guard defence": "시작 경비대 방어력",
      "starting City Guard VP": "시작 경비대 승점", "starting player": "시작 플레이어",
      "last game's winner": "지난 게임 승자", "Event Cards I": "이벤트 카드 I", "Event Cards II": "이벤트 카드 II",
      "Event Cards III": "이벤트 카드 III", "VP (±)": "승점 (±)",
    },
  };

  const MOVE_TITLES = {
    en: {
      next_phase: "Next phase", attack: "Attack a district", defend: "Defend against the event", fight: "Fight!",
      call_off: "Call the attack off", draw_event: "Draw the event card", extra_attack: "A card grants another attack",
      use_district_ability: "Use a district's ability", adjust_vp: "Change VP", set_district: "Correct a district",
      claim_first: "I go first!",
    },
    ko: {
      next_phase: "다음 단계", attack: "구역 공격", defend: "이벤트 방어", fight: "전투!", call_off: "공격 취소",
      draw_event: "이벤트 카드 뽑기", extra_attack: "카드 효과: 추가 공격", use_district_ability: "구역 능력 사용",
      adjust_vp: "승점 바꾸기", set_district: "구역 바로잡기", claim_first: "내가 먼저!",
    },
  };

  // What the player is typing, kept across redraws (the page redraws on every snapshot).
  const drafts = {};
  const contexts = { game: "", turn: "", step: "" };

  function text(key, values) {
    const found = Companion.gameText("gateway-city", key, values);
    return found === null ? key : found;
  }

  const svg = Companion.svg;

  function legal(snapshot, move) {
    return (snapshot.legal_moves || []).find((entry) => entry.move === move) || null;
  }

  function draft(key, fresh) {
    if (!drafts[key]) drafts[key] = fresh();
    return drafts[key];
  }

  // A new game forgets every plan; a new turn the planned attack; a new step (event drawn, another battle) the rest.
  function resetDraftsWhenTheTableMovesOn(view, snapshot) {
    const game = `${snapshot.game_no}`;
    if (game !== contexts.game) for (const key of Object.keys(drafts)) delete drafts[key];
    contexts.game = game;
    const turn = `${view.round}:${view.current}`;
    const step = `${turn}:${view.phase}:${view.battle ? view.battle.district : "-"}:${view.deck.left}`;
    if (turn !== contexts.turn) delete drafts.attack;
    if (step !== contexts.step) { delete drafts.defend; delete drafts.event; }
    contexts.turn = turn;
    contexts.step = step;
  }

  // --- the table -------------------------------------------------------------------------
  function header(view, ui) {
    const starting = view.players[view.starting];
    return ui.el("section", { class: "card gateway-header" },
      ui.el("h2", {}, text("round", { round: view.round })),
      ui.el("p", { class: "muted" }, text("starting", { name: starting ? starting.name : "?" })),
      stepper(view, ui),
      view.phase === "attack" ? ui.el("p", {}, text("attacks", view.attacks)) : null);
  }

  function stepper(view, ui) {
    const at = PHASES.indexOf(view.phase);
    return ui.el("ol", { class: "gateway-phases" }, PHASES.map((phase, index) => ui.el("li",
      { class: index === at ? "current" : index < at ? "done" : null, "aria-current": index === at ? "step" : null },
      `${index === at ? "▶ " : index < at ? "✓ " : ""}${text(phase)}`)));
  }

  function messages(view, ui) {
    const said = Companion.inLangOf(view, "messages"); // messages_ko on the Korean page
    if (!said.length) return null;
    return ui.el("section", { class: "notice gateway-end", role: "status" }, said.map((line) => ui.el("p", {}, line)));
  }

  function controllerLabel(district) {
    if (district.controller === "player") return district.holder_name;
    return text(district.controller);
  }

  function districtFill(district) {
    if (district.controller === "player") return PALETTE[district.holder % PALETTE.length];
    return FACTION_FILL[district.controller] || FACTION_FILL.nobody;
  }

  // Districts clockwise: the first row left to right, the second row right to left.
  function spot(index, count) {
    const perRow = Math.ceil(count / 2);
    const row = index < perRow ? 0 : 1;
    const column = row === 0 ? index : count - 1 - index;
    return { x: column * (CARD_W + GAP), y: row * (CARD_H + GAP) };
  }

  function districtCard(district, index, view, target, choose) {
    const at = spot(index, view.districts.length);
    const dark = district.controller !== "nobody";
    const ink = dark ? "#ffffff" : "#2b1d12";
    const chosen = target === district.number;
    const cards = district.cards.length
      ? `${district.cards.length}× ⚔${district.attack} 🛡${district.defence}` : "—";
    const tokens = district.tokens.length ? `${text("tokens")}: ${district.tokens.join(" · ")}` : "";
    const line = (y, value, size, bold) => svg("text", { x: at.x + 8, y: at.y + y, fill: ink, "font-size": size,
      "font-weight": bold ? "bold" : null }, value);
    return svg("g", { class: chosen ? "district chosen" : "district", tabindex: choose ? 0 : null,
      role: choose ? "button" : null, onclick: choose ? () => choose(district.number) : null,
      onkeydown: choose ? (event) => { if (event.key === "Enter" || event.key === " ") choose(district.number); } : null },
    svg("title", {}, `${district.title}: ${controllerLabel(district)}; ${district.cards.map((card) => card.title).join(", ")}`),
    svg("rect", { x: at.x + 1, y: at.y + 1, width: CARD_W - 2, height: CARD_H - 2, rx: 8, fill: districtFill(district),
      stroke: chosen ? "#ffe08a" : "#2b1d12", "stroke-width": chosen ? 4 : 1.5 }),
    line(18, district.name === `District ${district.number}` ? district.name : `${district.number}. ${district.name.slice(0, 13)}`, 12, true),
    line(38, controllerLabel(district), 13, true),
    line(56, cards, 11, false),
    line(74, tokens, 10, false));
  }

  function districts(view, snapshot, ui) {
    const attack = legal(snapshot, "attack");
    const plan = formsOf().attackPlan();
    const choose = attack ? (number) => { plan.district = number; redraw(ui, snapshot); } : null;
    const count = view.districts.length;
    const width = Math.ceil(count / 2) * (CARD_W + GAP);
    const height = 2 * (CARD_H + GAP);
    const ring = svg("svg", { class: "gateway-districts", viewBox: `0 0 ${width} ${height}`, width: "100%",
      role: "img", "aria-label": text("districts") },
    ...view.districts.map((district, index) => districtCard(district, index, view, attack ? plan.district : null, choose)));
    return ui.el("section", { class: "card" }, ui.el("h3", {}, text("districts")),
      attack ? ui.el("p", {}, text("tap_target")) : null, ring);
  }

  // Each player's name and VP in words (wrapped when long, never cut), beside a row of boxes in their colour.
  function vpTrack(view, ui) {
    const cell = 14;
    const rows = view.players.map((player, seat) => ui.el("li", { class: `gateway-vp-row seat-${seat % PALETTE.length}` },
      ui.el("span", { class: "gateway-vp-name" }, ui.el("b", {}, player.name), ` ${player.vp}`),
      svg("svg", { class: "gateway-vp", viewBox: `0 0 ${view.win_vp * cell} 16`, width: "100%", role: "img",
        "aria-label": `${player.name} ${player.vp}` },
      ...Array.from({ length: view.win_vp }, (unused, index) => svg("rect", { x: index * cell + 1, y: 1,
        width: cell - 2, height: 14, rx: 2, fill: index < player.vp ? PALETTE[seat % PALETTE.length] : "#eee7da",
        stroke: index === view.win_vp - 1 ? "#2b1d12" : "#c9bfae" })))));
    return ui.el("section", { class: "card" }, ui.el("h3", {}, text("vp_track")), ui.el("ol", { class: "gateway-vp-track" }, rows));
  }

  function deck(view, ui) {
    const tiers = view.deck.tiers.map((tier) => ui.el("li", {}, `${text("tier", { tier: tier.tier })}: ${tier.left} / ${tier.size}`));
    return ui.el("section", { class: "card" }, ui.el("h3", {}, text("deck")),
      ui.el("p", {}, text("cards_left", { n: view.deck.left }),
        view.deck.next_tier ? ` — ${text("next_tier", { tier: view.deck.next_tier })}` : ""),
      ui.el("ul", {}, tiers));
  }

  // --- battles ---------------------------------------------------------------------------
  function sideTable(side, title, ui) {
    const rows = side.cards.map((card) => ui.el("tr", { class: card.dies ? "dies" : null },
      ui.el("td", {}, card.title), ui.el("td", {}, String(card.attack)), ui.el("td", {}, String(card.defence)),
      ui.el("td", {}, String(card.damage_taken)), ui.el("td", {}, card.dies ? "✝" : "")));
    return ui.el("div", { class: "gateway-side" },
      ui.el("h4", {}, `${title}: ${side.name} — ${text("damage", { n: side.damage })}`,
        side.assignment_proposed && side.cards.length ? ` ${text("proposed")}` : ""),
      ui.el("table", { class: "table" },
        ui.el("thead", {}, ui.el("tr", {}, ["card", "atk", "def", "hit", "dies"].map((key) => ui.el("th", {}, text(key))))),
        ui.el("tbody", {}, rows)));
  }

  function battle(report, title, view, snapshot, ui) {
    if (!report) return null;
    const pending = title === "battle";
    const fight = pending ? legal(snapshot, "fight") : null;
    const callOff = pending ? legal(snapshot, "call_off") : null;
    const playedBy = report.faction_played_by;
    return ui.el("section", { class: ["card", "gateway-battle", pending && "pending"] },
      ui.el("h3", {}, `${text(title)}: ${report.district_title}`),
      sideTable(report.attacker, text("attacker"), ui), sideTable(report.defender, text("defender"), ui),
      ui.el("ul", { class: "gateway-lines" }, Companion.inLangOf(report, "lines").map((line) => ui.el("li", {}, line))),
      pending && playedBy !== null && view.players[playedBy]
        ? ui.el("p", { class: "muted" }, text("played_by", { name: view.players[playedBy].name })) : null,
      fight ? ui.el("button", { class: "primary", onclick: () => ui.act("fight", {}, fight.seat) }, text("fight")) : null,
      callOff ? ui.el("button", { onclick: () => ui.act("call_off", {}, callOff.seat) }, text("call_off")) : null);
  }

  // --- drawing -------------------------------------------------------------------------------
  let lastRoot = null;
  let forms = null;

  function formsOf() {
    if (!forms) forms = Companion.gatewayCityForms({ text, legal, draft, redraw });
    return forms;
  }

  function redraw(ui, snapshot) {
    if (lastRoot) render(lastRoot, snapshot.view, snapshot, ui);
  }

  function render(root, view, snapshot, ui) {
    lastRoot = root;
    resetDraftsWhenTheTableMovesOn(view, snapshot);
    while (root.firstChild) root.removeChild(root.firstChild);
    const { attackForm, defendForm, eventForm, correctionForm } = formsOf();
    const parts = [messages(view, ui), header(view, ui), districts(view, snapshot, ui), vpTrack(view, ui),
      battle(view.battle, "battle", view, snapshot, ui), defendForm(view, snapshot, ui), attackForm(view, snapshot, ui),
      eventForm(view, snapshot, ui), deck(view, ui), battle(view.last_battle, "last_battle", view, snapshot, ui),
      correctionForm(view, snapshot, ui)];
    for (const part of parts) if (part) root.appendChild(part);
  }

  Companion.registerGame("gateway-city", {
    render,
    customMoves: ["attack", "defend", "fight", "call_off", "draw_event", "set_district"],
    moveTitles: MOVE_TITLES,
    strings: STRINGS,
  });
})();
