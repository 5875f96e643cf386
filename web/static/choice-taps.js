// A short list of choices in a move form (Through The Gate's roll checks, a card's modifier) as buttons to tap, each
// showing its whole text, wrapped when long: a closed menu shows only the start of its choice on a small phone.
// The choice lives in a hidden text field (its index, "" for none), so it survives a redraw like anything typed.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const MOST_TAPS = 8; // a list with more choices than this stays a menu

  // Whether a list of choices is short enough to be taps.
  function fits(values) {
    return values.length > 0 && values.length <= MOST_TAPS;
  }

  // The taps for `values` (shown by `shown(value)`) with their hidden field `input` (id and name set by the form);
  // `required` starts with nothing chosen unless `chosen` is a value, else "—" (none) is a choice too.
  function taps(input, values, shown, { label, required, chosen }) {
    const start = values.indexOf(chosen);
    input.value = start < 0 ? "" : String(start);
    input.defaultValue = input.value;
    input.hidden = true;
    input.readOnly = true;
    input.classList.add("tapped");
    input.dataset.kind = "choice";
    input.dataset.label = label;
    if (required) input.dataset.required = "yes";
    input.choices = values;
    const labelId = `${input.id}-label`;
    const body = el("div", { class: "choices", role: "radiogroup", "aria-labelledby": labelId });
    const options = [...(required ? [] : [["", t("optional")]]), ...values.map((value, index) => [String(index), shown(value)])];
    const redraw = () => body.replaceChildren(...options.map(([index, text]) => el("button", {
      type: "button", role: "radio", class: ["choice", input.value === index && "chosen"],
      "aria-checked": String(input.value === index), "data-choice": index,
      onclick: () => { input.value = index; input.dispatchEvent(new Event("input")); } }, text)));
    input.addEventListener("input", redraw);
    redraw();
    return el("div", { class: "field taps" }, el("span", { id: labelId }, label), body, input);
  }

  C.choiceTaps = { fits, taps };
})();
