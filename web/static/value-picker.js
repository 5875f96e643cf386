// A list of small numbers (8 Gates' dealt cards, starting Gates, hand, reveal) entered by taps, never typed:
// a row of value buttons per card when the count is fixed, else value buttons that add a card and chips that
// take one back. What was tapped lives in a read-only text field (so it survives a redraw like anything typed).
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const MOST_VALUES = 12; // a list of numbers with more possible values than this stays a typed list
  const MOST_ROWS = 8; // a fixed count up to this is a row of buttons per card

  // Whether an array schema is a list of small whole numbers that taps can enter.
  function fits(schema) {
    const item = schema.items || {};
    return schema.type === "array" && item.type === "integer" && Number.isInteger(item.minimum)
      && Number.isInteger(item.maximum) && item.maximum - item.minimum < MOST_VALUES;
  }

  function valuesOf(schema) {
    const values = [];
    for (let value = schema.items.minimum; value <= schema.items.maximum; value += 1) values.push(value);
    return values;
  }

  function fixed(schema) {
    return schema.minItems === schema.maxItems && schema.maxItems <= MOST_ROWS;
  }

  // The tapped values (`null` for a card of a fixed count not tapped yet) from the field's text.
  function read(input) {
    return input.value.split(" ").filter(Boolean).map((part) => (part === "–" ? null : Number(part)));
  }

  function write(input, picked) {
    input.value = picked.map((value) => (value === null ? "–" : String(value))).join(" ");
    input.dispatchEvent(new Event("input"));
  }

  // The picker for `schema` with its read-only field `input` (id and name set by the form): a labelled node.
  function picker(input, schema, label) {
    const values = valuesOf(schema);
    input.readOnly = true;
    input.classList.add("picked");
    input.dataset.kind = "picks";
    input.picks = schema;
    const body = el("div", { class: "picks" });
    const redraw = () => body.replaceChildren(...(fixed(schema) ? perCard(input, schema, values) : growing(input, schema, values)));
    if (fixed(schema) && !input.value) input.value = Array(schema.maxItems).fill("–").join(" ");
    input.defaultValue = input.value;
    input.addEventListener("input", redraw);
    redraw();
    return el("div", { class: "field picker" }, el("span", {}, label), body, input);
  }

  // One row of value buttons per card: a tap sets that card.
  function perCard(input, schema, values) {
    const picked = read(input);
    return picked.map((chosen, index) => el("div", { class: "pick-row", "data-card": index + 1 },
      el("span", { class: "pick-label" }, t("card_n", { n: index + 1 })),
      values.map((value) => el("button", { type: "button", class: ["pick", value === chosen && "chosen"],
        "aria-pressed": String(value === chosen), "data-value": value,
        onclick: () => { picked[index] = value; write(input, picked); } }, String(value)))));
  }

  // Value buttons that add a card, and the cards so far as chips that take one back when tapped.
  function growing(input, schema, values) {
    const picked = read(input);
    const full = picked.length >= schema.maxItems;
    return [
      el("div", { class: "row pick-add" }, values.map((value) => el("button", { type: "button", class: "pick",
        "data-value": value, disabled: full, onclick: () => write(input, [...picked, value]) }, `+${value}`))),
      el("div", { class: "row pick-chips" }, picked.length
        ? picked.map((value, index) => el("button", { type: "button", class: "chip small", "aria-label": t("take_back", { value }),
          onclick: () => write(input, picked.filter((_, at) => at !== index)) }, `${value} ✕`))
        : el("span", { class: "muted" }, t("none_tapped"))),
    ];
  }

  // What is still to tap before the list can go (in the page's words), else null.
  function missing(input) {
    const schema = input.picks;
    const picked = read(input);
    const left = picked.filter((value) => value === null).length;
    if (left) return t("pick_each", { n: left });
    if (picked.length < (schema.minItems || 0)) return t("pick_more", { n: schema.minItems - picked.length });
    return null;
  }

  function value(input) {
    return read(input).filter((one) => one !== null);
  }

  C.valuePicker = { fits, picker, missing, value };
})();
