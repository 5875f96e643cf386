// The host's page: start a new game, show each seat's QR code (and re-issue it), list the history.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const host = { games: [], snap: null, history: [], chosen: null, names: [], refusal: null, denied: false, acting: false, startedAt: 0, qrVersion: {}, typed: {}, ending: null, live: false, nameProblem: null,
    newLink: C.claimedLink(), // a host link this browser just claimed with the box's buttons: shown to keep
    renewing: null, recheck: false, following: null };
  const START_GUARD_MS = 1500;

  // Read the games, the table and the history again, and redraw; returns whether the box answered.
  async function load() {
    let loaded = false;
    try {
      const [games, snap, history] = await Promise.all([
        C.request("GET", "/api/games"), C.request("GET", "/api/state"), C.request("GET", "/api/history")]);
      Object.assign(host, { games, history, denied: snap.you !== null });
      if (!C.olderTable(snap, host.snap)) host.snap = snap; // the stream may have brought a newer table meanwhile
      if (!host.chosen) choose(snap.game || (games[0] && games[0].id));
      loaded = !host.denied;
    } catch (error) {
      if (error.status === 403 || error.status === 429) return void turnedAway(error, load);
      host.refusal = error; // said when drawn, so a switch of language translates it
    }
    render();
    return loaded;
  }

  // A snapshot pushed by the box: the page is drawn again when something it shows has changed (a notice, the
  // players, a game started or over), not on every roll, so the host's typing is left alone meanwhile.
  function follow(snap) {
    if (!snap || typeof snap.seq !== "number" || host.denied) return;
    const before = host.snap;
    if (!before) return void load(); // the first read failed (a dropped Wi-Fi): read everything now
    if (C.olderTable(snap, before)) return;
    host.snap = snap;
    if (shown(snap) === shown(before)) return;
    if (snap.game_no !== before.game_no || Boolean(snap.outcome) !== Boolean(before.outcome)) loadHistory();
    else render();
  }

  function shown(snap) {
    const camera = snap.camera && snap.camera.status !== "none";
    return JSON.stringify([snap.boot, snap.game_no, snap.game, snap.players, Boolean(snap.outcome), camera, snap.notices]);
  }

  async function loadHistory() {
    try {
      host.history = await C.request("GET", "/api/history");
    } catch (error) {
      host.refusal = error; // said when drawn, so a switch of language translates it
    }
    render();
  }

  // The box turned the page away (the host's link re-issued, too many tries). A refusal while the page renews its
  // link waits for the answer, and `retry` asks again once the new cookie is in; so does one just after it.
  function turnedAway(error, retry) {
    if (host.renewing) return void host.renewing.held.push({ error, retry });
    if (host.recheck) return void ((host.recheck = false), retry());
    Object.assign(host, { denied: true, refusal: error });
    C.liveDot(false, "not_joined_short");
    render();
  }

  function choose(id) {
    host.chosen = id;
    const game = host.games.find((found) => found.id === id);
    const previous = host.snap && host.snap.game === id ? host.snap.players : host.names;
    const count = game ? Math.max(game.min_players, Math.min(game.max_players, previous.length || 2)) : 2;
    host.names = Array.from({ length: count }, (_, index) => previous[index] || "");
  }

  async function act(method, path, body, onRefusal) {
    if (host.acting) return null; // a double tap on "Start" would start the game twice
    host.acting = true;
    try {
      const answer = await C.request(method, path, body);
      host.refusal = null;
      return answer;
    } catch (error) {
      host.refusal = error; // said when drawn, so a switch of language translates it
      if (onRefusal) onRefusal(error);
      render();
      return null;
    } finally {
      host.acting = false;
    }
  }

  // Redraw everything; what the host typed in the new-game form (names, options) survives a redraw.
  function render() {
    const root = document.getElementById("app");
    document.getElementById("title").textContent = t("host_title"); // the header and the live dot in the page's language
    document.title = `${t("host_title")} · ${t("app_title")}`;
    if (host.denied) C.liveDot(false, "not_joined_short");
    else if (host.snap) C.liveDot(host.live, host.live ? "live" : "offline");
    keepTyped();
    const active = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const focus = active && { id: active.id, caret: textCaret(active) }; // a redraw mid-word keeps the caret
    root.replaceChildren(...[
      host.refusal ? el("section", { class: "notice refusal", role: "alert" }, C.said(host.refusal)) : null,
      host.denied ? null : confirmEnding(),
      host.denied ? el("section", { class: "notice warn" }, t("host_needed")) : null,
      host.denied ? null : boxNotices(),
      host.denied ? null : newGame(),
      host.denied ? null : seats(),
      host.denied || !hasCamera() ? null : C.cameraTools(render, load),
      host.denied ? null : history(),
      ...(host.denied ? [] : [hostLink(), C.boxAddress(render)]),
    ].filter(Boolean));
    putBackTyped(focus);
  }

  // What the box says about itself (its pins, its camera, its journal): nobody at the table reads its log.
  function boxNotices() {
    const notices = (host.snap && host.snap.notices) || [];
    if (!notices.length) return null;
    return el("section", { class: "notice warn box-notices", role: "status" }, el("h2", {}, t("box_notices")),
      el("ul", {}, notices.map((notice) => el("li", {}, C.inLangOf(notice, "message")))));
  }

  // Read the names and options typed into the form shown, while it still shows the chosen game.
  function keepTyped() {
    const shown = document.querySelector(".host-new");
    if (!shown || shown.dataset.game !== host.chosen) return;
    saveNames();
    const options = {};
    for (const input of shown.querySelectorAll(".start-form [id]")) {
      options[input.id] = input.type === "checkbox" ? input.checked : input.value;
    }
    host.typed[host.chosen] = options;
  }

  // Fill the chosen game's options back in as the host left them, and give the focus back.
  function putBackTyped(focus) {
    for (const [id, value] of Object.entries(host.typed[host.chosen] || {})) {
      const input = document.getElementById(id);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
    }
    const focused = focus && focus.id && document.getElementById(focus.id);
    if (!focused) return;
    focused.focus();
    if (focus.caret && textCaret(focused)) focused.setSelectionRange(...focus.caret);
  }

  // Where the caret is in a text field ([start, end]), else null (number fields and buttons have none).
  function textCaret(input) {
    return input.type === "text" && input.selectionStart !== null ? [input.selectionStart, input.selectionEnd] : null;
  }

  function newGame() {
    const game = host.games.find((found) => found.id === host.chosen);
    if (!game) return null;
    const picker = el("select", { id: "game-choice", onchange: (event) => { keepTyped(); choose(event.target.value); render(); } },
      host.games.map((found) => el("option", { value: found.id, selected: found.id === game.id }, found.title)));
    const names = host.names.map((name, index) => el("label", { class: "field", for: `name-${index}` },
      el("span", {}, t("player_n", { n: index + 1 })),
      el("input", { id: `name-${index}`, class: "player-name", type: "text", maxlength: 24, value: name, autocomplete: "off" })));
    const resize = (delta) => () => {
      saveNames();
      const count = Math.max(game.min_players, Math.min(game.max_players, host.names.length + delta));
      host.names = Array.from({ length: count }, (_, index) => host.names[index] || "");
      render();
    };
    const options = C.schemaForm(game.options, {
      prefix: "options", label: (key) => C.gameText(game.id, key) || C.humanize(key), legend: t("options"),
      submitLabel: t("start"), className: "start-form", onSubmit: start });
    return el("section", { class: "host-new", "data-game": game.id }, el("h2", {}, t("new_game")),
      el("label", { class: "field", for: "game-choice" }, el("span", {}, t("game")), picker),
      el("p", { class: "muted game-summary" }, C.gameText(game.id, "summary") || game.summary),
      el("div", { class: "names" }, el("h3", {}, t("players")), names,
        host.nameProblem === null ? null : el("p", { class: "form-problem", role: "alert" }, t("name_needed", { n: host.nameProblem + 1 })),
        el("div", { class: "row" },
          el("button", { type: "button", onclick: resize(1), disabled: host.names.length >= game.max_players }, t("add_player")),
          el("button", { type: "button", onclick: resize(-1), disabled: host.names.length <= game.min_players }, t("remove_player")))),
      options);
  }

  function saveNames() {
    host.names = host.names.map((name, index) => {
      const input = document.getElementById(`name-${index}`);
      return input ? input.value : name;
    });
  }

  // A second tap on "Start" soon after the first is a double tap, not a second game: the answer and the
  // redraw come back in tens of ms, under the finger's second tap.
  // A game under way ends for good when another starts: the box refuses until the host confirms, and the
  // confirmation names the game the page showed, so it never ends a game started since on another phone.
  async function start(options, ends) {
    if (Date.now() - host.startedAt < START_GUARD_MS) return;
    saveNames();
    const players = host.names.map((name) => name.trim());
    const blank = players.findIndex((name) => !name); // said beside the names, naming the field, before anything is sent
    host.nameProblem = blank < 0 ? null : blank;
    if (blank >= 0) {
      render();
      document.getElementById(`name-${blank}`).focus();
      return;
    }
    const body = { game: host.chosen, players, options, ...(ends === undefined ? {} : { ends_game: ends }) };
    host.ending = null;
    let unfinished = false;
    const snap = await act("POST", "/api/game", body, (error) => { unfinished = error.code === "game_in_progress"; });
    if (snap) {
      host.startedAt = Date.now();
      await load();
    } else if (unfinished) {
      await askToEnd(options);
    }
  }

  // Ask whether to end the game under way: the one on the table now, which the page first reads again (another
  // host phone may have started it since), shows, and says so when it is not the game the page showed.
  async function askToEnd(options) {
    const shown = host.snap && host.snap.game_no;
    if (!(await load())) return;
    host.ending = { game_no: host.snap.game_no, options, changed: host.snap.game_no !== shown };
    host.refusal = null; // the warning below says it in the page's language
    render();
  }

  function confirmEnding() {
    if (!host.ending) return null;
    const { game_no: gameNo, options, changed } = host.ending;
    return el("section", { class: "notice warn ending", role: "alert" },
      changed ? el("p", { class: "table-changed" }, t("table_changed")) : null, el("p", {}, t("ending_warning")),
      el("div", { class: "row" },
        el("button", { type: "button", class: "end-and-start", onclick: () => start(options, gameNo) }, t("end_and_start")),
        el("button", { type: "button", class: "keep-playing", onclick: () => { host.ending = null; host.refusal = null; render(); } },
          t("keep_playing"))));
  }

  // Whether the box has a dice camera to set up (camera.source = "none": it has not).
  function hasCamera() {
    return Boolean(host.snap && host.snap.camera && host.snap.camera.status !== "none");
  }

  function seats() {
    const snap = host.snap;
    if (!snap || !snap.players.length) return null;
    return el("section", { class: "host-seats" }, el("h2", {}, t("seats")),
      el("div", { class: "qr-grid" }, snap.players.map((name, seat) => el("figure", { class: "qr" },
        el("img", { src: `/api/seats/${seat}/qr.svg?v=${snap.game_no}-${host.qrVersion[seat] || 0}`, alt: `QR ${name}`, width: 180, height: 180 }),
        el("figcaption", {}, el("b", {}, name),
          el("a", { class: "seat-link", href: `/host/seats/${seat}/open?v=${snap.game_no}-${host.qrVersion[seat] || 0}`, target: "_blank",
            rel: "noopener" }, t("open_seat", { name })),
          el("button", { class: "small", onclick: () => reissue(seat) }, t("reissue")))))),
      el("p", {}, el("a", { href: "/" }, t("table_page"))));
  }

  async function reissue(seat) {
    const answer = await act("POST", `/api/seats/${seat}/token`, {});
    if (answer) {
      host.qrVersion[seat] = (host.qrVersion[seat] || 0) + 1;
      render();
    }
  }

  // The host's own link: a new one ends the old one at once (a link someone else saw); this page goes on, the box
  // giving it the new one, and shows the new link to keep.
  function hostLink() {
    const ko = C.lang === "ko";
    return el("section", { class: "host-link" },
      el("button", { type: "button", class: "small new-host-link", onclick: newHostLink }, ko ? "새 호스트 링크" : "New host link"),
      host.newLink ? el("p", { class: "new-host-url" }, ko ? "이전 호스트 링크는 이제 작동하지 않습니다. 새 링크: "
        : "The old host link no longer works. Keep the new one: ", el("code", {}, host.newLink)) : null);
  }

  // The box ends the old link's stream as it issues the new one, and the page asks again at once, perhaps before
  // the answer brings the new link's cookie (so may a tab shown again meanwhile). The refusals held meanwhile are
  // asked again with the new cookie; one just after the answer (a request that left with the old link) once more.
  async function newHostLink() {
    if (host.renewing) return; // a double tap
    host.renewing = { held: [] };
    const answer = await act("POST", "/api/host/token", {});
    const { held } = host.renewing;
    host.renewing = null;
    if (answer) host.newLink = answer.url;
    host.recheck = Boolean(answer);
    for (const { error, retry } of held) { if (answer) retry(); else turnedAway(error, retry); }
    render();
  }

  function history() {
    const when = (seconds) => (seconds ? new Date(seconds * 1000).toLocaleString(C.lang === "ko" ? "ko-KR" : undefined) : "");
    const items = host.history.map((past, index) => el("li", {},
      el("b", {}, (host.games.find((found) => found.id === past.game) || { title: past.game }).title),
      ` — ${past.players.join(", ")} · ${t("started")} ${when(past.started)} · `,
      past.finished ? `${t("finished")} ${when(past.finished)}` : t(index === 0 ? "playing" : "unfinished"),
      past.outcome && past.outcome.summary ? el("div", { class: "muted" }, C.inLangOf(past.outcome, "summary")) : null));
    return el("section", { class: "host-history" }, el("h2", {}, t("history")),
      items.length ? el("ul", {}, items) : el("p", { class: "muted" }, t("no_history")));
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => { C.setLang(button.dataset.lang); render(); });
    }
    C.setLang(C.lang);
    load().then(() => {
      if (!host.denied) {
        host.following = C.followTable({ show: follow, setLive: (on) => { host.live = on; C.liveDot(on, on ? "live" : "offline"); },
          refused: (error) => turnedAway(error, () => host.following.reconnect()) });
      }
    });
    document.addEventListener("visibilitychange", () => { // the seats' QR codes may have changed meanwhile
      if (document.visibilityState === "visible") load();
    });
  });
})();
