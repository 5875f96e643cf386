// The phone page: the table, live from /api/events, with the viewer's moves as buttons and forms.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const FOLD_FIELDS = 3; // a move form with this many fields or more starts folded
  const SENDING_AFTER_MS = 800; // a tap unanswered this long shows "sending…" in the header
  const PRESS_ANSWER_MS = 4000; // a table message this soon after this phone pressed a panel button answers that press
  const page = { snap: null, posting: false, sending: false, draftsFor: { game: "", roll: "" }, live: false, refusal: null, joined: true, linkGone: false, keepDrafts: true,
    refusalAt: null, pressed: null };

  // --- following the table -----------------------------------------------------------------
  function streamed(snap, fromStream) {
    if (fromStream) page.joined = true;
    show(snap);
  }

  function turnedAway(error) {
    // not_at_table: the game on the table has no seat for this phone; the box lets it in again when one has
    page.seatAway = error.code === "not_at_table" && Boolean(page.snap) && Number.isInteger(page.snap.you);
    page.linkGone = !page.seatAway && error.status === 403 && Boolean(page.snap) && Number.isInteger(page.snap.you);
    page.joined = false;
    page.refusal = error.status === 429 ? error : null;
    render();
  }

  function setLive(live) {
    page.live = live;
    const word = !live ? (page.joined ? "offline" : "not_joined_short") : page.sending ? "sending" : "live";
    C.liveDot(live, word, page.sending ? "sending" : "");
  }

  // While a tap waits for the box's answer (a slow Wi-Fi), the header says so: a tap meanwhile is not lost unseen.
  function setSending(sending) {
    page.sending = sending;
    setLive(page.live);
  }

  function show(snap) {
    if (!snap || typeof snap.seq !== "number") return;
    if (C.olderTable(snap, page.snap)) return;
    page.snap = snap;
    rememberMoves(snap);
    render();
  }

  // --- acting ------------------------------------------------------------------------------
  // Send a tap; `at` names the control that made it (its data-at), where a refusal is then said.
  async function post(path, body, at) {
    if (page.posting) return setSending(true); // a second tap before the first is answered would enter it twice
    page.posting = true;
    page.refusalAt = at || null;
    if (path === "/api/press") page.pressed = { button: body.button, at: Date.now(), answer: null };
    const slow = setTimeout(() => setSending(true), SENDING_AFTER_MS);
    try {
      const snap = await C.request("POST", path, body);
      page.refusal = null;
      page.keepDrafts = false;
      show(snap);
      if (!page.keepDrafts) render();
      C.taps.accepted();
    } catch (error) {
      page.refusal = error; // said when drawn, so a switch of language translates it
      render();
    } finally {
      page.posting = false;
      clearTimeout(slow);
      setSending(false);
    }
  }

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
    return post("/api/actions", { seat: actingSeat(seat), move, args: args || {}, ...shownGame() }, `move-${actingSeat(seat)}-${move}`);
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
    document.title = document.getElementById("title").textContent;
    setLive(page.live);
    const root = document.getElementById("app");
    const drafts = page.keepDrafts ? C.drafts.save(root) : C.drafts.none();
    const scrolled = C.scrollHints.save(root);
    page.draftsFor = C.drafts.forgetStale(drafts, page.snap, page.draftsFor);
    page.keepDrafts = true;
    root.replaceChildren(...sections().filter(Boolean));
    placeRefusal(root);
    C.drafts.restore(root, drafts);
    C.scrollHints.show(root, scrolled);
  }

  function sections() {
    const snap = page.snap;
    if (!page.joined && page.seatAway) return [notice(t("seat_gone", { n: page.snap.you + 1 }), "warn")];
    if (!page.joined) return [notice(page.refusal ? C.said(page.refusal) : t(page.linkGone ? "link_gone" : "not_joined"), "warn"), C.claimBox(render)];
    if (!snap) return [notice(t("loading"), "info")]; // until the box's first answer (a slow Wi-Fi)
    if (seatGone()) return [notice(t("seat_gone", { n: snap.you + 1 }), "warn")];
    const parts = [refusal(), snap.message && !pressAnswer() ? notice(C.inLang(C.inLangOf(snap, "message")), "info") : null, who()];
    const panel = C.demoPanel(snap, post, pressAnswer() ? { button: page.pressed.button, said: C.inLang(C.inLangOf(snap, "message")) } : null);
    if (!snap.game) return [...parts, notice(t("no_game"), "info"), panel];
    const table = { snap, mayAct, post, shownRoll, shownGame };
    return [...parts, C.outcomeView(snap, names, label), turn(), C.diceView.pendingRoll(table), gameView(), C.diceView.lastDice(table, (renderer() || {}).usesDice), controls(),
      panel, log()];
  }

  // This phone's seat is not at this table (the game has fewer players); it comes back with its player.
  function seatGone() {
    const snap = page.snap;
    return Boolean(snap.game) && Number.isInteger(snap.you) && snap.you >= snap.players.length;
  }

  function notice(text, kind) { return el("section", { class: ["notice", kind], role: "status" }, text); }

  // The table's message when it answers this phone's press of a panel button (NEXT just after the turn passed):
  // said beside that button, not at the top of the page; true while the same message stands.
  function pressAnswer() {
    const pressed = page.pressed;
    const message = page.snap && page.snap.message;
    if (!pressed || !message) return false;
    if (pressed.answer === null && Date.now() - pressed.at < PRESS_ANSWER_MS) pressed.answer = message;
    return pressed.answer === message;
  }

  // Move a refusal beside the control whose tap it answers (its data-at), else it stays at the top of the page.
  function placeRefusal(root) {
    const said = root.querySelector(":scope > .notice.refusal");
    const spot = said && page.refusalAt && root.querySelector(`[data-at="${CSS.escape(page.refusalAt)}"]`);
    if (spot) spot.after(said);
    else if (said && page.refusalAt && page.refusalAt.startsWith("move-") && root.querySelector("#game")) {
      root.querySelector("#game").prepend(said); // a tap in the game's own drawing (a cell of the grid)
    }
  }

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
    return el("dl", { class: "kv" }, Object.entries(value).filter(([key]) => key !== "log" && key !== "log_ko")
      .map(([key, item]) => [el("dt", {}, label(key)), el("dd", {}, keyValues(item))]));
  }

  function undoButton() {
    const snap = page.snap;
    const button = el("button", { class: "undo", "data-at": "undo", disabled: !snap.can_undo, onclick: () => post("/api/undo", shownGame(), "undo") },
      "↶ ", t("undo"));
    if (snap.can_undo || !snap.can_correct || !snap.dice) return button;
    return el("div", { class: "undo-row", "data-at": "undo" }, button, el("p", { class: "muted undo-why" }, t("roll_not_undone")));
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
      return el("button", { class: "move primary", "data-at": `move-${move.seat}-${move.move}`, onclick: () => act(move.move, {}, move.seat) }, title);
    }
    const form = C.schemaForm(move.args, { prefix: `${move.seat}-${move.move}`, label, legend: title, submitLabel: title,
      players: page.snap.players, className: "move-form", taps: true, onSubmit: (values) => act(move.move, values, move.seat) });
    form.dataset.at = `move-${move.seat}-${move.move}`;
    if (Object.keys(properties).length < FOLD_FIELDS) return form;
    return el("details", { class: `move-fold fold-${move.seat}-${move.move}` }, el("summary", {}, title), form);
  }

  function log() {
    const view = page.snap.view || {};
    const logged = C.inLangOf(view, "log"); // the Korean page's twins (log_ko), when the game gives them
    const lines = Array.isArray(logged) ? logged.slice(-12).reverse() : [];
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
    C.followTable({ show: streamed, setLive, refused: turnedAway });
  });
  window.CompanionTable = { act, show, get snapshot() { return page.snap; } };
})();
