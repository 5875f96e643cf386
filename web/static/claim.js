// A box with no screen is claimed with its own buttons: NEXT and UNDO held together on the box open a minute in
// which the first phone without a link to tap "Become the host" becomes it. Here: that button (or how to open the
// minute), the new host link carried to the host's page, and the box's address the host's page prints.
"use strict";

(function () {
  const C = window.Companion;
  const { el, t } = C;
  const ASK_MS = 2000; // how often a phone without a link asks whether the box takes a new host
  const CLAIMED = "companion.claimed"; // the new host link, from the claiming page to the host's page
  const claim = { open: false, left: 0, asking: false, refusal: null, sending: false, redraw: () => {}, address: null };

  C.addStrings({
    en: {
      status_claiming: "a phone may become the host", hold_claim: "NEXT + UNDO (hold 3 s)", become_host: "Become the host",
      hold_claim_hint: "Keep NEXT + UNDO pressed for 3 seconds: then, for a minute, a phone without a link may become the host.",
      claim_how: "Hold NEXT and UNDO together for 3 seconds on the box, then tap Become the host within a minute.",
      claim_open: "The box takes a new host for {n} more seconds: the first phone to tap becomes the host, and the old host link stops working.",
      box_address: "Phones open the box at", box_address_note: "If a phone cannot open the name, type the number.",
    },
    ko: {
      status_claiming: "휴대폰이 호스트가 될 수 있음", hold_claim: "다음 + 되돌리기 (3초 누르기)", become_host: "호스트 되기",
      hold_claim_hint: "다음과 되돌리기를 3초 동안 누르고 계세요: 그러면 1분 동안 링크 없는 휴대폰이 호스트가 될 수 있습니다.",
      claim_how: "상자의 다음(NEXT)과 되돌리기(UNDO) 버튼을 함께 3초 동안 누른 뒤, 1분 안에 ‘호스트 되기’를 누르세요.",
      claim_open: "상자가 {n}초 더 새 호스트를 받습니다: 먼저 누르는 휴대폰이 호스트가 되고, 이전 호스트 링크는 더 이상 작동하지 않습니다.",
      box_address: "휴대폰에서 여는 상자 주소", box_address_note: "휴대폰에서 이름이 열리지 않으면 숫자 주소를 입력하세요.",
    },
  });

  // Ask the box whether it takes a new host, again every ASK_MS while the page shows the claim box; a change redraws.
  async function ask() {
    if (!document.querySelector(".claim-box")) { claim.asking = false; return; } // the page joined meanwhile
    try {
      const state = await C.request("GET", "/api/claim");
      const changed = state.open !== claim.open || state.seconds_left !== claim.left;
      Object.assign(claim, { open: state.open, left: state.seconds_left });
      if (changed) claim.redraw();
    } catch (error) { /* a dropped Wi-Fi: asked again below */ }
    setTimeout(ask, ASK_MS);
  }

  async function become() {
    if (claim.sending) return; // a double tap would be refused as "another phone"
    claim.sending = true;
    try {
      const answer = await C.request("POST", "/api/claim", {});
      try { sessionStorage.setItem(CLAIMED, answer.url); } catch (e) { /* private mode: the host page offers a new link */ }
      window.location.assign(answer.join); // /join sets the host's cookie, then goes on to /host
    } catch (error) {
      claim.refusal = error;
      claim.sending = false;
      claim.redraw();
    }
  }

  // For a phone the table turned away: "Become the host" while the box takes one, else how to make it take one.
  // `redraw()` draws the page again (the seconds left, a refusal).
  C.claimBox = function claimBox(redraw) {
    claim.redraw = redraw;
    if (!claim.asking) { claim.asking = true; setTimeout(ask, 0); }
    const refused = claim.refusal ? el("p", { class: "notice refusal", role: "alert" }, C.said(claim.refusal)) : null;
    if (!claim.open) return el("section", { class: "claim-box" }, refused, el("p", { class: "claim-how" }, t("claim_how")));
    return el("section", { class: "claim-box open" }, refused, el("p", { role: "status" }, t("claim_open", { n: claim.left })),
      el("button", { type: "button", class: "primary become-host", disabled: claim.sending, onclick: become }, t("become_host")));
  };

  // The host link this browser just claimed, once (the host's page shows it to keep), else null.
  C.claimedLink = function claimedLink() {
    try {
      const link = sessionStorage.getItem(CLAIMED);
      sessionStorage.removeItem(CLAIMED);
      return link;
    } catch (e) { return null; }
  };

  // On the host's page: the address people type to open the box (its .local name where announced, and its number).
  C.boxAddress = function boxAddress(redraw) {
    if (claim.address === null) {
      claim.address = {};
      C.request("GET", "/api/host/address").then((found) => { claim.address = found; redraw(); }, () => { claim.address = null; });
      return null;
    }
    const { name, number } = claim.address;
    if (!number) return null;
    return el("section", { class: "box-address" }, el("h2", {}, t("box_address")),
      el("p", {}, name ? el("code", { class: "address-name", translate: "no" }, name) : null, name ? " · " : null,
        el("code", { class: "address-number", translate: "no" }, number)), // an address, in no language
      name ? el("p", { class: "muted" }, t("box_address_note")) : null);
  };
})();
