// The box's panel drawn on the page in demo mode (no hardware): the seats' LEDs, the status LED, the
// buzzer, and ROLL, NEXT and UNDO (held for a second, as on the box). `post(path, body)` sends a press.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;

  function demoPanel(snap, post) {
    if (!snap.demo) return null;
    const lights = snap.lights || { seats: [], status: "ready", buzz: false };
    const leds = lights.seats.map((on, seat) => el("span", { class: ["led", on && "on"] }, snap.players[seat] || `#${seat}`));
    return el("section", { class: "panel" }, el("h2", {}, t("panel")),
      el("div", { class: "leds" }, leds, el("span", { class: ["led", "status", `status-${lights.status}`] }, `${t("status")}: ${t(`status_${lights.status}`)}`),
        lights.buzz ? el("span", { class: "buzz" }, "🔔 ", t("buzzer")) : null),
      el("div", { class: "buttons" },
        el("button", { class: "hw roll", onclick: () => post("/api/press", { button: "roll" }) }, t("roll")),
        el("button", { class: "hw next", onclick: () => post("/api/press", { button: "next" }) }, t("next")),
        holdButton(() => post("/api/press", { button: "undo" }))));
  }

  function holdButton(pressed) {
    let timer = null;
    const button = el("button", { class: "hw undo-hold" }, t("hold_undo"));
    const cancel = () => { clearTimeout(timer); timer = null; button.classList.remove("holding"); };
    button.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      button.classList.add("holding");
      timer = setTimeout(() => { cancel(); pressed(); }, 1000);
    });
    ["pointerup", "pointerleave", "pointercancel"].forEach((name) => button.addEventListener(name, cancel));
    button.addEventListener("contextmenu", (event) => event.preventDefault());
    return button;
  }

  C.demoPanel = demoPanel;
})();
