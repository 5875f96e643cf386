// Through The Gate: explorers with their hourglasses and tallies, speed and direction, the roll
// check with raw die, modified value and verdict, the roll-off, the random pick and the scoring.
"use strict";

(function () {
  const TALLY_ICONS = { compassion: "♥", strength: "♠", wisdom: "♣", wild: "✦", companions: "🦄", diary: "📖" };
  const MAX_GLASS_ICONS = 10;

  const strings = {
    en: {
      competitive: "Competitive", ice_queen: "Against the Ice Queen", solo: "Adventuring Alone",
      first_roll: "Roll-off for first player", playing: "Turn {turn}", scoring: "Scoring",
      hourglasses: "{n} hourglasses", hourglasses_one: "1 hourglass", no_hourglass: "no hourglass left", current: "now playing",
      speed: "Speed", no_speed: "Speed not declared yet", quick: "Quickness Potion: speed is 2 this turn",
      declare_speed: "Declare your speed", direction: "Direction", clockwise: "to the left (clockwise)",
      counter: "to the right (counter-clockwise)", reverses: "Eclipse: reverses at the end of this turn",
      roll_off: "Roll-off", rolls_next: "{name} rolls next", picked: "Randomly selected: {name}",
      check: "Roll check", check_for: "{name} against speed {speed}", die_n: "Die {n}", raw: "rolled",
      value: "counts", passed: "yes", failed: "no", failures: "{n} failures", failures_one: "1 failure",
      victories: "Victories", totals: "Totals", wilds: "Wilds ♥/♠/♣", leader: "leads", tie_rule: "Tie rule",
      contested: "The best wild splits of {names} depend on each other: place those wilds by hand before the scores are final.",
      targets: "The Ice Queen's targets", needed: "needs {n}", met: "met", not_met: "not met", team: "Team totals",
      knight: "Knight", scholar: "Scholar", diplomat: "Diplomat", explorer: "Explorer", leadership: "Leadership",
      // enum values and argument titles in the move forms
      item: "Item check (🔧): roll ≥ speed", less: "Roll < speed?", greater: "Roll > speed?", six: "Roll = 6?",
      equal: "Roll = speed?", three_less: "Three rolls (< speed fails)", djinn: "Frolicking Djinn",
      odd_even: "Odd or even? (Grasping Trees)", "and, on the same die": "And, on the same die",
      brooch_of_alertness: "Brooch of Alertness +2", braid_of_confusion: "Braid of Confusion −2",
      bottled_imp_plus: "Bottled Imp +1", bottled_imp_minus: "Bottled Imp −1", companion_bonus: "Companion +1",
      player: "Player", card: "Card", "which die": "Which die", "which die (left out: the next)": "Which die (empty: the next one rolled)", variant: "Variant", "hourglasses per player": "Hourglasses each",
      compassion: "♥ compassion", strength: "♠ strength", wisdom: "♣ wisdom", wild: "✦ wild", companions: "🦄 companions",
      diary: "📖 diary cards",
    },
    ko: {
      summary: "모래시계 토큰, 속도와 굴림 판정; 탐험가 1–5명과 d6 하나.", // the host page's description of the game
      competitive: "경쟁", ice_queen: "얼음 여왕에 맞서", solo: "혼자 모험하기",
      first_roll: "선 플레이어 정하기 굴림", playing: "{turn}번째 차례", scoring: "점수 계산",
      hourglasses: "모래시계 {n}개", no_hourglass: "모래시계 없음", current: "진행 중",
      speed: "속도", no_speed: "아직 속도를 선언하지 않음", quick: "신속의 물약: 이번 차례 속도 2",
      declare_speed: "속도 선언", direction: "진행 방향", clockwise: "왼쪽으로 (시계 방향)",
      counter: "오른쪽으로 (반시계 방향)", reverses: "일식: 이번 차례가 끝나면 방향이 바뀝니다",
      roll_off: "선 정하기", rolls_next: "다음은 {name}의 굴림", picked: "무작위 선택: {name}",
      check: "판정 굴림", check_for: "{name}, 속도 {speed}에 대해", die_n: "주사위 {n}", raw: "굴린 값",
      value: "적용 값", passed: "예", failed: "아니오", failures: "실패 {n}개",
      victories: "승리", totals: "합계", wilds: "와일드 ♥/♠/♣", leader: "선두", tie_rule: "동점 규칙",
      contested: "{names}의 최적 와일드 배분이 서로 얽혀 있습니다: 점수 확정 전에 직접 배치하세요.",
      targets: "얼음 여왕의 목표", needed: "{n} 필요", met: "달성", not_met: "미달성", team: "팀 합계",
      knight: "기사", scholar: "학자", diplomat: "외교관", explorer: "탐험가", leadership: "지도력",
      cold_guard: "차가운 경비대", wintery_curse: "겨울의 저주", reign_of_fear: "공포의 통치",
      dark_alliance: "어둠의 동맹", scattered_shards: "흩어진 조각",
      item: "아이템 판정 (🔧): 굴림 ≥ 속도", less: "굴림 < 속도?", greater: "굴림 > 속도?", six: "굴림 = 6?",
      equal: "굴림 = 속도?", three_less: "세 번 굴림 (< 속도면 실패)", djinn: "장난꾸러기 지니",
      odd_even: "홀수 또는 짝수? (움켜쥐는 나무들)", "and, on the same die": "그리고 같은 주사위로",
      brooch_of_alertness: "경계의 브로치 +2", braid_of_confusion: "혼란의 머리띠 −2",
      bottled_imp_plus: "병 속의 임프 +1", bottled_imp_minus: "병 속의 임프 −1", companion_bonus: "동료 +1",
      player: "플레이어", card: "카드", "which die": "주사위", "which die (left out: the next)": "주사위 (비우면 다음에 굴릴 주사위)", variant: "변형 규칙", "hourglasses per player": "1인당 모래시계",
      compassion: "♥ 연민", strength: "♠ 힘", wisdom: "♣ 지혜", wild: "✦ 와일드", companions: "🦄 동료",
      diary: "📖 일기 카드",
    },
  };

  const moveTitles = {
    en: {},
    ko: {
      declare_speed: "속도 선언", check: "판정 굴림", modify: "굴림 수정", reroll: "다시 굴리기 (은사과)",
      quickness_potion: "신속의 물약", gain_hourglass: "+1 모래시계", lose_hourglass: "−1 모래시계",
      everyone_gains_hourglass: "환상의 모래시계", pick_random_player: "무작위 플레이어 선택",
      eclipse: "일식 (차례 끝에 방향 반대)", end_turn: "차례 끝내기", set_tallies: "일기 집계",
      choose_wilds: "와일드 배치", auto_wilds: "최적 와일드 배분", finish_scoring: "점수 확정",
    },
  };

  function render(root, view, snap, ui) {
    const { el, t } = ui;
    const name = (seat) => (view.players[seat] ? view.players[seat].name : `#${seat}`);
    root.append(...[
      el("p", { class: "ttg-phase" }, el("b", {}, t(view.mode)), " · ",
        view.phase === "playing" ? t("playing", { turn: view.turn }) : t(view.phase)),
      explorers(view, el, t),
      view.phase === "playing" ? turnLine(view, el, t) : null,
      speedButtons(snap, ui),
      rollOff(view, el, t, name),
      view.random_pick !== null && view.random_pick !== undefined
        ? el("p", { class: "ttg-pick" }, "🎲 ", t("picked", { name: name(view.random_pick) })) : null,
      check(view.check, el, t, name),
      view.scoring ? scoring(view, el, t, name) : null,
    ].filter(Boolean));
  }

  function explorers(view, el, t) {
    return el("ul", { class: "ttg-explorers" }, view.players.map((explorer, seat) => {
      const current = view.phase === "playing" && seat === view.current;
      const glasses = explorer.hourglasses <= MAX_GLASS_ICONS
        ? "⌛".repeat(explorer.hourglasses) : `⌛ × ${explorer.hourglasses}`;
      return el("li", { class: ["ttg-explorer", current && "current"] },
        el("div", { class: "ttg-name" }, current ? "▶ " : "", explorer.name,
          current ? el("small", {}, ` ${t("current")}`) : null),
        el("div", { class: "ttg-glasses", title: t("hourglasses", { n: explorer.hourglasses }) },
          explorer.hourglasses ? [glasses, el("span", { class: "count" }, ` ${explorer.hourglasses}`)] : el("small", {}, t("no_hourglass"))),
        el("div", { class: "ttg-tallies" }, Object.entries(explorer.tallies).map(([key, count]) =>
          el("span", { class: "tally", title: t(key) }, `${TALLY_ICONS[key] || key} ${count}`))));
    }));
  }

  function turnLine(view, el, t) {
    const arrow = view.direction.startsWith("left") ? "↻" : "↺";
    const speed = view.speed === null || view.speed === undefined
      ? el("span", { class: "muted" }, t("no_speed"))
      : el("span", {}, `${t("speed")}: `, el("b", { class: "ttg-speed" }, String(view.speed)));
    return el("div", { class: "ttg-turn" },
      el("p", {}, speed, view.quickness_potion ? el("small", {}, ` 🧪 ${t("quick")}`) : null),
      el("p", {}, `${t("direction")}: `, el("b", { class: "ttg-arrow" }, arrow), " ",
        t(view.direction.startsWith("left") ? "clockwise" : "counter")),
      view.reverse_at_end ? el("p", { class: "ttg-eclipse" }, "🌒 ", t("reverses")) : null);
  }

  function speedButtons(snap, ui) {
    const move = snap.legal_moves.find((found) => found.move === "declare_speed"
      && (snap.you === null || found.seat === snap.you));
    if (!move) return null;
    const schema = move.args.properties.speed;
    const buttons = [];
    for (let speed = schema.minimum; speed <= schema.maximum; speed += 1) {
      buttons.push(ui.el("button", { class: "ttg-speed-button primary", onclick: () => ui.act("declare_speed", { speed }, move.seat) },
        String(speed)));
    }
    return ui.el("div", { class: "ttg-declare" }, ui.el("h3", {}, ui.t("declare_speed")), ui.el("div", { class: "row" }, buttons));
  }

  function rollOff(view, el, t, name) {
    if (!view.roll_off) return null;
    const { contenders, rolls } = view.roll_off;
    const next = rolls.length < contenders.length ? contenders[rolls.length] : null;
    return el("div", { class: "ttg-rolloff" }, el("h3", {}, t("roll_off")),
      el("ul", {}, contenders.map((seat, index) => el("li", {}, `${name(seat)}: `,
        index < rolls.length ? el("b", {}, `🎲 ${rolls[index]}`) : el("span", { class: "muted" }, "…")))),
      next !== null ? el("p", {}, t("rolls_next", { name: name(next) })) : null);
  }

  function check(found, el, t, name) {
    if (!found) return null;
    const dice = found.dice.map((die, index) => el("li", { class: "ttg-die" },
      `${t("die_n", { n: index + 1 })}: ${t("raw")} `, el("b", {}, String(die.raw)),
      die.modifier ? [` ${die.modifier > 0 ? "+" : "−"} ${Math.abs(die.modifier)} → ${t("value")} `, el("b", {}, String(die.value))] : null));
    const verdictClass = found.passed === true ? "pass" : found.passed === false ? "fail" : "";
    return el("div", { class: "ttg-check" },
      el("h3", {}, `${t("check")}: ${t(found.kind) !== found.kind ? t(found.kind) : found.title}`),
      el("p", { class: "muted" }, t("check_for", { name: name(found.player), speed: found.speed })),
      dice.length ? el("ul", { class: "ttg-dice" }, dice) : null,
      el("p", { class: ["ttg-verdict", verdictClass] }, Companion.inLangOf(found, "verdict"),
        found.passed === true ? ` ✔ ${t("passed")}` : found.passed === false ? ` ✘ ${t("failed")}` : ""),
      found.failures !== null && found.failures !== undefined && !found.awaiting
        ? el("p", {}, t("failures", { n: found.failures })) : null);
  }

  function scoring(view, el, t, name) {
    const score = view.scoring;
    if (score.victories) return competitive(score, el, t, name, view.players.length);
    return iceQueen(score, el, t);
  }

  function competitive(score, el, t, name, count) {
    const keys = ["compassion", "strength", "wisdom", "companions", "diary"];
    const rows = [];
    const tallied = score.totals.some((totals) => Object.values(totals).some((value) => value > 0)); // nobody leads a blank sheet
    for (let seat = 0; seat < count; seat += 1) {
      const leads = tallied && score.leaders.includes(seat);
      rows.push(el("tr", { class: leads ? "leader" : null },
        el("th", {}, name(seat), leads ? el("small", {}, ` ★ ${t("leader")}`) : null,
          el("span", { class: "victories" }, score.victories[seat].map((key) => t(key)).join(", ") || "—")),
        keys.map((key) => el("td", {}, String(score.totals[seat][key]))),
        el("td", {}, score.wilds[seat].join("/"))));
    }
    return el("div", { class: "ttg-scoring" }, el("h3", {}, t("victories")),
      el("div", { class: "scroll" }, el("table", {},
        el("thead", {}, el("tr", {}, el("th", {}, ""),
          keys.map((key) => el("th", { title: t(key) }, TALLY_ICONS[key])), el("th", {}, t("wilds")))),
        el("tbody", {}, rows))),
      (score.contested || []).length
        ? el("p", { class: "contested" }, t("contested", { names: score.contested.map(name).join(", ") })) : null,
      el("p", { class: "tie-rule" }, el("strong", {}, `${t("tie_rule")}: `), Companion.inLangOf(score, "tie_rule")));
  }

  function iceQueen(score, el, t) {
    const met = new Set(score.met);
    return el("div", { class: "ttg-scoring" }, el("h3", {}, t("targets")),
      el("ul", { class: "ttg-targets" }, score.targets.map((target) => el("li", { class: met.has(target.key) ? "pass" : "fail" },
        met.has(target.key) ? "✔ " : "✘ ", el("b", {}, t(target.key) !== target.key ? t(target.key) : target.title), ` — ${TALLY_ICONS[target.tally]} ${score.totals[target.tally]} / `,
        t("needed", { n: target.needed }), ` (${t(met.has(target.key) ? "met" : "not_met")})`))),
      el("p", {}, `${t("team")}: `, Object.entries(score.totals).map(([key, value]) => `${TALLY_ICONS[key]} ${value}`).join("  "),
        ` · ${t("wilds")}: ${score.wilds.join("/")}`));
  }

  window.Companion.registerGame("through-the-gate", { render, customMoves: ["declare_speed"], moveTitles, strings });
})();
