// The shared core of the pages: the game renderer registry, safe DOM building, the page's own
// strings in English and Korean, JSON requests, and forms built from a JSON Schema.
"use strict";

(function () {
  const REQUEST_MS = 25000; // the table answers within 20 s (companion.loop waits twice 10 s at most)
  const STRINGS = {
    en: {
      app_title: "Table companion", loading: "Loading the table…", live: "live", sending: "sending…", offline: "reconnecting…", not_joined_short: "not joined",
      not_joined: "Join the table first: scan the QR code of your seat on the host's phone.",
      no_game: "No game yet: the host starts one.", host_page: "Host page", table_page: "Table",
      your_turn: "Your turn!", turn_of: "{names}'s turn", turn_of_many: "Turns: {names}",
      you_are: "You are {name}", host_view: "Host view: you act for every seat",
      roll_pending: "Waiting for a roll", enter_roll: "Enter roll by hand", die: "Die {n} (d{sides})",
      send_roll: "Enter roll", last_dice: "Last roll", correct_roll: "Correct this roll",
      no_answer: "No answer from the table: check the Wi-Fi, look at the table, then try again.",
      send_correction: "Correct", camera: "Camera", camera_none: "no camera", camera_ready: "ready",
      camera_reading: "reading the dice…", camera_read_ok: "read", camera_reroll: "roll again",
      camera_read_part: "read its dice: enter the others by hand",
      camera_half: "The camera read these dice; enter the others:",
      camera_offline: "offline", camera_changed: "a die changed after the read: check the roll",
      camera_guess: "The camera is not sure. Its guess is filled in below: check it against the dice, then enter.",
      origin_camera: "camera", origin_phone: "phone", origin_button: "button", origin_host: "host", origin_system: "box",
      origin_corrected: "corrected",
      moves: "Your moves", moves_of: "Moves for {name}", not_now: "Not possible now", undo: "Undo",
      send: "OK", optional: "—", refused: "Refused", dismiss: "OK",
      outcome: "Game over", winners: "Winner: {names}", winners_many: "Winners: {names}", no_winner: "Nobody wins.",
      tie_rule: "Tie rule", records: "Personal bests", records_games: "{n} earlier solo games",
      records_games_one: "1 earlier solo game",
      records_beaten: "New best: {keys}",
      panel: "Virtual panel", roll: "ROLL", next: "NEXT", hold_undo: "UNDO (hold 1 s)", buzzer: "Buzzer!",
      status: "Status", log: "Log",
      status_ready: "ready", status_reading: "reading the dice", status_read_ok: "read", status_reroll: "roll again",
      status_read_part: "enter the other dice by hand",
      status_offline: "camera offline", status_game_over: "game over", status_changed: "dice changed: check the roll",
      seat_gone: "Seat {n} is not at this table. Ask the host for your seat's QR code.",
      link_gone: "This phone's link no longer works: its seat went to someone else or got a new QR code. Scan your seat's QR code on the host's phone.",
      host_title: "Host", new_game: "New game", game: "Game", players: "Players", player_n: "Player {n}",
      add_player: "+ player", remove_player: "− player", options: "Options", start: "Start the game",
      seats: "Seats: scan to join, or open a seat here", reissue: "New QR code", history: "History", no_history: "No games yet.",
      started: "started", finished: "finished", playing: "playing", unfinished: "not finished", host_needed: "This page needs the host's link.",
      ending_warning: "The game on the table is not finished. A new game ends it for good: it stays in the history as not finished and cannot be played on.",
      end_and_start: "End it and start the new game", keep_playing: "Keep playing",
      table_changed: "The table changed since this page showed it: another game was started there. The seats below show it now.",
      yes: "yes", no: "no",
      calibrate_help: "Put the whole tray in view with a die or two on it, then calibrate: the box finds the tray, measures the dice and fixes the light. Calibrate again after moving the camera.",
      camera_look: "Show what the camera sees", calibrate: "Calibrate the camera", calibrating: "Calibrating…",
      camera_view: "What the camera sees: the tray outlined, each die boxed with its value",
      camera_no_picture: "The camera gave no picture (offline, or busy reading a roll); try again in a moment.",
      box_notices: "The box says",
      roll_not_undone: "A roll is not undone: put a wrong roll right with “Correct this roll”.",
      hold_hint: "Hold to undo: keep UNDO pressed for 1 second.",
      name_needed: "Player {n} needs a name: type it in the field “Player {n}”.",
      open_seat: "Open {name}'s seat on this device",
      choose_player: "choose a player", choose_first: "Choose {field} first.",
      card_n: "Card {n}", take_back: "Take back {value}", none_tapped: "No card yet: tap a value above.",
      pick_each: "Tap a value for every card ({n} left).", pick_each_one: "Tap a value for every card (1 left).",
      pick_more: "Tap {n} more values.", pick_more_one: "Tap 1 more value.",
    },
    ko: {
      app_title: "테이블 도우미", loading: "테이블을 불러오는 중…", live: "연결됨", sending: "보내는 중…", offline: "다시 연결 중…", not_joined_short: "참가 전",
      not_joined: "먼저 테이블에 참가하세요: 호스트 휴대폰에서 자기 자리의 QR 코드를 스캔하세요.",
      no_game: "아직 게임이 없습니다: 호스트가 시작합니다.", host_page: "호스트 페이지", table_page: "테이블",
      your_turn: "당신 차례입니다!", turn_of: "{names}의 차례", turn_of_many: "차례: {names}",
      you_are: "당신은 {name}", host_view: "호스트 화면: 모든 자리를 대신할 수 있습니다",
      roll_pending: "주사위를 기다리는 중", enter_roll: "주사위 값 직접 입력", die: "주사위 {n} (d{sides})",
      send_roll: "입력", last_dice: "마지막 굴림", correct_roll: "이 굴림 고치기",
      no_answer: "테이블이 응답하지 않습니다: 와이파이를 확인하고 테이블을 본 뒤 다시 시도하세요.",
      send_correction: "고치기", camera: "카메라", camera_none: "카메라 없음", camera_ready: "준비",
      camera_reading: "주사위 읽는 중…", camera_read_ok: "읽음", camera_reroll: "다시 굴리세요",
      camera_read_part: "카메라 주사위 읽음: 나머지는 직접 입력하세요",
      camera_half: "카메라가 이 주사위를 읽었습니다. 나머지를 입력하세요:",
      camera_offline: "꺼짐", camera_changed: "읽은 뒤 주사위가 바뀌었습니다: 굴림을 확인하세요",
      camera_guess: "카메라가 확실하지 않습니다. 추측한 값을 아래에 채웠습니다: 주사위와 비교한 뒤 입력하세요.",
      origin_camera: "카메라", origin_phone: "휴대폰", origin_button: "버튼", origin_host: "호스트", origin_system: "본체",
      origin_corrected: "정정됨",
      moves: "내 행동", moves_of: "{name}의 행동", not_now: "지금은 불가", undo: "되돌리기",
      send: "확인", optional: "—", refused: "거절됨", dismiss: "확인",
      outcome: "게임 종료", winners: "승자: {names}", winners_many: "승자: {names}", no_winner: "아무도 이기지 못했습니다.",
      tie_rule: "동점 규칙", records: "개인 최고 기록", records_games: "이전 솔로 게임 {n}회",
      records_beaten: "새 기록: {keys}",
      panel: "가상 패널", roll: "굴리기", next: "다음", hold_undo: "되돌리기 (1초 누르기)", buzzer: "부저!",
      status: "상태", log: "기록",
      status_ready: "준비", status_reading: "주사위 읽는 중", status_read_ok: "읽음", status_reroll: "다시 굴리세요",
      status_read_part: "나머지 주사위 직접 입력",
      status_offline: "카메라 꺼짐", status_game_over: "게임 종료", status_changed: "주사위 바뀜: 굴림 확인",
      seat_gone: "{n}번 자리는 이 테이블에 없습니다. 호스트에게 자기 자리의 QR 코드를 요청하세요.",
      link_gone: "이 휴대폰의 링크는 더 이상 쓸 수 없습니다: 자리가 다른 사람에게 갔거나 새 QR 코드가 나왔습니다. 호스트 휴대폰에서 자기 자리의 QR 코드를 스캔하세요.",
      host_title: "호스트", new_game: "새 게임", game: "게임", players: "플레이어", player_n: "플레이어 {n}",
      add_player: "+ 플레이어", remove_player: "− 플레이어", options: "옵션", start: "게임 시작",
      seats: "자리: 스캔해서 참가하거나 여기서 자리 열기", reissue: "새 QR 코드", history: "지난 게임", no_history: "아직 게임이 없습니다.",
      started: "시작", finished: "종료", playing: "진행 중", unfinished: "끝나지 않음", host_needed: "이 페이지는 호스트 링크가 필요합니다.",
      ending_warning: "테이블의 게임이 아직 끝나지 않았습니다. 새 게임을 시작하면 이 게임은 완전히 끝나며, 지난 게임에 '끝나지 않음'으로 남고 이어서 할 수 없습니다.",
      end_and_start: "이 게임을 끝내고 새 게임 시작", keep_playing: "계속하기",
      table_changed: "이 페이지가 테이블을 보여 준 뒤 테이블이 바뀌었습니다: 다른 게임이 시작되었습니다. 지금 게임은 아래 자리에 보입니다.",
      yes: "예", no: "아니오",
      calibrate_help: "트레이 전체가 보이게 하고 주사위를 한두 개 올린 뒤 보정하세요: 상자가 트레이를 찾고, 주사위 크기를 재고, 노출을 고정합니다. 카메라를 옮긴 뒤에는 다시 보정하세요.",
      camera_look: "카메라 화면 보기", calibrate: "카메라 보정", calibrating: "보정 중…",
      camera_view: "카메라 화면: 트레이 테두리와 주사위마다 읽은 값",
      camera_no_picture: "카메라가 화면을 주지 않았습니다(꺼져 있거나 굴림을 읽는 중). 잠시 뒤 다시 해 보세요.",
      box_notices: "상자 알림",
      roll_not_undone: "굴림은 되돌리지 않습니다: 틀린 굴림은 ‘이 굴림 고치기’로 바로잡으세요.",
      hold_hint: "되돌리려면 꾹 누르세요: 되돌리기 버튼을 1초 동안 누르고 계세요.",
      name_needed: "플레이어 {n}의 이름이 없습니다: ‘플레이어 {n}’ 칸에 입력하세요.",
      open_seat: "이 기기에서 {name} 자리 열기",
      choose_player: "플레이어 고르기", choose_first: "먼저 ‘{field}’을(를) 고르세요.",
      card_n: "{n}번째 카드", take_back: "{value} 빼기", none_tapped: "아직 카드가 없습니다: 위의 값을 누르세요.",
      pick_each: "카드마다 값을 누르세요 ({n}장 남음).", pick_more: "값을 {n}개 더 누르세요.",
    },
  };

  const games = {};
  const C = () => window.Companion; // the parts loaded after this file (the value picker)
  let lang = "en";
  try { lang = localStorage.getItem("companion.lang") === "ko" ? "ko" : "en"; } catch (e) { /* private mode */ }

  function registerGame(id, spec) { games[id] = spec; }

  // More of the page's own strings, from a part loaded after this file ({ en: {...}, ko: {...} }).
  function addStrings(more) { for (const [code, table] of Object.entries(more)) Object.assign(STRINGS[code], table); }

  function setLang(next) {
    lang = next === "ko" ? "ko" : "en";
    try { localStorage.setItem("companion.lang", lang); } catch (e) { /* private mode */ }
    document.documentElement.lang = lang;
  }

  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, (all, key) => (values && key in values ? values[key] : all));
  }

  // The page's language's text for `key`, else the English; with a count of one (`values.n === 1`) its
  // `<key>_one` form from the same language when it has one ("1 step", not "1 steps"; Korean needs none).
  function pick(tables, key, values) {
    const table = tables.find((each) => each && each[key]);
    if (!table) return undefined;
    return (values && values.n === 1 && table[`${key}_one`]) || table[key];
  }

  function t(key, values) {
    return fill(pick([STRINGS[lang], STRINGS.en], key, values) || key, values);
  }

  function gameText(game, key, values) {
    const strings = (games[game] && games[game].strings) || {};
    const text = pick([strings[lang], strings.en], key, values);
    return text === undefined ? null : fill(text, values);
  }

  // A server text that comes with a Korean twin (`summary` and `summary_ko`): the page's language's.
  function inLangOf(found, key) {
    if (!found) return undefined;
    return (lang === "ko" && found[`${key}_ko`]) || found[key];
  }

  function humanize(key) {
    const text = String(key).replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // Build a DOM element: attributes as attributes (on* as listeners), children as nodes or text.
  function el(tag, attrs, ...children) {
    return build(document.createElement(tag), attrs, children);
  }

  // The same for SVG drawing elements (circles, lines, text in the SVG namespace).
  function svg(tag, attrs, ...children) {
    return build(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
  }

  function build(node, attrs, children) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
      else if (name === "class") node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
      else if (["disabled", "checked", "hidden", "selected", "required"].includes(name)) node[name] = Boolean(value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    const add = (child) => {
      if (child === null || child === undefined || child === false) return;
      if (Array.isArray(child)) child.forEach(add);
      else node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    };
    children.forEach(add);
    return node;
  }

  async function request(method, path, body) {
    const stop = new AbortController(); // a café's Wi-Fi can swallow a request: never wait for ever
    const options = { method, credentials: "same-origin", headers: { Accept: "application/json" }, signal: stop.signal };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const timer = setTimeout(() => stop.abort(), REQUEST_MS);
    let answer, data;
    try {
      answer = await fetch(path, options);
      const kind = answer.headers.get("Content-Type") || "";
      data = kind.includes("application/json") ? await answer.json() : null;
    } catch (error) {
      throw Object.assign(new Error(t("no_answer")), { status: 0, key: "no_answer" });
    } finally {
      clearTimeout(timer);
    }
    if (!answer.ok) {
      const error = new Error((data && data.message) || answer.statusText);
      error.status = answer.status;
      error.code = data && data.error;
      error.message_ko = data && data.message_ko; // the box's Korean twin, for the Korean page
      throw error;
    }
    return data;
  }

  // What a failed request says, in the page's language now: the page's own sentence by its key, else the
  // box's (in Korean when box-sentences.js knows it).
  function said(error) {
    if (error.key) return t(error.key);
    const inLang = window.Companion.inLang;
    const message = inLangOf(error, "message");
    return inLang ? inLang(message) : message;
  }

  // One form field from a property schema: number input, select (enum or player; a short enum as taps when
  // `options.taps`), checkbox, text.
  function field(key, schema, required, options) {
    const label = options.label(schema.title || key);
    const id = `f-${options.prefix}-${key}`;
    let input;
    const players = options.players || [];
    const isPlayer = (key === "player" || key === "seat") && schema.type === "integer" && players.length > 0;
    if (schema.enum || isPlayer) {
      const values = schema.enum || players.map((name, index) => index).filter(
        (index) => (schema.minimum === undefined || index >= schema.minimum) && (schema.maximum === undefined || index <= schema.maximum));
      const shown = (value) => (isPlayer ? players[value] : options.label(String(value)));
      if (options.taps && !isPlayer && C().choiceTaps && C().choiceTaps.fits(values)) {
        return C().choiceTaps.taps(el("input", { id, name: key, type: "text" }), values, shown, { label, required, chosen: schema.default });
      }
      const blank = !required || isPlayer; // a player is chosen, never preselected: "−1 hourglass" starts with nobody
      input = el("select", { id, name: key, "data-label": label, "data-required": required ? "yes" : null },
        blank ? el("option", { value: "" }, required ? t("choose_player") : t("optional")) : null,
        values.map((value, index) => el("option", { value: String(index), selected: schema.default === value }, shown(value))));
      input.dataset.kind = "choice";
      input.choices = values;
    } else if (schema.type === "boolean") {
      input = el("input", { id, name: key, type: "checkbox", checked: schema.default === true });
      input.dataset.kind = "boolean";
    } else if (schema.type === "integer" || schema.type === "number") {
      input = el("input", { id, name: key, type: "number", inputmode: schema.minimum < 0 ? undefined : "numeric", min: schema.minimum, max: schema.maximum,
        step: schema.type === "integer" ? 1 : "any", required, value: schema.default });
      input.dataset.kind = "number";
    } else if (C().valuePicker && C().valuePicker.fits(schema)) {
      const picked = Array.isArray(schema.default) ? schema.default.join(" ") : "";
      return C().valuePicker.picker(el("input", { id, name: key, type: "text", value: picked }), schema, label);
    } else {
      input = el("input", { id, name: key, type: "text", maxlength: schema.maxLength, required, value: schema.default });
      input.dataset.kind = schema.type === "array" ? "list" : "text";
    }
    return el("label", { class: ["field", schema.type === "boolean" && "check", input.tagName === "SELECT" && "menu"], for: id },
      el("span", {}, label), input);
  }

  function readField(input, schema) {
    const kind = input.dataset.kind;
    if (kind === "boolean") return input.checked;
    if (kind === "picks") return C().valuePicker.value(input);
    if (input.value === "") return undefined;
    if (kind === "choice") return input.choices[Number(input.value)];
    if (kind === "number") return Number(input.value);
    if (kind === "list") {
      const itemType = (schema.items || {}).type;
      return input.value.split(",").map((part) => part.trim()).filter(Boolean)
        .map((part) => (itemType === "integer" || itemType === "number" ? Number(part) : part));
    }
    return input.value;
  }

  // A form for an object schema; onSubmit gets the values (empty optional fields left out).
  function schemaForm(schema, options) {
    const properties = schema.properties || {};
    const required = schema.required || [];
    const fields = Object.entries(properties).map(([key, property]) => field(key, property, required.includes(key), options));
    const problem = el("p", { class: "form-problem", role: "alert", hidden: true });
    const form = el("form", { class: ["schema-form", options.className] },
      options.legend ? el("div", { class: "legend" }, options.legend) : null,
      el("div", { class: "fields" }, fields), problem,
      el("button", { type: "submit", class: "primary", disabled: options.disabled }, options.submitLabel || t("send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const unchosen = [...form.querySelectorAll("[data-required]")].find((input) => input.value === ""); // a menu or taps
      const untapped = unchosen ? t("choose_first", { field: unchosen.dataset.label })
        : [...form.querySelectorAll("input.picked")].map((input) => C().valuePicker.missing(input)).find(Boolean);
      problem.hidden = !untapped; // said here, beside the button, before anything is sent
      problem.textContent = untapped || "";
      if (untapped) return;
      const values = {};
      for (const [key, property] of Object.entries(properties)) {
        const value = readField(form.elements.namedItem(key), property);
        if (value !== undefined) values[key] = value;
      }
      options.onSubmit(values);
    });
    return form;
  }

  window.Companion = {
    registerGame, addStrings, games, el, svg, t, gameText, inLangOf, humanize, setLang, schemaForm, request, said,
    get lang() { return lang; },
  };
})();
