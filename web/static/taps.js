// A double tap's second tap, on the spot of a tap that was just accepted, lands on whatever the redraw put
// there (the next seat's "End turn" on the host's page): it is dropped. A tap elsewhere goes through.
"use strict";

(function () {
  const SETTLE_MS = 400; // a tap on the spot of an accepted one within this long is a double tap's second
  const TAP_SLOP_PX = 24; // ... when it lands this close to it
  const TAP_ANSWERED_MS = 5000; // an input answered this soon after a tap was made by that tap
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

  // The box accepted an input: when the last tap made it, a second tap on that spot is held off for a moment.
  function accepted() {
    if (Date.now() - tapped.at < TAP_ANSWERED_MS) settled = { x: tapped.x, y: tapped.y, until: Date.now() + SETTLE_MS };
  }

  window.Companion.taps = { accepted };
})();
