// The box's panel drawn on the page in demo mode (no hardware): the seats' LEDs, the status LED, the
// buzzer, and ROLL, NEXT and UNDO (held for a second, as on the box), and NEXT and UNDO held together for 3 seconds
// (as on the box: a phone without a link may then become the host). `post(path, body)` sends a press.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;

  const HINT_MS = 4000; // how long "hold to undo" stays beside UNDO after a short tap
  const UNDO_HOLD = { ms: 1000, label: "hold_undo", hint: "hold_hint", className: "undo-hold" };
  const CLAIM_HOLD = { ms: 3000, label: "hold_claim", hint: "hold_claim_hint", className: "claim-hold" };
  let hintUntil = 0;
  let hintKey = "hold_hint"; // the hint of the hold button tapped last

  // `answer`: the table's answer to this phone's press ({ button, said }), said beside that button.
  function demoPanel(snap, post, answer) {
    if (!snap.demo) return null;
    const lights = snap.lights || { seats: [], status: "ready", buzz: false };
    const leds = lights.seats.map((on, seat) => el("span", { class: ["led", on && "on"] }, snap.players[seat] || `#${seat}`));
    const press = (button) => () => post("/api/press", { button }, "panel");
    const note = el("p", { class: "press-answer", role: "status", hidden: !answer && Date.now() > hintUntil },
      answer ? answer.said : t(hintKey));
    return el("section", { class: "panel" }, el("h2", {}, t("panel")),
      el("div", { class: "leds" }, leds, el("span", { class: ["led", "status", `status-${lights.status}`] }, `${t("status")}: ${t(`status_${lights.status}`)}`),
        lights.buzz ? el("span", { class: "buzz" }, "🔔 ", t("buzzer")) : null),
      el("div", { class: "buttons", "data-at": "panel" },
        el("button", { class: "hw roll", onclick: press("roll") }, t("roll")),
        el("button", { class: "hw next", onclick: press("next") }, t("next")),
        holdButton(press("undo"), note, UNDO_HOLD), holdButton(press("claim"), note, CLAIM_HOLD)),
      note);
  }

  // UNDO acts when held for a second, NEXT + UNDO for 3 seconds, as on the box; a shorter tap says so beside it.
  function holdButton(pressed, note, hold) {
    let timer = null;
    let held = false;
    const button = el("button", { class: `hw ${hold.className}` }, t(hold.label));
    const cancel = () => { clearTimeout(timer); timer = null; button.classList.remove("holding"); };
    button.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      held = false;
      button.classList.add("holding");
      timer = setTimeout(() => { held = true; cancel(); pressed(); }, hold.ms);
    });
    button.addEventListener("pointerup", () => {
      if (timer !== null && !held) {
        hintUntil = Date.now() + HINT_MS;
        hintKey = hold.hint;
        note.textContent = t(hold.hint);
        note.hidden = false;
      }
      cancel();
    });
    ["pointerleave", "pointercancel"].forEach((name) => button.addEventListener(name, cancel));
    button.addEventListener("contextmenu", (event) => event.preventDefault());
    return button;
  }

  C.demoPanel = demoPanel;
})();
