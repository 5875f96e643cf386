// Gateway (the city) on the phone: the forms a player fills in (an attack, a defence, the event drawn, a district
// corrected) and the card editors they share. gateway-city.js draws them, lending its words, drafts and redraw.
"use strict";

(function () {
  // The forms over gateway-city.js's text(key, values), legal(snapshot, move), draft(key, fresh) and redraw(ui, snapshot).
  Companion.gatewayCityForms = function gatewayCityForms({ text, legal, draft, redraw }) {
    // The attack being planned: the districts' map chooses its target too.
    function attackPlan() {
      return draft("attack", () => ({ district: null, army: [{ attack: 1, defence: 1 }], defenders: [], runestones: 0 }));
    }

    // --- card editors ------------------------------------------------------------------------
    function numberInput(ui, id, value, min, max, onChange, label) {
      return ui.el("input", { id, type: "number", inputmode: "numeric", min, max, step: 1, value, "aria-label": label,
        oninput: (event) => onChange(event.target.value === "" ? null : Number(event.target.value)) });
    }

    function cardRows(ui, snapshot, key, rows, spec) {
      const lines = rows.map((row, index) => ui.el("div", { class: "gateway-card-row" },
        spec.district ? select(ui, `gc-${key}-${index}-district`, snapshot.view.districts.map((d) => [d.number, `${d.number}`]),
          row.district, (value) => { row.district = value; }, text("district")) : null,
        spec.kind ? select(ui, `gc-${key}-${index}-kind`, [["horde", text("horde")], ["guard", text("guard")]], row.kind,
          (value) => { row.kind = value; }, text("kind")) : null,
        "⚔", numberInput(ui, `gc-${key}-${index}-attack`, row.attack, 0, 20, (value) => { row.attack = value; }, text("atk")),
        "🛡", numberInput(ui, `gc-${key}-${index}-defence`, row.defence, 1, 20, (value) => { row.defence = value; }, text("def")),
        spec.vp ? ["★", numberInput(ui, `gc-${key}-${index}-vp`, row.vp, 0, 10, (value) => { row.vp = value; }, text("vp"))] : null,
        ui.el("button", { type: "button", class: "small", onclick: () => { rows.splice(index, 1); redraw(ui, snapshot); } },
          text("remove"))));
      const blank = () => ({ attack: 1, defence: 1, vp: 1, kind: "horde", district: 1 });
      return ui.el("div", { class: "gateway-cards" }, lines,
        ui.el("button", { type: "button", class: "small", onclick: () => { rows.push(blank()); redraw(ui, snapshot); } },
          text("add_card")));
    }

    function select(ui, id, choices, value, onChange, label) {
      return ui.el("select", { id, "aria-label": label, onchange: (event) => onChange(choices[Number(event.target.value)][0]) },
        choices.map(([key, shown], index) => ui.el("option", { value: String(index), selected: key === value }, shown)));
    }

    function cleanCards(rows, withVp) {
      return rows.map((row) => {
        const card = { attack: row.attack ?? 0, defence: row.defence ?? 1 };
        if (withVp) card.vp = row.vp ?? 0;
        return card;
      });
    }

    function damageList(value) {
      if (!value || !value.trim()) return undefined;
      return value.split(",").map((part) => Number(part.trim()) || 0);
    }

    function damageFields(ui, plan, keys) {
      return ui.el("details", { class: "gateway-own-damage" }, ui.el("summary", {}, text("own_damage")),
        keys.map((key) => ui.el("label", { class: "field" }, ui.el("span", {}, text(key)),
          ui.el("input", { id: `gc-${key}`, type: "text", value: plan[key] || "", oninput: (event) => { plan[key] = event.target.value; } }))));
    }

    function attackForm(view, snapshot, ui) {
      const entry = legal(snapshot, "attack");
      if (!entry) return null;
      const plan = attackPlan();
      const target = view.districts.find((district) => district.number === plan.district);
      const send = () => {
        const args = { district: plan.district, army: cleanCards(plan.army, false) };
        if (plan.runestones) args.runestones = plan.runestones;
        if (target && target.controller === "player") args.defending_army = cleanCards(plan.defenders, false);
        const own = damageList(plan.damage_to_defenders);
        const back = damageList(plan.damage_to_attackers);
        if (own) args.damage_to_defenders = own;
        if (back) args.damage_to_attackers = back;
        return ui.act("attack", args, entry.seat);
      };
      return ui.el("section", { class: "card gateway-form" }, ui.el("h3", {}, text("plan_attack")),
        ui.el("label", { class: "field" }, ui.el("span", {}, text("target")),
          select(ui, "gc-attack-district", [[null, "—"], ...view.districts.map((d) => [d.number, `${d.number}. ${d.name}`])],
            plan.district, (value) => { plan.district = value; redraw(ui, snapshot); }, text("target"))),
        ui.el("h4", {}, text("your_army")), ui.el("p", { class: "muted" }, text("army_help")),
        cardRows(ui, snapshot, "army", plan.army, {}),
        target && target.controller === "player"
          ? [ui.el("h4", {}, `${text("defending_army")}: ${target.holder_name}`), cardRows(ui, snapshot, "defenders", plan.defenders, {})]
          : null,
        ui.el("label", { class: "field" }, ui.el("span", {}, text("runestones")),
          numberInput(ui, "gc-attack-runestones", plan.runestones, -20, 20, (value) => { plan.runestones = value || 0; }, text("runestones"))),
        damageFields(ui, plan, ["damage_to_defenders", "damage_to_attackers"]),
        plan.district === null ? ui.el("p", { class: "muted" }, text("choose_target")) : null,
        ui.el("button", { type: "button", class: "primary", onclick: send, disabled: plan.district === null }, text("preview")));
    }

    function defendForm(view, snapshot, ui) {
      const entry = legal(snapshot, "defend");
      if (!entry || !view.battle) return null;
      const plan = draft("defend", () => ({ army: [{ attack: 1, defence: 1 }], runestones: 0, spawn_runestones: 0 }));
      const player = view.battle.defender.faction === "player";
      const send = () => {
        const args = {};
        if (player) args.army = cleanCards(plan.army, false);
        if (plan.runestones) args.runestones = plan.runestones;
        if (plan.spawn_runestones) args.spawn_runestones = plan.spawn_runestones;
        const own = damageList(plan.damage_to_spawn);
        const back = damageList(plan.damage_from_spawn);
        if (own) args.damage_to_spawn = own;
        if (back) args.damage_from_spawn = back;
        return ui.act("defend", args, entry.seat);
      };
      return ui.el("section", { class: "card gateway-form" }, ui.el("h3", {}, `${text("defend")}: ${view.battle.district_title}`),
        player ? [ui.el("h4", {}, text("your_army")), cardRows(ui, snapshot, "defend", plan.army, {})] : null,
        ui.el("label", { class: "field" }, ui.el("span", {}, text("runestones")),
          numberInput(ui, "gc-defend-runestones", plan.runestones, -20, 20, (value) => { plan.runestones = value || 0; }, text("runestones"))),
        ui.el("label", { class: "field" }, ui.el("span", {}, text("spawn_runestones")),
          numberInput(ui, "gc-defend-spawn", plan.spawn_runestones, -20, 20, (value) => { plan.spawn_runestones = value || 0; },
            text("spawn_runestones"))),
        damageFields(ui, plan, ["damage_to_spawn", "damage_from_spawn"]),
        ui.el("button", { type: "button", class: "primary", onclick: send }, text("preview")));
    }

    function eventForm(view, snapshot, ui) {
      const entry = legal(snapshot, "draw_event");
      if (!entry) return null;
      const plan = draft("event", () => ({ spawns: [] }));
      const send = () => ui.act("draw_event", { spawns: plan.spawns.map((row) => ({ district: row.district || 1,
        kind: row.kind || "horde", attack: row.attack ?? 0, defence: row.defence ?? 1, vp: row.vp ?? 0 })) }, entry.seat);
      return ui.el("section", { class: "card gateway-form" },
        ui.el("h3", {}, `${text("draw_event")} — ${view.deck.next_tier ? text("tier", { tier: view.deck.next_tier }) : ""}`),
        ui.el("p", {}, text("spawns")),
        cardRows(ui, snapshot, "spawn", plan.spawns, { district: true, kind: true, vp: true }),
        ui.el("button", { type: "button", class: "primary", onclick: send }, text("record_event")));
    }

    function correctionForm(view, snapshot, ui) {
      const entry = legal(snapshot, "set_district");
      if (!entry) return null;
      const plan = draft("correct", () => ({ district: 1, controller: "guard", player: 0, cards: [] }));
      const controllers = ["nobody", "horde", "guard", "player"].map((key) => [key, key === "player" ? text("player") : text(key)]);
      const send = () => {
        const args = { district: plan.district, controller: plan.controller };
        if (plan.controller === "player") args.player = plan.player;
        if (plan.controller === "horde" || plan.controller === "guard") args.cards = cleanCards(plan.cards, true);
        return ui.act("set_district", args, entry.seat);
      };
      return ui.el("details", { class: "gateway-correct" }, ui.el("summary", {}, text("correct")),
        select(ui, "gc-correct-district", view.districts.map((d) => [d.number, `${d.number}. ${d.name}`]), plan.district,
          (value) => { plan.district = value; }, text("district")),
        select(ui, "gc-correct-controller", controllers, plan.controller, (value) => { plan.controller = value; redraw(ui, snapshot); },
          text("held_by")),
        plan.controller === "player" ? select(ui, "gc-correct-player", view.players.map((p) => [p.seat, p.name]), plan.player,
          (value) => { plan.player = value; }, text("player")) : null,
        plan.controller === "horde" || plan.controller === "guard" ? cardRows(ui, snapshot, "correct", plan.cards, { vp: true }) : null,
        ui.el("button", { type: "button", onclick: send }, text("save")));
    }

    return { attackPlan, attackForm, defendForm, eventForm, correctionForm };
  };
})();
