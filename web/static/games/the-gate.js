// The Gate (게이트): both players' four gates — level, damage against what the gate can take,
// reinforcements against the level, the face-down guardian, closed — the damage toward 7 and the
// closed gates toward 2, the battle under way and an attack form. Every string in English and Korean.
// DOM calls and SVG attributes only (strict CSP: no innerHTML, no inline styles).
"use strict";

(function () {
  const MAX_ATTACKERS = 3;
  const KIND_ICONS = { attack: "⚔", defence: "🛡", gate: "⛩", one_shot: "✦" };

  const strings = {
    en: {
      you: "you", first: "first player", coin_heads: "Coin: heads", coin_tails: "Coin: tails",
      damage_taken: "Damage taken: {n} / {max}", closed_gates: "Closed gates: {n} / {max}",
      gate_n: "Gate {n}", level: "Level {n}", damage: "Damage {n} / {max}", closed: "Closed",
      last_card: "only the last card left", reinforcements: "Reinforcements {n} / {max}", none: "none",
      guardian: "Guardian", face_down: "face down", revealed: "revealed", defence_n: "defence {n}", no_guardian: "no guardian",
      attacked: "attacked this turn", reinforced: "reinforced this turn",
      battle: "Battle", battle_line: "{attacker} attacks {defender}'s gate {gate} with {count} character(s)",
      attack_total: "Attack {total}", attack_parts: "Attack {total} ({base} {bonus})", defence_total: "Defence {total} (guardian {guardian} {bonus} + level {level})",
      guardian_hidden: "?", won: "The attack succeeded: choose 1 damage or removing a reinforcement.",
      to_beat: "Attack must be more than the defence.",
      attack_form: "Attack a gate", target: "Gate to attack", attacker_n: "Attacker {n}", attack_value: "attack",
      bonus: "Bonus", send_attack: "Attack!", no_attacker: "Enter at least one attacker's attack.",
      win_damage: "7 damage", win_closed: "2 closed gates",
      // move form labels and choices
      "gate number": "Gate", "level now on top": "Level now on top", "guardian defence": "Guardian's defence",
      kind: "Kind", "+X": "+X", side: "Side", change: "Change", "reinforcement card": "Reinforcement card (1 = first)",
      "first player": "First player", attack: "Attack", defence: "Defence", gate: "Gate", one_shot: "One-shot",
      "starting gate level": "Starting gate level",
    },
    ko: {
      summary: "소환사 둘, 각자 게이트 넷: 레벨, 수호자, 증원, 전투; 데미지 7 또는 폐문 2개로 승리.", // the host page's description of the game
      you: "나", first: "선", coin_heads: "동전: 앞면", coin_tails: "동전: 뒷면",
      damage_taken: "받은 데미지: {n} / {max}", closed_gates: "폐문된 게이트: {n} / {max}",
      gate_n: "게이트 {n}", level: "레벨 {n}", damage: "데미지 {n} / {max}", closed: "폐문",
      last_card: "마지막 카드만 남음", reinforcements: "강화 {n} / {max}", none: "없음",
      guardian: "가디언", face_down: "뒷면", revealed: "공개", defence_n: "방어력 {n}", no_guardian: "가디언 없음",
      attacked: "이번 턴에 공격받음", reinforced: "이번 턴에 강화함",
      battle: "전투", battle_line: "{attacker}: 캐릭터 {count}장으로 {defender}의 게이트 {gate} 공격",
      attack_total: "공격력 {total}", attack_parts: "공격력 {total} ({base} {bonus})", defence_total: "방어력 {total} (가디언 {guardian} {bonus} + 레벨 {level})",
      guardian_hidden: "?", won: "공격 성공: 1 데미지 또는 강화 카드 제거를 고르세요.",
      to_beat: "공격력이 방어력보다 커야 합니다.",
      attack_form: "게이트 공격", target: "공격할 게이트", attacker_n: "공격자 {n}", attack_value: "공격력",
      bonus: "보너스", send_attack: "공격!", no_attacker: "공격자 한 명 이상의 공격력을 입력하세요.",
      win_damage: "7 데미지", win_closed: "게이트 2개 폐문",
      "gate number": "게이트 번호", "level now on top": "새로 맨 위 카드의 레벨", "guardian defence": "가디언 방어력",
      kind: "종류", "+X": "+X", side: "대상", change: "변화량", "reinforcement card": "강화 카드 번호 (1 = 처음 부착)",
      "first player": "선 플레이어", attack: "공격", defence: "방어", gate: "게이트", one_shot: "일시강화",
      "starting gate level": "시작 게이트 레벨",
    },
  };

  const moveTitles = {
    en: {},
    ko: {
      toss_coin: "동전 던지기", choose_first: "선 정하기 (가위바위보)", summon: "소환", place_guardian: "가디언 배치",
      swap_guardian: "가디언 교체", reinforce: "강화", attack: "게이트 공격", ability: "능력 (공격력/방어력 변경)",
      use_one_shot: "일시강화 사용", clash: "충돌", deal_damage: "1 데미지 주기", remove_reinforcement: "강화 카드 제거",
      end_turn: "턴 종료",
    },
  };

  const svg = Companion.svg;

  // A row of pips: `filled` of `total` coloured, the rest hollow.
  function pips(total, filled, colour, label) {
    const size = 14;
    const width = Math.max(1, total * (size + 4));
    const marks = [];
    for (let index = 0; index < total; index += 1) {
      marks.push(svg("rect", { x: index * (size + 4) + 1, y: 1, width: size, height: size, rx: 3,
        fill: index < filled ? colour : "none", stroke: colour, "stroke-width": 1.5 }));
    }
    return svg("svg", { class: "tg-pips", viewBox: `0 0 ${width} ${size + 2}`, width, height: size + 2, role: "img",
      "aria-label": label }, svg("title", {}, label), ...marks);
  }

  function bilingual(text, lang) {
    if (text === null || text === undefined) return "";
    return typeof text === "object" ? (text[lang] || text.en || "") : String(text);
  }

  function render(root, view, snap, ui) {
    const { el, t } = ui;
    const parts = [
      el("p", { class: "tg-status" }, el("b", {}, bilingual(view.status, ui.lang)),
        view.coin ? el("small", { class: "muted" }, ` · ${t(`coin_${view.coin}`)}`) : null),
      ...orderedSeats(view).map((seat) => summoner(view, seat, el, t)),
      battle(view, el, t),
      attackForm(view, snap, ui)];
    root.append(...parts.filter(Boolean));
  }

  // The viewer's opponent on top, the viewer's own gates below (the host sees seat 0 first).
  function orderedSeats(view) {
    return view.viewer === 0 ? [1, 0] : [0, 1];
  }

  function summoner(view, seat, el, t) {
    const player = view.players[seat];
    const current = view.phase === "playing" && view.current === seat;
    return el("div", { class: ["tg-summoner", current && "current", view.viewer === seat && "mine"] },
      el("h3", {}, current ? "▶ " : "", player.name,
        view.viewer === seat ? el("small", {}, ` (${t("you")})`) : null,
        view.first === seat ? el("small", { class: "muted" }, ` · ${t("first")}`) : null,
        player.reinforced_this_turn ? el("small", { class: "muted" }, ` · ${t("reinforced")}`) : null),
      el("div", { class: "tg-track" },
        el("span", {}, t("damage_taken", { n: player.damage_taken, max: view.damage_to_win }), " "),
        pips(view.damage_to_win, player.damage_taken, "#a8322d", t("win_damage"))),
      el("div", { class: "tg-track" },
        el("span", {}, t("closed_gates", { n: player.closed_gates, max: view.closed_to_win }), " "),
        pips(view.closed_to_win, player.closed_gates, "#6b665e", t("win_closed"))),
      el("ul", { class: "tg-gates" }, player.gates.map((gate) => gateCard(gate, el, t))));
  }

  function gateCard(gate, el, t) {
    const cards = gate.reinforcements.map((card) => `${KIND_ICONS[card.kind] || ""} ${t(card.kind)} +${card.amount}`);
    return el("li", { class: ["tg-gate", gate.closed && "closed"] },
      el("b", {}, t("gate_n", { n: gate.number })), " · ", t("level", { n: gate.level }),
      gate.closed ? el("b", { class: "tg-closed" }, ` · ⛔ ${t("closed")}`) : null,
      gate.last_card_only ? el("small", { class: "muted" }, ` · ${t("last_card")}`) : null,
      el("div", {}, t("damage", { n: gate.damage, max: gate.capacity }), " ",
        pips(gate.capacity, gate.damage, "#a8322d", t("damage", { n: gate.damage, max: gate.capacity }))),
      gate.closed ? null : el("div", {}, t("reinforcements", { n: gate.reinforcements.length, max: gate.reinforcement_limit }),
        ": ", cards.length ? cards.join(", ") : el("span", { class: "muted" }, t("none"))),
      gate.closed ? null : el("div", {}, `${t("guardian")}: `, guardianText(gate.guardian, t)),
      gate.attacked_this_turn ? el("small", { class: "muted" }, t("attacked")) : null);
  }

  function guardianText(guardian, t) {
    if (!guardian) return t("no_guardian");
    const known = guardian.defence !== null && guardian.defence !== undefined ? t("defence_n", { n: guardian.defence }) : "";
    if (!guardian.face_down) return `🃏 ${t("revealed")}: ${known}`;
    return known ? `🂠 ${t("face_down")} (${known})` : `🂠 ${t("face_down")}`;
  }

  function signed(amount) {
    if (!amount) return "";
    return amount > 0 ? `+ ${amount}` : `− ${Math.abs(amount)}`;
  }

  function battle(view, el, t) {
    const fight = view.battle;
    if (!fight) return null;
    const name = (seat) => view.players[seat].name;
    const guardian = fight.guardian_defence === null || fight.guardian_defence === undefined ? 0 : fight.guardian_defence;
    return el("div", { class: ["tg-battle", fight.won && "won"] }, el("h3", {}, "⚔ ", t("battle")),
      el("p", {}, t("battle_line", { attacker: name(fight.attacker), defender: name(fight.defender), gate: fight.gate,
        count: fight.attackers })),
      el("p", {}, el("b", {}, t(fight.attack_bonus ? "attack_parts" : "attack_total",
        { total: fight.attack_total, base: fight.attack, bonus: signed(fight.attack_bonus) }))),
      el("p", {}, el("b", {}, t("defence_total", { total: fight.defence_total, guardian, bonus: signed(fight.defence_bonus),
        level: fight.level }))),
      el("p", { class: "muted" }, fight.won ? t("won") : t("to_beat")));
  }

  function attackForm(view, snap, ui) {
    const { el, t } = ui;
    const move = snap.legal_moves.find((found) => found.move === "attack" && (snap.you === null || snap.you === undefined
      || found.seat === snap.you));
    if (!move) return null;
    const defender = 1 - move.seat;
    const targets = view.players[defender].gates.filter((gate) => !gate.closed && !gate.attacked_this_turn);
    const target = el("select", { id: "tg-attack-gate", name: "gate" },
      targets.map((gate) => el("option", { value: String(gate.number) }, t("gate_n", { n: gate.number }))));
    const rows = [];
    for (let index = 0; index < MAX_ATTACKERS; index += 1) {
      const attack = el("input", { id: `tg-attack-${index}`, type: "number", inputmode: "numeric", min: 1, max: 20, step: 1 });
      const bonus = el("input", { id: `tg-bonus-${index}`, type: "number", inputmode: "numeric", min: 0, max: 20, step: 1 });
      rows.push({ attack, bonus });
    }
    const note = el("p", { class: "muted" });
    const form = el("form", { class: "schema-form tg-attack" },
      el("div", { class: "legend" }, `⚔ ${t("attack_form")} — ${view.players[defender].name}`),
      el("div", { class: "fields" },
        el("label", { class: "field", for: "tg-attack-gate" }, el("span", {}, t("target")), target),
        rows.map((row, index) => [
          el("label", { class: "field", for: row.attack.id }, el("span", {}, `${t("attacker_n", { n: index + 1 })}: ${t("attack_value")}`), row.attack),
          el("label", { class: "field", for: row.bonus.id }, el("span", {}, t("bonus")), row.bonus)])),
      note,
      el("button", { type: "submit", class: "primary" }, t("send_attack")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const attackers = rows.filter((row) => row.attack.value !== "").map((row) => {
        const entry = { attack: Number(row.attack.value) };
        if (row.bonus.value !== "") entry.bonus = Number(row.bonus.value);
        return entry;
      });
      if (!attackers.length) { note.textContent = t("no_attacker"); return; }
      ui.act("attack", { gate: Number(target.value), attackers }, move.seat);
    });
    return form;
  }

  window.Companion.registerGame("the-gate", { render, customMoves: ["attack"], moveTitles, strings });
})();
