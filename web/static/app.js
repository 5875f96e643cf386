// The phone page: the table, live from /api/events, with the viewer's moves as buttons and forms.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const FOLD_FIELDS = 3; // a move form with this many fields or more starts folded
  const SETTLE_MS = 400; // a tap on the spot of an accepted one within this long is a double tap's second
  const TAP_SLOP_PX = 24; // ... when it lands this close to it
  const TAP_ANSWERED_MS = 5000; // an input answered this soon after a tap was made by that tap
  const SENDING_AFTER_MS = 800; // a tap unanswered this long shows "sending…" in the header
  const page = { snap: null, seq: -1, boot: null, posting: false, sending: false, heard: 0, pingEvery: 15000, draftsFor: { game: "", roll: "" }, stream: null, live: false, refusal: null, joined: true, linkGone: false, keepDrafts: true };

  // --- the event stream --------------------------------------------------------------------
  function connect() {
    if (page.stream) page.stream.close();
    setLive(false); // until the new stream answers, the table shown may be older than the box's
    const stream = new EventSource("/api/events");
    page.stream = stream;
    stream.addEventListener("snapshot", (event) => {
      page.joined = true;
      page.heard = Date.now();
      setLive(true);
      show(JSON.parse(event.data));
    });
    stream.addEventListener("ping", (event) => {
      page.heard = Date.now();
      page.pingEvery = JSON.parse(event.data).every * 1000 || page.pingEvery;
    });
    stream.addEventListener("open", () => { page.heard = Date.now(); setLive(true); });
    stream.addEventListener("error", () => {
      setLive(false);
      if (stream.readyState === EventSource.CLOSED && page.stream === stream) checkAccess();
    });
  }

  async function checkAccess() {
    try {
      show(await C.request("GET", "/api/state"));
      setTimeout(connect, 2000);
    } catch (error) {
      if (error.status === 403 || error.status === 429) {
        page.linkGone = error.status === 403 && Boolean(page.snap) && Number.isInteger(page.snap.you);
        page.joined = false;
        page.refusal = error.status === 429 ? error : null;
        render();
      } else {
        setTimeout(connect, 2000);
      }
    }
  }

  function setLive(live) {
    page.live = live;
    const dot = document.getElementById("live");
    dot.className = live ? `live on${page.sending ? " sending" : ""}` : "live";
    dot.textContent = live && page.sending ? t("sending") : live ? t("live") : t(page.joined ? "offline" : "not_joined_short");
  }

  // While a tap waits for the box's answer (a slow Wi-Fi), the header says so: a tap meanwhile is not lost unseen.
  function setSending(sending) {
    page.sending = sending;
    setLive(page.live);
  }

  function show(snap) {
    if (!snap || typeof snap.seq !== "number") return;
    if (snap.boot !== page.boot) page.seq = -1;  // the box restarted: its seq goes on from the journal's
    if (snap.seq < page.seq) return;
    page.boot = snap.boot;
    page.seq = snap.seq;
    page.snap = snap;
    rememberMoves(snap);
    render();
  }

  // --- acting ------------------------------------------------------------------------------
  async function post(path, body) {
    if (page.posting) return setSending(true); // a second tap before the first is answered would enter it twice
    page.posting = true;
    const slow = setTimeout(() => setSending(true), SENDING_AFTER_MS);
    try {
      const snap = await C.request("POST", path, body);
      page.refusal = null;
      page.keepDrafts = false;
      show(snap);
      if (!page.keepDrafts) render();
      if (Date.now() - tapped.at < TAP_ANSWERED_MS) settled = { x: tapped.x, y: tapped.y, until: Date.now() + SETTLE_MS };
    } catch (error) {
      page.refusal = error; // said when drawn, so a switch of language translates it
      render();
    } finally {
      page.posting = false;
      clearTimeout(slow);
      setSending(false);
    }
  }

  // A double tap's second tap, on the spot of a tap that was just accepted, lands on whatever the redraw put
  // there (the next seat's "End turn" on the host's page): it is dropped. A tap elsewhere goes through.
  const tapped = { x: 0, y: 0, at: 0 };
  let settled = { x: 0, y: 0, until: 0 };
  document.addEventListener("click", (event) => {
    if (event.detail === 0) return; // a key press, not a finger
    const near = Math.hypot(event.clientX - settled.x, event.clientY - settled.y) < TAP_SLOP_PX;
    if (near && Date.now() < settled.until) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    Object.assign(tapped, { x: event.clientX, y: event.clientY, at: Date.now() });
  }, true);

  // The seq of the last roll the page shows (0: none), so a roll entered by hand is not taken for the
  // next one when the camera's read or another phone's entry came in first.
  function shownRoll() {
    return (page.snap && page.snap.dice && page.snap.dice.seq) || 0;
  }

  // The game this page shows: the box refuses an input meant for it once another game has started.
  function shownGame() {
    const number = page.snap && page.snap.game_no;
    return number === null || number === undefined ? {} : { game_no: number };
  }

  function actingSeat(seat) {
    const snap = page.snap;
    if (snap.you !== null && snap.you !== undefined) return snap.you;
    if (seat !== undefined && seat !== null) return seat;
    return snap.whose_turn.length ? snap.whose_turn[0] : 0;
  }

  function act(move, args, seat) {
    return post("/api/actions", { seat: actingSeat(seat), move, args: args || {}, ...shownGame() });
  }

  // --- known moves (greyed out when not allowed now) -----------------------------------------
  function knownMoves(game) {
    try { return JSON.parse(localStorage.getItem(`companion.moves.${game}`)) || {}; } catch (e) { return {}; }
  }

  function rememberMoves(snap) {
    if (!snap.game) return;
    const known = knownMoves(snap.game);
    let changed = false;
    for (const move of snap.legal_moves) {
      if (known[move.move] !== move.title) { known[move.move] = move.title; changed = true; }
    }
    if (changed) try { localStorage.setItem(`companion.moves.${snap.game}`, JSON.stringify(known)); } catch (e) { /* full */ }
  }

  // --- rendering ---------------------------------------------------------------------------
  function renderer() { return page.snap && C.games[page.snap.game]; }

  function label(key) {
    const game = page.snap && page.snap.game;
    return (game && C.gameText(game, key)) || C.humanize(key);
  }

  function moveTitle(move, fallback) {
    const spec = renderer();
    const titles = spec && spec.moveTitles && (spec.moveTitles[C.lang] || spec.moveTitles.en);
    return (titles && titles[move]) || fallback || C.humanize(move);
  }

  function names(seats) {
    return seats.map((seat) => page.snap.players[seat] || `#${seat}`).join(", ");
  }

  // Whether this phone may act for one of these seats (the host acts for every seat).
  function mayAct(seats) {
    return page.snap.you === null || seats.includes(page.snap.you);
  }

  // Redraw everything; what the player was typing (and which folds were open) survives a redraw,
  // except dice typed for a roll that has since been entered, or anything typed in another game.
  function render() {
    document.getElementById("title").textContent = (page.snap && page.snap.title) || t("app_title");
    setLive(page.live);
    const root = document.getElementById("app");
    const drafts = page.keepDrafts ? saveDrafts(root) : { values: {}, open: new Set(), focus: null };
    forgetStaleDrafts(drafts);
    page.keepDrafts = true;
    root.replaceChildren(...sections().filter(Boolean));
    restoreDrafts(root, drafts);
  }

  // Only what the player changed is kept: a field left alone shows what the new table fills in.
  function saveDrafts(root) {
    const values = {};
    for (const input of root.querySelectorAll("input[id], select[id]")) {
      if (edited(input)) values[input.id] = input.type === "checkbox" ? input.checked : input.value;
    }
    const open = new Set([...root.querySelectorAll("details[open]")].map((fold) => fold.className));
    const focus = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
    return { values, open, focus };
  }

  function forgetStaleDrafts(drafts) {
    const snap = page.snap;
    const game = snap ? JSON.stringify([snap.game_no, snap.game, snap.players]) : "";
    const wait = snap && snap.awaiting_dice;
    const half = snap && snap.camera && snap.camera.status === "read_part" && snap.camera.half;
    const roll = JSON.stringify([game, snap && snap.dice && snap.dice.seq, wait && [wait.why, wait.sides, wait.seats],
      half && half.seq]);
    if (game !== page.draftsFor.game) drafts.values = {};
    else if (roll !== page.draftsFor.roll) { // typed for a roll that is gone: a correction must not land on the next
      for (const id of Object.keys(drafts.values)) if (/^f-(roll|fix)-/.test(id)) delete drafts.values[id];
      drafts.open.delete("correct");
    }
    page.draftsFor = { game, roll };
  }

  function edited(input) {
    if (input.type === "checkbox") return input.checked !== input.defaultChecked;
    if (input.tagName === "SELECT") {
      const first = [...input.options].find((option) => option.defaultSelected) || input.options[0];
      return first !== undefined && input.value !== first.value;
    }
    return input.value !== input.defaultValue;
  }

  function restoreDrafts(root, drafts) {
    for (const [id, value] of Object.entries(drafts.values)) {
      const input = document.getElementById(id);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
    }
    for (const fold of root.querySelectorAll("details")) if (drafts.open.has(fold.className)) fold.open = true;
    const focused = drafts.focus && document.getElementById(drafts.focus);
    if (focused) focused.focus();
  }

  function sections() {
    const snap = page.snap;
    if (!page.joined) return [notice(page.refusal ? C.said(page.refusal) : t(page.linkGone ? "link_gone" : "not_joined"), "warn")];
    if (!snap) return [];
    if (seatGone()) return [notice(t("seat_gone", { n: snap.you + 1 }), "warn")];
    const parts = [refusal(), snap.message ? notice(C.inLang(snap.message), "info") : null, who()];
    if (!snap.game) return [...parts, notice(t("no_game"), "info"), panel()];
    return [...parts, outcome(), turn(), pendingRoll(), gameView(), lastDice(), controls(), panel(), log()];
  }

  // This phone's seat is not at this table (the game has fewer players); it comes back with its player.
  function seatGone() {
    const snap = page.snap;
    return Boolean(snap.game) && Number.isInteger(snap.you) && snap.you >= snap.players.length;
  }

  function notice(text, kind) { return el("section", { class: ["notice", kind], role: "status" }, text); }

  function refusal() {
    if (!page.refusal) return null;
    const refused = page.refusal.status ? el("strong", {}, `${t("refused")}: `) : null; // no answer: it may have gone in
    return el("section", { class: "notice refusal", role: "alert" }, refused, C.said(page.refusal),
      el("button", { class: "small", onclick: () => { page.refusal = null; render(); } }, t("dismiss")));
  }

  function who() {
    const snap = page.snap;
    const host = snap.you === null || snap.you === undefined;
    const text = host ? t("host_view") : t("you_are", { name: snap.players[snap.you] || `#${snap.you}` });
    return el("p", { class: "who" }, text, host ? el("a", { href: "/host", class: "host-link" }, t("host_page")) : null);
  }

  function turn() {
    const snap = page.snap;
    if (snap.outcome || !snap.whose_turn.length) return null;
    const mine = snap.you !== null && snap.whose_turn.includes(snap.you);
    const text = mine ? t("your_turn")
      : t(snap.whose_turn.length > 1 ? "turn_of_many" : "turn_of", { names: names(snap.whose_turn) });
    return el("section", { class: ["turn", mine && "mine"] }, text);
  }

  function ui() {
    return { act, el, lang: C.lang, t: (key, values) => C.gameText(page.snap.game, key, values) || key, snapshot: page.snap };
  }

  function gameView() {
    const root = el("section", { class: "game", id: "game" });
    const spec = renderer();
    try {
      if (spec && spec.render) spec.render(root, page.snap.view, page.snap, ui());
      else root.appendChild(keyValues(page.snap.view));
    } catch (error) {
      root.replaceChildren(keyValues(page.snap.view));
    }
    return root;
  }

  function keyValues(value) {
    if (value === null || typeof value !== "object") return document.createTextNode(String(value));
    if (Array.isArray(value)) return el("ol", { class: "kv" }, value.map((item) => el("li", {}, keyValues(item))));
    return el("dl", { class: "kv" }, Object.entries(value).filter(([key]) => key !== "log")
      .map(([key, item]) => [el("dt", {}, label(key)), el("dd", {}, keyValues(item))]));
  }

  function pendingRoll() {
    const wait = page.snap.awaiting_dice;
    if (!wait) return null;
    const camera = page.snap.camera || {};
    const half = camera.status === "read_part" ? camera.half : null;
    const byHand = half ? notRead(wait.sides, half.sides) : wait.sides; // the camera's dice join those entered here
    const guessed = guessedValues(byHand, camera.guess);
    const schema = { type: "object", required: [], properties: {} };
    byHand.forEach((sides, index) => {
      schema.properties[`die${index}`] = { type: "integer", minimum: 1, maximum: sides, title: t("die", { n: index + 1, sides }),
        default: guessed[index] === null ? undefined : guessed[index] };
      schema.required.push(`die${index}`);
    });
    const heading = [el("h2", {}, "🎲 ", t("roll_pending")), el("p", { class: "why" }, wait.why), cameraGuess(camera.guess),
      halfRead(half)];
    if (wait.seats.length && !mayAct(wait.seats)) return el("section", { class: "roll" }, heading); // not this phone's roll
    return el("section", { class: "roll" }, heading,
      C.schemaForm(schema, { prefix: "roll", label: (key) => key, legend: t("enter_roll"), submitLabel: t("send_roll"),
        className: "hand-roll",
        onSubmit: (values) => post("/api/dice", { values: byHand.map((s, i) => values[`die${i}`]), sides: byHand, roll_seq: shownRoll(), ...shownGame() }) }));
  }

  // The awaited dice the camera did not read (a d8 beside the d6 it read): what is left to enter by hand.
  function notRead(awaited, read) {
    const left = [...read];
    const rest = awaited.filter((sides) => {
      const found = left.indexOf(sides);
      if (found < 0) return true;
      left.splice(found, 1);
      return false;
    });
    return rest.length ? rest : awaited;
  }

  // The dice the camera read of a roll whose others are entered by hand, each with its crop.
  function halfRead(half) {
    if (!half) return null;
    const shown = half.values.map((value, index) => el("figure", { class: "die" },
      half.crops[index] ? el("img", { src: half.crops[index], alt: `d${half.sides[index]}`, width: 56, height: 56 }) : null,
      el("figcaption", {}, el("b", { class: "value" }, String(value)), ` d${half.sides[index]}`)));
    return el("div", { class: "half-read" }, el("p", {}, t("camera_half")), el("div", { class: "dice-row" }, shown));
  }

  // The camera's guess for each awaited die, matched in order among dice of the same kind (null: none).
  function guessedValues(awaited, guess) {
    const left = guess ? guess.sides.map((sides, index) => ({ sides, value: guess.values[index] })) : [];
    return awaited.map((sides) => {
      const found = left.findIndex((die) => die.sides === sides);
      return found < 0 ? null : left.splice(found, 1)[0].value;
    });
  }

  // What the camera saw when it was not sure: each die's crop and likeliest value, to check against the dice.
  function cameraGuess(guess) {
    if (!guess) return null;
    const shown = guess.values.map((value, index) => el("figure", { class: "die" },
      el("img", { src: guess.crops[index], alt: `d${guess.sides[index]}`, width: 56, height: 56 }),
      el("figcaption", {}, el("b", { class: "value" }, value === null ? "?" : `${value}?`), ` d${guess.sides[index]}`)));
    return el("div", { class: "guess" }, el("p", {}, t("camera_guess")), el("div", { class: "dice-row" }, shown));
  }

  function lastDice() {
    const snap = page.snap;
    const camera = snap.camera || { status: "none", message: "" };
    const cameraLine = el("p", { class: ["camera", `camera-${camera.status}`] },
      `📷 ${t("camera")}: `, C.inLang(camera.message) || t(`camera_${camera.status}`));
    if (!snap.dice) return el("section", { class: "dice" }, cameraLine);
    const dice = snap.dice;
    const shown = dice.values.map((value, index) => el("figure", { class: "die" },
      dice.crops[index] ? el("img", { src: dice.crops[index], alt: `d${dice.sides[index]}`, width: 56, height: 56 }) : null,
      el("figcaption", {}, el("b", { class: "value" }, String(value)), ` d${dice.sides[index]}`,
        dice.origins[index] ? el("small", {}, ` ${t(`origin_${dice.origins[index]}`)}`) : null)));
    return el("section", { class: "dice" }, el("h2", {}, t("last_dice")), el("div", { class: "dice-row" }, shown),
      correction(dice), cameraLine);
  }

  function correction(dice) {
    if (page.snap.outcome && !page.snap.can_correct) return null;  // a roll that ended the game can still be put right
    const schema = { type: "object", required: [], properties: {} };
    dice.sides.forEach((sides, index) => {
      schema.properties[`die${index}`] = { type: "integer", minimum: 1, maximum: sides, title: t("die", { n: index + 1, sides }) };
      schema.required.push(`die${index}`);
    });
    return el("details", { class: "correct" }, el("summary", {}, t("correct_roll")),
      C.schemaForm(schema, { prefix: "fix", label: (key) => key, submitLabel: t("send_correction"),
        onSubmit: (values) => post("/api/dice/correct",
          { values: dice.sides.map((s, i) => values[`die${i}`]), sides: dice.sides, roll_seq: dice.seq, ...shownGame() }) }));
  }

  function undoButton() {
    return el("button", { class: "undo", disabled: !page.snap.can_undo, onclick: () => post("/api/undo", shownGame()) },
      "↶ ", t("undo"));
  }

  function controls() {
    const snap = page.snap;
    if (snap.outcome) return snap.can_undo ? el("section", { class: "controls" }, undoButton()) : null; // a mis-tapped last move
    const spec = renderer() || {};
    const custom = new Set(spec.customMoves || []);
    const legal = snap.legal_moves.filter((move) => !custom.has(move.move));
    const seats = [...new Set(legal.map((move) => move.seat))];
    const groups = seats.map((seat) => el("div", { class: "move-group" },
      el("h3", {}, snap.you === null ? t("moves_of", { name: snap.players[seat] }) : t("moves")),
      legal.filter((move) => move.seat === seat).map(moveControl)));
    const allowed = new Set(snap.legal_moves.map((move) => move.move));
    const greyed = Object.entries(knownMoves(snap.game)).filter(([name]) => !allowed.has(name) && !custom.has(name))
      .map(([name, title]) => el("button", { class: "move", disabled: true }, moveTitle(name, title)));
    return el("section", { class: "controls" }, groups, undoButton(),
      greyed.length ? el("div", { class: "move-group greyed" }, el("h3", {}, t("not_now")), greyed) : null);
  }

  function moveControl(move) {
    const title = moveTitle(move.move, move.title);
    const properties = (move.args && move.args.properties) || {};
    if (!Object.keys(properties).length) {
      return el("button", { class: "move primary", onclick: () => act(move.move, {}, move.seat) }, title);
    }
    const form = C.schemaForm(move.args, { prefix: `${move.seat}-${move.move}`, label, legend: title, submitLabel: title,
      players: page.snap.players, className: "move-form", onSubmit: (values) => act(move.move, values, move.seat) });
    if (Object.keys(properties).length < FOLD_FIELDS) return form;
    return el("details", { class: `move-fold fold-${move.seat}-${move.move}` }, el("summary", {}, title), form);
  }

  function outcome() {
    const snap = page.snap;
    if (!snap.outcome) return null;
    const result = snap.outcome;
    const winners = result.winners.length
      ? t(result.winners.length > 1 ? "winners_many" : "winners", { names: names(result.winners) }) : t("no_winner");
    const tie = C.inLangOf(result.detail, "tie_rule");
    return el("section", { class: "outcome" }, el("h2", {}, "🏁 ", t("outcome")), el("p", { class: "winners" }, winners),
      el("p", {}, C.inLangOf(result.detail, "summary") || result.summary), tie ? el("p", { class: "tie-rule" }, el("strong", {}, `${t("tie_rule")}: `), tie) : null,
      records(snap.records));
  }

  function records(found) {
    if (!found) return null;
    const best = Object.entries(found.best || {}).map(([key, value]) => el("li", {}, `${label(key)}: ${value}`));
    const beaten = (found.beaten || []).map(label).join(", ");
    return el("div", { class: "records" }, el("h3", {}, t("records")),
      el("p", {}, t("records_games", { n: found.games })), best.length ? el("ul", {}, best) : null,
      beaten ? el("p", { class: "beaten" }, t("records_beaten", { keys: beaten })) : null);
  }

  function panel() {
    const snap = page.snap;
    if (!snap.demo) return null;
    const lights = snap.lights || { seats: [], status: "ready", buzz: false };
    const leds = lights.seats.map((on, seat) => el("span", { class: ["led", on && "on"] }, snap.players[seat] || `#${seat}`));
    return el("section", { class: "panel" }, el("h2", {}, t("panel")),
      el("div", { class: "leds" }, leds, el("span", { class: ["led", "status", `status-${lights.status}`] }, `${t("status")}: ${t(`status_${lights.status}`)}`),
        lights.buzz ? el("span", { class: "buzz" }, "🔔 ", t("buzzer")) : null),
      el("div", { class: "buttons" },
        el("button", { class: "hw roll", onclick: () => post("/api/press", { button: "roll" }) }, t("roll")),
        el("button", { class: "hw next", onclick: () => post("/api/press", { button: "next" }) }, t("next")),
        holdButton()));
  }

  function holdButton() {
    let timer = null;
    const button = el("button", { class: "hw undo-hold" }, t("hold_undo"));
    const cancel = () => { clearTimeout(timer); timer = null; button.classList.remove("holding"); };
    button.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      button.classList.add("holding");
      timer = setTimeout(() => { cancel(); post("/api/press", { button: "undo" }); }, 1000);
    });
    ["pointerup", "pointerleave", "pointercancel"].forEach((name) => button.addEventListener(name, cancel));
    button.addEventListener("contextmenu", (event) => event.preventDefault());
    return button;
  }

  function log() {
    const lines = page.snap.view && Array.isArray(page.snap.view.log) ? page.snap.view.log.slice(-12).reverse() : [];
    if (!lines.length) return null;
    const shown = (line) => (line && typeof line === "object" ? line[C.lang] || line.en || "" : String(line));
    return el("section", { class: "log" }, el("h2", {}, t("log")), el("ol", {}, lines.map((line) => el("li", {}, shown(line)))));
  }

  // --- start -------------------------------------------------------------------------------
  function languageButtons() {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => { C.setLang(button.dataset.lang); render(); });
    }
    C.setLang(C.lang);
  }

  document.addEventListener("DOMContentLoaded", () => {
    languageButtons();
    render();
    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") connect();
    });
    setInterval(() => { // a stream the Wi-Fi silently dropped still looks open: nothing heard for long, reconnect
      if (page.live && Date.now() - page.heard > 2.5 * page.pingEvery) {
        setLive(false);
        connect();
      }
    }, 5000);
  });
  window.CompanionTable = { act, show, get snapshot() { return page.snap; } };
})();
