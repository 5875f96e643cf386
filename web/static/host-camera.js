// The host's camera tools: a picture of what the box's camera sees (the tray outlined, each die boxed with its
// value), and calibrating it from the page, so nobody needs a keyboard on the box.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const camera = { shown: 0, answer: null, refusal: null, busy: false, broken: false };
  C.addStrings({
    en: { teach_link: "Teach the box your dice", teach_help: "Show it your own dice: one tap a die, about a minute." },
    ko: { teach_link: "상자에게 주사위 가르치기", teach_help: "여러분의 주사위를 보여 주세요: 주사위마다 한 번, 1분쯤." },
  });

  // The camera section of the host page; `redraw` draws the page again after an answer, `reload` reads the table
  // again after a calibration (it may answer a notice of the box's).
  C.cameraTools = function cameraTools(redraw, reload) {
    const look = () => { Object.assign(camera, { shown: camera.shown + 1, broken: false }); redraw(); };
    return el("section", { class: "host-camera" }, el("h2", {}, t("camera")),
      el("p", { class: "muted" }, t("calibrate_help")),
      el("div", { class: "row" },
        el("button", { type: "button", class: "camera-look", onclick: look, disabled: camera.busy }, t("camera_look")),
        el("button", { type: "button", class: "camera-calibrate", onclick: () => calibrate(redraw, reload), disabled: camera.busy },
          t(camera.busy ? "calibrating" : "calibrate"))),
      camera.refusal ? el("p", { class: "notice refusal", role: "alert" }, C.said(camera.refusal)) : null,
      camera.answer ? el("p", { class: "notice info calibrated", role: "status" }, C.inLangOf(camera.answer, "message")) : null,
      picture(redraw),
      el("p", { class: "teach-link" }, el("a", { href: "/host/teach" }, t("teach_link")), " ",
        el("span", { class: "muted" }, t("teach_help"))));
  };

  // The camera's view as asked last; the box answers an error instead while the camera is offline or busy.
  function picture(redraw) {
    if (!camera.shown) return null;
    if (camera.broken) return el("p", { class: "notice warn camera-no-picture" }, t("camera_no_picture"));
    const failed = () => { camera.broken = true; redraw(); };
    return el("img", { class: "camera-view", src: `/api/camera/view.jpg?n=${camera.shown}`, alt: t("camera_view"), onerror: failed });
  }

  async function calibrate(redraw, reload) {
    if (camera.busy) return; // a double tap calibrates once
    Object.assign(camera, { busy: true, refusal: null, answer: null });
    redraw();
    try {
      camera.answer = await C.request("POST", "/api/camera/calibrate", {});
      Object.assign(camera, { shown: camera.shown + 1, broken: false }); // show what it found
    } catch (error) {
      camera.refusal = error; // said when drawn, so a switch of language translates it
    } finally {
      camera.busy = false;
    }
    if (camera.answer) await reload(); // draws the page, with any notice the calibration answered gone
    else redraw();
  }
})();
