// A box that scrolls sideways (`.scroll`: 8 Gates' growing middle, a wide table on a small phone) says so where it
// sits: its frame shades the side there is more on and a hint under it says to swipe. Where it was scrolled to
// survives the table page's redraws.
"use strict";

(function () {
  const C = window.Companion;
  const STRINGS = {
    en: { more: "⇠ Swipe sideways for the rest ⇢" },
    ko: { more: "⇠ 옆으로 밀면 나머지가 보입니다 ⇢" },
  };

  function said() {
    return (STRINGS[C.lang] || STRINGS.en).more;
  }

  // Each scroller under `root` in its frame (made once), which shades its cut sides and shows its hint while cut.
  function frame(root) {
    for (const box of root.querySelectorAll(".scroll")) {
      if (box.parentElement.classList.contains("scroll-frame")) continue;
      const framed = C.el("div", { class: "scroll-frame" });
      box.replaceWith(framed);
      framed.append(box, C.el("p", { class: "scroll-hint", hidden: true }, said()));
      box.addEventListener("scroll", () => mark(framed), { passive: true });
    }
  }

  // Shade the sides with more to see and show the hint while the box cannot show all it holds.
  function mark(framed) {
    const box = framed.querySelector(".scroll");
    const cut = box.scrollWidth > box.clientWidth + 1;
    framed.classList.toggle("more-left", cut && box.scrollLeft > 1);
    framed.classList.toggle("more-right", cut && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    framed.querySelector(".scroll-hint").hidden = !cut;
  }

  // Where each scroller under `root` is scrolled to, by its place among them.
  function save(root) {
    return [...root.querySelectorAll(".scroll")].map((box) => box.scrollLeft);
  }

  // The scrollers under `root`, framed, each back where it was (`scrolled`, from save()).
  function show(root, scrolled) {
    frame(root); // first: a box moved into its frame starts scrolled back to its start
    [...root.querySelectorAll(".scroll")].forEach((box, index) => { if (scrolled && scrolled[index]) box.scrollLeft = scrolled[index]; });
    markAll(root);
  }

  function markAll(within) {
    for (const framed of within.querySelectorAll(".scroll-frame")) mark(framed);
  }

  window.addEventListener("resize", () => markAll(document));
  document.addEventListener("toggle", (event) => markAll(event.target), true); // a fold opened: its tables are laid out now

  C.scrollHints = { save, show };
})();
