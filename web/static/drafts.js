// What the player was typing survives the table page's redraws: only fields the player changed are kept
// (a field left alone shows what the new table fills in), with the folds that were open and the focus.
// Dice typed for a roll that has since been entered, and anything typed in another game, are dropped.
"use strict";

(function () {
  function save(root) {
    const values = {};
    for (const input of root.querySelectorAll("input[id], select[id]")) {
      if (edited(input)) values[input.id] = input.type === "checkbox" ? input.checked : input.value;
    }
    const open = new Set([...root.querySelectorAll("details[open]")].map((fold) => fold.className));
    const focus = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
    return { values, open, focus };
  }

  // Drop from `drafts` what was typed for another game or a roll that is gone; returns what they are now for.
  function forgetStale(drafts, snap, typedFor) {
    const game = snap ? JSON.stringify([snap.game_no, snap.game, snap.players]) : "";
    const wait = snap && snap.awaiting_dice;
    const half = snap && snap.camera && snap.camera.status === "read_part" && snap.camera.half;
    const roll = JSON.stringify([game, snap && snap.dice && snap.dice.seq, wait && [wait.why, wait.sides, wait.seats],
      half && half.seq]);
    if (game !== typedFor.game) drafts.values = {};
    else if (roll !== typedFor.roll) { // typed for a roll that is gone: a correction must not land on the next
      for (const id of Object.keys(drafts.values)) if (/^f-(roll|fix)-/.test(id)) delete drafts.values[id];
      drafts.open.delete("correct");
    }
    return { game, roll };
  }

  function edited(input) {
    if (input.type === "checkbox") return input.checked !== input.defaultChecked;
    if (input.tagName === "SELECT") {
      const first = [...input.options].find((option) => option.defaultSelected) || input.options[0];
      return first !== undefined && input.value !== first.value;
    }
    return input.value !== input.defaultValue;
  }

  function restore(root, drafts) {
    for (const [id, value] of Object.entries(drafts.values)) {
      const input = document.getElementById(id);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
      if (input.matches(".picked, .tapped")) input.dispatchEvent(new Event("input")); // its buttons show what was tapped
    }
    for (const fold of root.querySelectorAll("details")) if (drafts.open.has(fold.className)) fold.open = true;
    const focused = drafts.focus && document.getElementById(drafts.focus);
    if (focused) focused.focus();
  }

  window.Companion.drafts = { save, forgetStale, restore, none: () => ({ values: {}, open: new Set(), focus: null }) };
})();
