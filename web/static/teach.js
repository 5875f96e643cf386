// "Teach the box your dice" (host only): the box reads the tray, each die is shown with its reading, one tap
// confirms or corrects it, and the box learns these dice in the background. Data from /api/teach.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  C.addStrings({
    en: {
      teach_title: "Teach the box your dice", teach_back: "Host page",
      teach_how: "Put your dice on the tray, look, then tap each die's value: the lit one if the box is right, another if not.",
      teach_look: "Look at the tray", teach_looking: "Looking…", teach_teach: "Teach these dice", teach_no_dice: "The box sees no dice on the tray.",
      teach_unsure: "not sure", teach_not_a_die: "Not a die", teach_taught: "Taught {n} dice.", teach_taught_one: "Taught 1 die.",
      teach_count: "The box has been taught {n} dice.", teach_count_one: "The box has been taught 1 die.",
      teach_reads_reader: "Without learning it reads {right} of {dice} of them sure and right ({silent} sure and wrong).",
      teach_reads_layer: "With what it learned it reads {right} of {dice} held-back dice sure and right ({silent} sure and wrong).",
      teach_fewest: "It learns once it has {n} dice.", teach_learning: "Read with what the box learned",
      teach_wipe: "Forget every die taught", teach_wipe_sure: "Forget every die the box was taught here?", teach_wiped: "Forgotten.",
      teach_answered: "{n} of {total} dice answered", teach_die: "Die {n}",
    },
    ko: {
      teach_title: "상자에게 주사위 가르치기", teach_back: "호스트 페이지",
      teach_how: "트레이에 주사위를 놓고 본 다음, 각 주사위의 값을 누르세요: 상자가 맞으면 켜진 값을, 틀리면 다른 값을.",
      teach_look: "트레이 보기", teach_looking: "보는 중…", teach_teach: "이 주사위들 가르치기", teach_no_dice: "트레이에 주사위가 보이지 않습니다.",
      teach_unsure: "확실하지 않음", teach_not_a_die: "주사위 아님", teach_taught: "주사위 {n}개를 가르쳤습니다.",
      teach_count: "상자가 배운 주사위: {n}개.",
      teach_reads_reader: "학습 없이 그 주사위 {dice}개 중 {right}개를 확실하고 바르게 읽습니다 (확실하지만 틀림 {silent}개).",
      teach_reads_layer: "배운 것으로 남겨 둔 주사위 {dice}개 중 {right}개를 확실하고 바르게 읽습니다 (확실하지만 틀림 {silent}개).",
      teach_fewest: "주사위가 {n}개가 되면 배우기 시작합니다.", teach_learning: "상자가 배운 것으로 읽기",
      teach_wipe: "가르친 주사위 모두 잊기", teach_wipe_sure: "여기서 가르친 주사위를 모두 잊을까요?", teach_wiped: "잊었습니다.",
      teach_answered: "주사위 {total}개 중 {n}개 답함", teach_die: "주사위 {n}",
    },
  });
  const desk = { status: null, look: null, answers: [], note: null, refusal: null, busy: false };

  function statusLines(status) {
    const reads = status.reads;
    const said = reads.dice ? t(reads.by === "layer" ? "teach_reads_layer" : "teach_reads_reader",
      { right: reads.sure_right, dice: reads.dice, silent: reads.silent }) : null;
    return el("div", { class: "teach-status", role: "status" },
      el("p", { class: "teach-count" }, t("teach_count", { n: status.examples })), said ? el("p", {}, said) : null,
      status.examples < status.fewest ? el("p", { class: "muted" }, t("teach_fewest", { n: status.fewest })) : null);
  }

  function dieCard(die, index) {
    const chosen = desk.answers[index];
    const pick = (value) => { desk.answers[index] = value; draw(); };
    const valueButton = (value) => el("button", { type: "button", "data-value": value,
      class: die.value === value ? "teach-value read" : "teach-value",
      "aria-pressed": chosen === value ? "true" : "false", onclick: () => pick(value) }, String(value));
    const reading = die.value === null ? "?" : `${die.value}${die.sure ? "" : "?"}`;
    return el("li", { class: "teach-die", "data-die": index },
      el("img", { src: die.crop, alt: t("teach_die", { n: index + 1 }) }),
      el("div", { class: "teach-reading" }, reading, die.sure ? null : el("span", { class: "muted" }, ` ${t("teach_unsure")}`)),
      el("div", { class: "teach-values" }, [1, 2, 3, 4, 5, 6].map(valueButton),
        el("button", { type: "button", class: "teach-value", "data-value": "none",
          "aria-pressed": chosen === null ? "true" : "false", onclick: () => pick(null) }, t("teach_not_a_die"))));
  }

  function lookSection() {
    const look = desk.look;
    if (!look) return null;
    if (!look.dice.length) return el("p", { class: "notice info" }, t("teach_no_dice"));
    const answered = desk.answers.filter((value) => value !== undefined).length;
    return el("section", { class: "teach-look" },
      el("ol", { class: "teach-dice" }, look.dice.map(dieCard)),
      el("p", { class: "muted teach-answered" }, t("teach_answered", { n: answered, total: look.dice.length })),
      el("button", { type: "button", class: "teach-send", disabled: desk.busy || !answered, onclick: send }, t("teach_teach")));
  }

  function draw() {
    const status = desk.status;
    document.getElementById("teach").replaceChildren(el("div", { class: "teach" },
      el("nav", { class: "memory-nav" }, el("a", { href: "/host" }, t("teach_back"))),
      el("h2", {}, t("teach_title")), el("p", {}, t("teach_how")),
      status ? statusLines(status) : null,
      el("button", { type: "button", class: "teach-look-now", disabled: desk.busy, onclick: look }, t(desk.busy ? "teach_looking" : "teach_look")),
      desk.note ? el("p", { class: "notice info", role: "status" }, t(...desk.note)) : null,
      desk.refusal ? el("p", { class: "notice refusal", role: "alert" }, C.said(desk.refusal)) : null,
      lookSection(),
      status ? el("label", { class: "teach-learning" }, el("input", { type: "checkbox", checked: status.learning,
        onchange: (event) => act("POST", "/api/teach/learning", { on: event.target.checked }) }), " ", t("teach_learning")) : null,
      el("button", { type: "button", class: "teach-wipe", onclick: wipe }, t("teach_wipe"))));
  }

  async function act(method, path, body, after) {
    if (desk.busy) return;
    Object.assign(desk, { busy: true, refusal: null, note: null });
    draw();
    try {
      const found = await C.request(method, path, body);
      desk.status = found;
      if (after) after(found);
    } catch (error) {
      desk.refusal = error;
    } finally {
      desk.busy = false;
    }
    draw();
  }

  function look() {
    return act("POST", "/api/teach/looks", {}, (found) => {
      desk.look = found;
      desk.answers = found.dice.map(() => undefined);
    });
  }

  function send() {
    const values = desk.answers.map((value) => (value === undefined ? null : value));
    return act("POST", "/api/teach/answers", { look: desk.look.look, values }, (found) => {
      desk.look = null;
      desk.answers = [];
      desk.note = ["teach_taught", { n: found.taught }]; // said when drawn, so a switch of language translates it
    });
  }

  function wipe() {
    if (!window.confirm(t("teach_wipe_sure"))) return undefined;
    return act("POST", "/api/teach/forget", {}, () => { desk.look = null; desk.note = ["teach_wiped"]; });
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => { C.setLang(button.dataset.lang); draw(); });
    }
    C.setLang(C.lang);
    draw();
    act("GET", "/api/teach");
  });
})();
