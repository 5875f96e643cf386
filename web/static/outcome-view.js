// The result of a finished game on the table page: the winners, the summary, the tie rule when it decided,
// and the records of this game's past results (best scores, records beaten).
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;

  // `names(seats)` names players; `label(key)` says a view key in the game's words.
  function outcome(snap, names, label) {
    if (!snap.outcome) return null;
    const result = snap.outcome;
    const winners = result.winners.length
      ? t(result.winners.length > 1 ? "winners_many" : "winners", { names: names(result.winners) }) : t("no_winner");
    const tie = C.inLangOf(result.detail, "tie_rule");
    return el("section", { class: "outcome" }, el("h2", {}, "🏁 ", t("outcome")), el("p", { class: "winners" }, winners),
      el("p", {}, C.inLangOf(result.detail, "summary") || result.summary), tie ? el("p", { class: "tie-rule" }, el("strong", {}, `${t("tie_rule")}: `), tie) : null,
      records(snap.records, label), C.bgStatsLink ? C.bgStatsLink(snap) : null);
  }

  function records(found, label) {
    if (!found) return null;
    const best = Object.entries(found.best || {}).map(([key, value]) => el("li", {}, `${label(key)}: ${value}`));
    const beaten = (found.beaten || []).map(label).join(", ");
    return el("div", { class: "records" }, el("h3", {}, t("records")),
      el("p", {}, t("records_games", { n: found.games })), best.length ? el("ul", {}, best) : null,
      beaten ? el("p", { class: "beaten" }, t("records_beaten", { keys: beaten })) : null);
  }

  C.outcomeView = outcome;
})();
