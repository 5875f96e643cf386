// The table page's dice: the roll awaited (with its form to enter it by hand, the camera's guess at dice it
// was unsure of and the half of a roll it read), the last dice with the camera's picture of each, and the
// form to correct them. `table` is what the page lends: { snap, mayAct(seats), post(path, body), shownRoll(),
// shownGame() }.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;

  function pendingRoll(table) {
    const wait = table.snap.awaiting_dice;
    if (!wait) return null;
    const camera = table.snap.camera || {};
    const half = camera.status === "read_part" ? camera.half : null;
    const byHand = half ? notRead(wait.sides, half.sides) : wait.sides; // the camera's dice join those entered here
    const guessed = guessedValues(byHand, camera.guess);
    const schema = diceSchema(byHand, guessed);
    const heading = [el("h2", {}, "🎲 ", t("roll_pending")), el("p", { class: "why" }, C.inLangOf(wait, "why")), cameraGuess(camera.guess),
      halfRead(half)];
    if (wait.seats.length && !table.mayAct(wait.seats)) return el("section", { class: "roll" }, heading); // not this phone's roll
    const form = C.schemaForm(schema, { prefix: "roll", label: (key) => key, legend: t("enter_roll"), submitLabel: t("send_roll"),
      className: "hand-roll",
      onSubmit: (values) => table.post("/api/dice",
        { values: byHand.map((s, i) => values[`die${i}`]), sides: byHand, roll_seq: table.shownRoll(), ...table.shownGame() }, "roll") });
    form.dataset.at = "roll";
    return el("section", { class: "roll" }, heading, form);
  }

  // One number input per die, 1 to its sides (prefilled with a guess when there is one).
  function diceSchema(sides, guessed) {
    const schema = { type: "object", required: [], properties: {} };
    sides.forEach((count, index) => {
      const guess = guessed && guessed[index] !== null ? guessed[index] : undefined;
      schema.properties[`die${index}`] = { type: "integer", minimum: 1, maximum: count, title: t("die", { n: index + 1, sides: count }),
        default: guess };
      schema.required.push(`die${index}`);
    });
    return schema;
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

  // One die as the camera saw it: its picture (when kept), its value and its kind.
  function die(value, sides, crop, note) {
    return el("figure", { class: "die" }, crop ? el("img", { src: crop, alt: `d${sides}`, width: 56, height: 56 }) : null,
      el("figcaption", {}, el("b", { class: "value" }, value), ` d${sides}`, note || null));
  }

  // The dice the camera read of a roll whose others are entered by hand, each with its crop.
  function halfRead(half) {
    if (!half) return null;
    const shown = half.values.map((value, index) => die(String(value), half.sides[index], half.crops[index]));
    return el("div", { class: "half-read" }, el("p", {}, t("camera_half")), el("div", { class: "dice-row" }, shown));
  }

  // The camera's guess for each awaited die, matched in order among dice of the same kind (null: none).
  function guessedValues(awaited, guess) {
    const left = guess ? guess.sides.map((sides, index) => ({ sides, value: guess.values[index] })) : [];
    return awaited.map((sides) => {
      const found = left.findIndex((one) => one.sides === sides);
      return found < 0 ? null : left.splice(found, 1)[0].value;
    });
  }

  // What the camera saw when it was not sure: each die's crop and likeliest value, to check against the dice.
  function cameraGuess(guess) {
    if (!guess) return null;
    const shown = guess.values.map((value, index) =>
      die(value === null ? "?" : `${value}?`, guess.sides[index], guess.crops[index]));
    return el("div", { class: "guess" }, el("p", {}, t("camera_guess")), el("div", { class: "dice-row" }, shown));
  }

  // What the page saw first of the last roll and of the camera's sentence: the turn the roll came in, the game the
  // sentence was said in. A roll of a turn that has passed, or a camera's read of another game, is old news.
  const seen = { roll: null, turn: "", said: "", game: null };

  function stale(snap) {
    const turn = JSON.stringify([snap.game_no, snap.whose_turn]);
    const roll = snap.dice ? `${snap.game_no}-${snap.dice.seq}` : null;
    if (roll !== seen.roll) Object.assign(seen, { roll, turn });
    const said = (snap.camera && snap.camera.message) || "";
    if (said !== seen.said) Object.assign(seen, { said, game: snap.game_no });
    return { roll: Boolean(roll) && !snap.can_correct && turn !== seen.turn, said: Boolean(said) && snap.game_no !== seen.game };
  }

  // `usesDice`: false for a game played without dice (8 Gates), which shows neither dice nor camera.
  function lastDice(table, usesDice) {
    const snap = table.snap;
    const old = stale(snap);
    if (usesDice === false) return null;
    const camera = snap.camera || { status: "none", message: "" };
    const status = old.said && camera.status === "read_ok" ? "ready" : camera.status;
    const cameraLine = el("p", { class: ["camera", `camera-${status}`] },
      `📷 ${t("camera")}: `, (!old.said && C.inLang(camera.message)) || t(`camera_${status}`));
    if (!snap.dice || old.roll) return el("section", { class: "dice" }, cameraLine);
    const dice = snap.dice;
    const shown = dice.values.map((value, index) => die(String(value), dice.sides[index], dice.crops[index],
      dice.origins[index] ? el("small", {}, ` ${t(`origin_${dice.origins[index]}`)}`) : null));
    return el("section", { class: "dice" }, el("h2", {}, t("last_dice")), el("div", { class: "dice-row" }, shown),
      correction(table, dice), cameraLine);
  }

  function correction(table, dice) {
    if (table.snap.outcome && !table.snap.can_correct) return null;  // a roll that ended the game can still be put right
    return el("details", { class: "correct" }, el("summary", {}, t("correct_roll")),
      C.schemaForm(diceSchema(dice.sides), { prefix: "fix", label: (key) => key, submitLabel: t("send_correction"),
        onSubmit: (values) => table.post("/api/dice/correct",
          { values: dice.sides.map((s, i) => values[`die${i}`]), sides: dice.sides, roll_seq: dice.seq, ...table.shownGame() }, "fix") }),
      el("span", { "data-at": "fix" }));
  }

  C.diceView = { pendingRoll, lastDice };
})();
