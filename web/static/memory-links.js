// Ways into the table's memory from the table and host pages: "Log this play in BG Stats" on a finished game's
// result, and links to the history, the dice and the exports under the host page.
"use strict";

(function () {
  const C = window.Companion;
  const { el } = C;
  const WORDS = {
    en: { bgstats: "Log this play in BG Stats", history: "History of games", dice: "Are these dice fair?",
          plays_csv: "Export plays (CSV)", plays_json: "Export plays (JSON)", dice_csv: "Export dice (CSV)" },
    ko: { bgstats: "BG Stats에 이 게임 기록하기", history: "게임 기록", dice: "주사위는 공정한가?",
          plays_csv: "게임 내보내기 (CSV)", plays_json: "게임 내보내기 (JSON)", dice_csv: "주사위 내보내기 (CSV)" },
  };
  const say = (key) => (WORDS[C.lang] || WORDS.en)[key] || WORDS.en[key];

  // The finished game's BG Stats link: asked of the box when tapped (the app opens with the play filled in).
  function bgStatsLink(snap) {
    if (!snap.outcome || !Number.isInteger(snap.game_no)) return null;
    return el("p", {}, el("a", { class: "bgstats", href: `/history`, onclick: async (event) => {
      event.preventDefault();
      try {
        const found = await C.request("GET", `/api/plays/${snap.game_no}/bgstats`);
        window.location.href = found.url;
      } catch (error) {
        event.target.textContent = C.said(error);
      }
    } }, say("bgstats")));
  }

  function hostLinks() {
    const old = document.getElementById("memory-links");
    if (old) old.remove();
    const link = (href, key, download) => el("a", { href, download: download || null }, say(key));
    document.body.appendChild(el("nav", { id: "memory-links", class: "memory-nav", "aria-label": say("history") },
      link("/history", "history"), link("/dice", "dice"), link("/api/plays.csv", "plays_csv", "plays.csv"),
      link("/api/plays.json", "plays_json", "plays.json"), link("/api/stats/dice.csv", "dice_csv", "dice.csv")));
  }

  C.bgStatsLink = bgStatsLink;
  document.addEventListener("DOMContentLoaded", () => {
    if (window.location.pathname !== "/host") return;
    hostLinks();
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => setTimeout(hostLinks, 0));  // after the page has switched its language
    }
  });
})();
