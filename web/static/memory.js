// The table's memory: the history of finished games, one game replayed step by step, a player's record, and
// are these dice fair. English and Korean, as the other pages; data from /api/plays, /api/players, /api/stats.
"use strict";

(function () {
  const C = window.Companion;
  const { el } = C;
  const STRINGS = {
    en: {
      history: "History", dice: "Dice", host: "Host page", no_plays: "No finished games yet.",
      minutes: "{n} min", minutes_one: "1 min", replay: "Replay move by move", winner: "won", tie_rule: "Tie rule",
      bgstats: "Log this play in BG Stats", exports: "Export every play", plays_csv: "Plays (CSV)",
      plays_json: "Plays (JSON)", dice_csv: "Dice (CSV)", step: "Step {n} of {total}", previous: "◀ Back",
      next: "Next ▶", start: "The game starts", whose_turn: "Turn: {names}", last_roll: "Last roll",
      player: "Player", plays: "Plays", wins: "Wins", win_rate: "Win rate", best: "Best", average: "Average",
      game: "Game", solo_bests: "Solo bests", streak_win: "On a winning streak: {n} in a row",
      streak_win_one: "Won the last game", streak_loss: "{n} games without a win", streak_loss_one: "Lost the last game",
      scores_over_time: "Scores over time (filled: won)", merge: "Same person as…", merge_into: "Count as this player",
      merge_help: "The host can count two names as one person (for example ‘Ann’ and ‘Annie’).",
      merged: "Merged.", players: "Players", all_games: "Every game", this_game: "This game ({title})",
      camera_reads: "Read by the camera: {verdict}", hand_entries: "Entered by hand: {verdict}",
      faces_chart: "d{sides}: how often each face came up; the dashed line is a fair die",
      luck: "Luck at this table (average die against a fair die's)", luck_none: "no dice yet",
      luck_up: "{name}: +{luck} a die ({n} dice)", luck_down: "{name}: {luck} a die ({n} dice)",
      how: "How this is worked out: a chi-square test of each kind of die against a fair one; p below 0.01 is called unlikely. The camera's reads are what the dice did; entries by hand are what people said.",
      no_rolls: "No dice rolled yet.", names_of: "Also played as: {names}",
      luck_all: "Luck, all time (dice the camera read, against a fair die's average)",
      luck_all_up: "+{luck} a die over {n} dice", luck_all_down: "{luck} a die over {n} dice",
      luck_all_up_one: "+{luck} a die over 1 die", luck_all_down_one: "{luck} a die over 1 die",
      luck_counting: "Still counting the dice of past games ({n} to go)…",
    },
    ko: {
      history: "기록", dice: "주사위", host: "호스트 페이지", no_plays: "아직 끝난 게임이 없습니다.",
      minutes: "{n}분", replay: "한 수씩 다시 보기", winner: "승리", tie_rule: "동점 규칙",
      bgstats: "BG Stats에 이 게임 기록하기", exports: "모든 게임 내보내기", plays_csv: "게임 (CSV)",
      plays_json: "게임 (JSON)", dice_csv: "주사위 (CSV)", step: "{total}단계 중 {n}단계", previous: "◀ 이전",
      next: "다음 ▶", start: "게임 시작", whose_turn: "차례: {names}", last_roll: "마지막 굴림",
      player: "플레이어", plays: "게임 수", wins: "승리", win_rate: "승률", best: "최고", average: "평균",
      game: "게임", solo_bests: "솔로 최고 기록", streak_win: "{n}연승 중", streak_loss: "{n}게임째 승리 없음",
      scores_over_time: "시간에 따른 점수 (채운 점: 승리)", merge: "같은 사람…", merge_into: "이 플레이어로 합치기",
      merge_help: "호스트는 두 이름을 한 사람으로 셀 수 있습니다(예: ‘Ann’과 ‘Annie’).",
      merged: "합쳤습니다.", players: "플레이어", all_games: "모든 게임", this_game: "이번 게임 ({title})",
      camera_reads: "카메라가 읽은 주사위: {verdict}", hand_entries: "직접 입력한 주사위: {verdict}",
      faces_chart: "d{sides}: 각 면이 나온 횟수, 점선은 공정한 주사위",
      luck: "이 테이블의 운 (공정한 주사위 평균과 비교한 주사위 평균)", luck_none: "아직 주사위 없음",
      luck_up: "{name}: 주사위당 +{luck} ({n}개)", luck_down: "{name}: 주사위당 {luck} ({n}개)",
      how: "계산 방법: 주사위 종류마다 공정한 주사위와 카이제곱 검정을 합니다. p가 0.01보다 작으면 드문 일로 봅니다. 카메라가 읽은 값은 주사위가 실제로 낸 값이고, 직접 입력한 값은 사람이 말한 값입니다.",
      no_rolls: "아직 굴린 주사위가 없습니다.", names_of: "다른 이름: {names}",
      luck_all: "전체 기간의 운 (카메라가 읽은 주사위, 공정한 주사위 평균과 비교)",
      luck_all_up: "주사위 {n}개 기준 주사위당 +{luck}", luck_all_down: "주사위 {n}개 기준 주사위당 {luck}",
      luck_all_up_one: "주사위 1개 기준 주사위당 +{luck}", luck_all_down_one: "주사위 1개 기준 주사위당 {luck}",
      luck_counting: "지난 게임의 주사위를 아직 세는 중입니다 ({n}게임 남음)…",
    },
  };
  const root = () => document.getElementById("memory");

  function t(key, values) {
    const table = STRINGS[C.lang] || STRINGS.en;
    const one = values && values.n === 1 && (table[`${key}_one`] || STRINGS.en[`${key}_one`]);
    const text = one || table[key] || STRINGS.en[key] || key;
    return String(text).replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? values[name] : all));
  }

  function nav(current) {
    const link = (href, key) => el("a", { href, "aria-current": current === key ? "page" : null }, t(key));
    return el("nav", { class: "memory-nav" }, link("/history", "history"), link("/dice", "dice"), link("/host", "host"));
  }

  function playerLink(name) {
    return el("a", { href: `/players/${encodeURIComponent(name)}` }, name);
  }

  function bgstatsButton(play) {
    return el("a", { class: "bgstats", href: "#", onclick: async (event) => {
      event.preventDefault();
      const found = await C.request("GET", `/api/plays/${play}/bgstats`);
      window.location.href = found.url;
    } }, t("bgstats"));
  }

  function playItem(play) {
    const people = play.players.map((seat) => el("span", { class: seat.winner ? "winner" : "" },
      playerLink(seat.name), seat.score !== null ? ` ${seat.score}` : "", seat.winner ? ` 🏆` : "", " "));
    const tie = C.inLangOf(play, "tie_rule");
    return el("li", { class: "play", "data-play": play.id },
      el("strong", {}, play.title), el("div", { class: "meta" }, `${play.date} · ${t("minutes", { n: play.duration_min })}`),
      el("div", {}, people), el("div", {}, C.inLangOf(play, "summary")),
      tie ? el("div", { class: "meta" }, `${t("tie_rule")}: ${tie}`) : null,
      el("div", {}, el("a", { href: `/history/${play.id}` }, t("replay")), " ", bgstatsButton(play.id)));
  }

  async function history() {
    const found = await C.request("GET", "/api/plays");
    const list = found.plays.length ? el("ul", { class: "plays" }, found.plays.map(playItem)) : el("p", {}, t("no_plays"));
    return [nav("history"), el("h2", {}, t("history")), list,
      el("h3", {}, t("exports")), el("p", { class: "memory-nav" },
        el("a", { href: "/api/plays.csv", download: "plays.csv" }, t("plays_csv")),
        el("a", { href: "/api/plays.json", download: "plays.json" }, t("plays_json")),
        el("a", { href: "/api/stats/dice.csv", download: "dice.csv" }, t("dice_csv")))];
  }

  function keyValues(value) {
    if (value === null || typeof value !== "object") return document.createTextNode(String(value));
    if (Array.isArray(value)) return el("ol", { class: "kv" }, value.map((item) => el("li", {}, keyValues(item))));
    return el("dl", { class: "kv" }, Object.entries(value).filter(([key]) => !key.startsWith("log"))
      .map(([key, item]) => [el("dt", {}, C.humanize(key)), el("dd", {}, keyValues(item))]));
  }

  function tableView(snap) {
    const box = el("section", { class: "game" });
    const spec = C.games[snap.game];
    const ui = { act: () => undefined, el, lang: C.lang, t: (key, values) => C.gameText(snap.game, key, values) || key, snapshot: snap };
    try {
      if (spec && spec.render) spec.render(box, snap.view, snap, ui); else box.appendChild(keyValues(snap.view));
    } catch (error) {
      box.replaceChildren(keyValues(snap.view));
    }
    return box;
  }

  function describe(line) {
    if (line.kind === "StartGame") return t("start");
    if (line.kind === "Move") return `#${line.seat} ${line.move} ${JSON.stringify(line.args)}`;
    if (line.values) return `${line.kind === "CorrectDice" ? "✎ " : "🎲 "}${line.values.join(", ")} (${line.source})`;
    return `${line.kind} (${line.source})`;
  }

  async function replay(play) {
    const found = await C.request("GET", `/api/plays/${play}/steps`);
    const total = found.steps.length;
    const holder = el("div", { class: "replay" });
    let at = total - 1;
    const show = async (next) => {
      at = Math.max(0, Math.min(total - 1, next));
      const snap = await C.request("GET", `/api/plays/${play}/steps/${at}`);
      const names = snap.whose_turn.map((seat) => snap.players[seat]).join(", ");
      const log = C.inLangOf(snap.view, "log") || [];
      holder.replaceChildren(
        el("div", { class: "steps" },
          el("button", { type: "button", onclick: () => show(at - 1), disabled: at === 0 }, t("previous")),
          el("input", { type: "range", min: 0, max: total - 1, value: at, "aria-label": t("step", { n: at, total: total - 1 }),
            onchange: (event) => show(Number(event.target.value)) }),
          el("button", { type: "button", onclick: () => show(at + 1), disabled: at === total - 1 }, t("next"))),
        el("p", { class: "step-now" }, t("step", { n: at, total: total - 1 })),
        el("p", { class: "step-line" }, describe(found.steps[at])),
        snap.outcome ? el("p", { class: "winners" }, C.inLangOf(snap.outcome.detail, "summary") || snap.outcome.summary)
          : el("p", {}, names ? t("whose_turn", { names }) : ""),
        snap.dice ? el("p", {}, `${t("last_roll")}: ${snap.dice.values.join(", ")}`) : null,
        tableView(snap), log.length ? el("ol", { class: "log" }, log.slice(-8).map((line) => el("li", {}, line))) : null);
    };
    await show(at);
    return [nav("history"), el("h2", {}, `${found.title} · ${found.players.join(", ")}`), holder];
  }

  function streakLine(streak) {
    if (streak.kind === "none") return null;
    return el("p", {}, t(streak.kind === "win" ? "streak_win" : "streak_loss", { n: streak.length }));
  }

  function allTimeLuck(found) {
    const text = found.counting ? t("luck_counting", { n: found.counting }) : found.luck === null ? t("luck_none")
      : t(found.luck >= 0 ? "luck_all_up" : "luck_all_down", { luck: found.luck.toFixed(2), n: found.dice });
    return [el("h3", {}, t("luck_all")), el("p", { class: "luck-all" }, text)];
  }

  async function player(name) {
    const found = await C.request("GET", `/api/players/${encodeURIComponent(name)}`);
    const pct = (rate) => `${Math.round(rate * 100)} %`;
    const rows = found.games.map((game) => el("tr", {}, el("td", {}, game.title), el("td", {}, String(game.plays)),
      el("td", {}, String(game.wins)), el("td", {}, pct(game.win_rate)), el("td", {}, game.best ?? "—"), el("td", {}, game.average ?? "—")));
    const solo = Object.entries(found.solo_bests);
    const chart = C.memoryCharts.scores(found.scores, t("scores_over_time"));
    const others = await C.request("GET", "/api/players");
    const choices = others.players.filter((row) => row.key !== found.key);
    const merge = choices.length ? el("form", { class: "merge", onsubmit: async (event) => {
      event.preventDefault();
      const chosen = event.target.querySelector("select").value;
      try {
        await C.request("POST", "/api/merges", { name: chosen, into: found.name });
        window.location.reload();
      } catch (error) {
        event.target.querySelector(".said").textContent = C.said(error);
      }
    } }, el("label", { for: "merge-name" }, t("merge")), el("select", { id: "merge-name" }, choices.map((row) => el("option", { value: row.name }, row.name))),
      el("button", { type: "submit" }, t("merge_into")), el("p", { class: "meta" }, t("merge_help")), el("p", { class: "said", role: "status" })) : null;
    return [nav(""), el("h2", {}, found.name),
      found.names.length > 1 ? el("p", { class: "meta" }, t("names_of", { names: found.names.join(", ") })) : null,
      el("p", {}, `${t("plays")}: ${found.plays} · ${t("wins")}: ${found.wins}`), streakLine(found.streak), allTimeLuck(found.luck),
      el("div", { class: "scroll-x" }, el("table", {}, el("thead", {}, el("tr", {}, ["game", "plays", "wins", "win_rate", "best", "average"].map((key) => el("th", {}, t(key))))), el("tbody", {}, rows))),
      solo.length ? [el("h3", {}, t("solo_bests")), el("ul", {}, solo.map(([game, best]) => el("li", {}, `${game}: ${best}`)))] : null,
      chart ? [el("h3", {}, t("scores_over_time")), chart] : null, merge];
  }

  function kindSection(sides, kind) {
    return el("section", { class: "kind", "data-sides": sides },
      el("h4", {}, `d${sides}`),
      el("p", { class: kind.flagged ? "verdict flagged" : "verdict" }, C.inLangOf(kind, "verdict")),
      C.memoryCharts.faces(kind.counts, t("faces_chart", { sides })),
      kind.camera.rolls ? el("p", {}, t("camera_reads", { verdict: C.inLangOf(kind.camera, "verdict") })) : null,
      kind.hand.rolls ? el("p", {}, t("hand_entries", { verdict: C.inLangOf(kind.hand, "verdict") })) : null);
  }

  function kinds(found) {
    const entries = Object.entries(found.kinds);
    return entries.length ? entries.map(([sides, kind]) => kindSection(sides, kind)) : el("p", {}, t("no_rolls"));
  }

  function luck(rows) {
    return el("ul", { class: "luck" }, rows.map((row) => el("li", {}, row.luck === null ? `${row.name}: ${t("luck_none")}`
      : t(row.luck >= 0 ? "luck_up" : "luck_down", { name: row.name, luck: row.luck.toFixed(2), n: row.dice }))));
  }

  async function dice() {
    const all = await C.request("GET", "/api/stats/dice?scope=all");
    let game = null;
    try { game = await C.request("GET", "/api/stats/dice?scope=game"); } catch (error) { game = null; }
    const title = game ? game.title : "";
    return [nav("dice"), el("h2", {}, t("dice")), el("p", { class: "meta" }, t("how")),
      el("h3", {}, t("all_games")), kinds(all),
      game ? [el("h3", {}, t("this_game", { title })), kinds(game), el("h4", {}, t("luck")), luck(game.luck)] : null];
  }

  async function render() {
    const box = root();
    const page = box.dataset.page;
    try {
      const parts = page === "history" ? await history() : page === "replay" ? await replay(box.dataset.play)
        : page === "player" ? await player(box.dataset.name) : await dice();
      box.replaceChildren(el("div", { class: "memory" }, parts));
    } catch (error) {
      box.replaceChildren(nav(page), el("p", { class: "notice error", role: "alert" }, C.said(error)));
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => { C.setLang(button.dataset.lang); render(); });
    }
    C.setLang(C.lang);
    render();
  });
})();
