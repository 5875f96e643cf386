"""Nothing is cut short on a 360-px phone (nor a 390-px one): each of the five games, played far enough to show its
tables and its move menus, on the host's table view (every seat's menus) in English and in Korean. No text is clipped
by its box, no menu shows its choice cut short, the page never scrolls sideways, and a table that must scroll sideways
says so where it sits (a shadow on the cut edge and a "scroll" hint).

Screenshots at 360 px go to $SCREENSHOTS when it is set, else to the test's temporary folder."""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import new_game, open_page

PHONES = {width: {"viewport": {"width": width, "height": height}, "device_scale_factor": 2, "is_mobile": True,
                  "has_touch": True} for width, height in ((360, 740), (390, 844))}
SHOT_WIDTH = 360

# Every element that cuts its text short, as "tag.class: text" (empty when nothing is):
# - a box that hides its overflow (overflow hidden/clip, or an ellipsis) with more text than it shows;
# - a closed <select> whose chosen choice is wider than the box shows (a closed menu cannot wrap its text);
# - anything outside the screen's right edge that is not inside a box that scrolls sideways;
# - a drawing's text (SVG) cut by the drawing's edge or covered by a shape drawn after it.
CLIPPED = """() => {
  const width = document.documentElement.clientWidth;
  const visible = (node) => node.getClientRects().length > 0 && getComputedStyle(node).visibility !== "hidden";
  const named = (node, why) => `${why} ${node.tagName.toLowerCase()}.${node.getAttribute("class") || ""}: ${
    (node.textContent || "").trim().slice(0, 60)}`;
  const scrolls = (node) => ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
  const insideScroller = (node) => { for (let up = node.parentElement; up; up = up.parentElement) {
    if (up !== document.body && up !== document.documentElement && scrolls(up)) return true; } return false; };
  const pen = document.createElement("canvas").getContext("2d");
  const textWidth = (select) => {
    pen.font = getComputedStyle(select).font;
    return select.selectedOptions.length ? pen.measureText(select.selectedOptions[0].textContent).width : 0;
  };
  const ARROW = 20; // the closed menu's arrow takes this much of its inside
  const found = [];
  for (const node of document.querySelectorAll("body *")) {
    if (!visible(node)) continue;
    const style = getComputedStyle(node);
    const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    if (hides && node.scrollWidth > node.clientWidth + 1) found.push(named(node, "cut"));
    if (node.tagName === "SELECT") {
      const inside = node.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW;
      if (textWidth(node) > inside + 1) found.push(named(node, "menu cut"));
    }
    const outside = node.getBoundingClientRect().right > width + 0.5;
    if (outside && !insideScroller(node)) found.push(named(node, "off screen"));
  }
  const overlap = (one, two) => Math.min(one.right, two.right) - Math.max(one.left, two.left) > 1
    && Math.min(one.bottom, two.bottom) - Math.max(one.top, two.top) > 1;
  for (const label of document.querySelectorAll("svg text")) {
    if (!visible(label)) continue;
    const box = label.getBoundingClientRect();
    const drawing = label.ownerSVGElement;
    const frame = drawing.getBoundingClientRect();
    if (box.left < frame.left - 1 || box.right > frame.right + 1) found.push(named(label, "cut drawn"));
    const later = [...drawing.querySelectorAll("rect, circle, ellipse, polygon, path")]
      .filter((shape) => label.compareDocumentPosition(shape) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (later.some((shape) => overlap(shape.getBoundingClientRect(), box))) found.push(named(label, "covered drawn"));
  }
  return found;
}"""

# Every box that scrolls sideways with more than it shows, and whether it says so where it sits: the side it
# can scroll to is shaded (a class on the box) and a visible hint inside the screen is beside it.
SCROLLERS = """() => [...document.querySelectorAll("body *")]
  .filter((node) => node.getClientRects().length && ["auto", "scroll"].includes(getComputedStyle(node).overflowX)
    && node.scrollWidth > node.clientWidth + 1)
  .map((node) => {
    const frame = node.closest(".scroll-frame");
    const hint = frame && frame.querySelector(".scroll-hint");
    const box = hint && hint.getBoundingClientRect();
    return { name: `${node.tagName.toLowerCase()}.${node.className}: ${(node.textContent || "").trim().slice(0, 40)}`,
      shaded: Boolean(frame && frame.classList.contains("more-right")),
      hinted: Boolean(box && box.width > 0 && box.height > 0 && box.right <= document.documentElement.clientWidth
        && getComputedStyle(hint).visibility !== "hidden") };
  })"""
OPEN_FOLDS = """() => new Promise((done) => {
  document.querySelectorAll("details").forEach((fold) => { fold.open = true; });
  requestAnimationFrame(() => requestAnimationFrame(done)); // laid out, and each fold's toggle answered
})"""
BUSY_TRIES = 5  # a test plays faster than any phone: a move turned away as too many at once is sent again


def _sent(server: Any, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    """POSTs an input, again after a pause when the box turns it away as too many at once; returns the table;
    raises AssertionError when it is refused."""
    for _ in range(BUSY_TRIES):
        status, table = server.api("POST", path, body, token=token)
        if status != 429:
            break
        time.sleep(1.0)
    assert status == 200, (path, body, table)
    return table


def _act(server: Any, seat: int, move: str, /, **args: Any) -> dict[str, Any]:
    """One move from the seat's own phone; returns the table; raises AssertionError when it is refused."""
    return _sent(server, "/api/actions", {"seat": seat, "move": move, "args": args}, server.seat_token(seat))


def _roll(server: Any, seat: int, values: list[int], sides: list[int]) -> dict[str, Any]:
    """A roll entered on the seat's phone; returns the table; raises AssertionError when it is refused."""
    return _sent(server, "/api/dice", {"values": values, "sides": sides}, server.seat_token(seat))


def through_the_gate(server: Any) -> Iterator[str]:
    """Through The Gate for three, yielding each stage: the roll-check menu, a check rolled, the scoring table;
    raises AssertionError when the box refuses a step."""
    new_game(server, "through-the-gate", ["Ann", "Bartholomew", "Cy"], {"hourglasses": 1})
    for seat, value in enumerate((6, 2, 3)):  # the roll for first player: Ann's 6
        _roll(server, seat, [value], [6])
    _act(server, 0, "declare_speed", speed=4)
    yield "roll-check menu"
    _act(server, 0, "check", kind="item")
    _roll(server, 0, [5], [6])
    yield "a check rolled"
    while server.api("GET", "/api/state", token=server.host_token)[1]["view"]["phase"] != "scoring":
        table = server.api("GET", "/api/state", token=server.host_token)[1]
        seat = table["view"]["current"]
        if table["view"]["speed"] is None:
            _act(server, seat, "declare_speed", speed=3)
        _act(server, seat, "end_turn")
    _act(server, 1, "set_tallies", compassion=3, strength=2, wisdom=4, wild=1, companions=2, diary=5)
    yield "scoring table"


def eight_gates(server: Any) -> Iterator[str]:
    """8 Gates for three, yielding each stage: in play, the middle grown with the scoresheet filling, the reveal;
    raises AssertionError when the box refuses a step."""
    new_game(server, "eight-gates", ["Ann", "Margarethe", "Cy"])
    _act(server, 0, "choose_archivist", seat=0)
    _act(server, 0, "starting_gates", values=[1, 3, 5])
    yield "in play"
    table = server.api("GET", "/api/state", token=server.host_token)[1]
    for turn in range(5):
        seat = table["view"]["current"]
        cells = table["view"]["legal_cells"]
        cell = max(cells, key=lambda one: (one["x"], -one["y"]))  # the middle grows to the right
        _act(server, seat, "place_gate", x=cell["x"], y=cell["y"], value=turn % 6 + 1)
        _act(server, seat, "gain_points", points=7)
        table = _act(server, seat, "end_turn")
    yield "grown middle"
    while table["view"]["phase"] == "playing":
        seat = table["view"]["current"]
        cell = table["view"]["legal_cells"][0]
        _act(server, seat, "place_gate", x=cell["x"], y=cell["y"], value=6)
        table = _act(server, seat, "end_turn")
    held = table["view"]["players"][1]["hand_size"]
    _act(server, 1, "enter_hand", hand=[value % 6 + 1 for value in range(max(held, 1))])
    yield "reveal"


def gateway_city(server: Any) -> Iterator[str]:
    """Gateway (the city) for two: the attack form, then a battle's preview; yields each stage's name.
    Raises AssertionError when the box refuses a step."""
    options = {"event_cards_1": 1, "event_cards_2": 1, "event_cards_3": 0, "shuffle_tokens": False}
    new_game(server, "gateway-city", ["Ann", "Bartholomew"], options)
    yield "deployment"
    for _ in range(2):
        _act(server, 0, "next_phase")
    yield "attack form"
    _act(server, 0, "attack", district=1, army=[{"name": "Rebel", "attack": 2, "defence": 1}])
    yield "battle preview"


def gateway_rescue(server: Any) -> Iterator[str]:
    """Gateway (rescue the creatures) for three, yielding each stage: the roll-off, a turn (the correction, the D8);
    raises AssertionError when the box refuses a step."""
    new_game(server, "gateway-rescue", ["Ann", "Bartholomew", "Cy"])
    yield "roll-off"
    for seat, value in enumerate((3, 5, 6)):  # the roll for first player: Ann's 3 is lowest
        _roll(server, seat, [value], [6])
    yield "playing"


def the_gate(server: Any) -> Iterator[str]:
    """The Gate for two: the first choice, then a turn with the attack form, then a battle; yields each stage's name.
    Raises AssertionError when the box refuses a step."""
    new_game(server, "the-gate", ["Ann", "Bartholomew"])
    yield "first player"
    _act(server, 0, "choose_first", player=0)
    _act(server, 0, "place_guardian", gate=1, defence=2)
    _act(server, 0, "end_turn")
    yield "attack form"
    _act(server, 1, "attack", gate=1, attackers=[{"attack": 3, "bonus": 1}, {"attack": 2}])
    yield "battle"


GAMES: dict[str, Callable[[Any], Iterator[str]]] = {
    "through-the-gate": through_the_gate, "eight-gates": eight_gates, "gateway-city": gateway_city,
    "gateway-rescue": gateway_rescue, "the-gate": the_gate}


def _shots(tmp_path: Path) -> Path:
    """Where the screenshots go: $SCREENSHOTS or the test's temporary folder; raises OSError when it cannot be made."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _problems(page: Any, stage: str) -> list[str]:
    """What is cut short or scrolls unsaid on the page now, each as a line naming the stage."""
    page.evaluate(OPEN_FOLDS)
    found = [f"{stage}: {line}" for line in page.evaluate(CLIPPED)]
    width = page.evaluate("document.documentElement.clientWidth")
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > width:
        found.append(f"{stage}: the page scrolls sideways ({wide} px on a {width}-px screen)")
    for box in page.evaluate(SCROLLERS):
        if not (box["shaded"] and box["hinted"]):
            found.append(f"{stage}: scrolls without saying so ({box})")
    return found


@pytest.mark.parametrize("width", sorted(PHONES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_nothing_is_cut_short_on_a_narrow_phone(browser: Any, companion_server: Any, tmp_path: Path, game: str,
                                                width: int) -> None:
    server = companion_server
    stages = GAMES[game](server)
    stage = next(stages)
    context, page, errors = open_page(browser, server, server.host_token, PHONES[width])
    page.goto(f"{server.url}/")  # the host's table view: every seat's menus
    folder = _shots(tmp_path)
    found: list[str] = []
    while stage:
        seq = server.seq()
        for lang in ("en", "ko"):
            page.locator(f"[data-lang={lang}]").click()
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.wait_for_function("seq => (window.CompanionTable.snapshot || {}).seq === seq", arg=seq)
            found += _problems(page, f"{stage} ({lang})")
            if width == SHOT_WIDTH:
                page.screenshot(path=folder / f"{game}-{stage.replace(' ', '-')}-{lang}.png", full_page=True)
        stage = next(stages, None)
    assert found == [], "\n".join(found)
    assert errors == []
    context.close()


def test_a_roll_check_is_chosen_by_a_tap_that_shows_its_whole_text(browser: Any, companion_server: Any) -> None:
    server = companion_server
    stages = through_the_gate(server)
    assert next(stages) == "roll-check menu"
    context, page, errors = open_page(browser, server, server.seat_token(0), PHONES[SHOT_WIDTH])
    page.locator("details.fold-0-check summary").click()
    form = page.locator("form.move-form[data-at=move-0-check]")
    kinds = form.locator(".field.taps").first
    expect(kinds.get_by_role("radio", name="Item check (🔧): roll ≥ speed")).to_be_visible()
    expect(kinds.get_by_role("radio", checked=True)).to_have_count(0)  # nothing chosen for the player
    form.locator("button[type=submit]").click()
    expect(form.locator(".form-problem")).to_have_text("Choose Roll check first.")
    assert server.api("GET", "/api/state", token=server.host_token)[1]["view"]["check"] is None
    kinds.get_by_role("radio", name="Roll = 6?").click()
    expect(kinds.get_by_role("radio", name="Roll = 6?")).to_have_attribute("aria-checked", "true")
    server.act(server.host_token, 0, "gain_hourglass", player=1)  # the host's phone changes the table: a redraw
    expect(page.locator(".ttg-explorer").nth(1)).to_contain_text("⌛⌛")
    expect(kinds.get_by_role("radio", name="Roll = 6?")).to_have_attribute("aria-checked", "true")
    form.locator("button[type=submit]").click()
    expect(page.locator(".ttg-check h3")).to_contain_text("Roll = 6?")
    assert server.api("GET", "/api/state", token=server.host_token)[1]["view"]["check"]["kind"] == "six"
    assert errors == []
    context.close()


def test_the_growing_middle_says_which_side_has_more_and_keeps_its_scroll(browser: Any, companion_server: Any) -> None:
    server = companion_server
    stages = eight_gates(server)
    while next(stages) != "grown middle":
        pass
    context, page, errors = open_page(browser, server, server.seat_token(0), PHONES[SHOT_WIDTH])
    framed = page.locator(".eight-gates-part .scroll-frame").filter(has=page.locator("svg.eight-gates-middle"))
    expect(framed).to_have_class("scroll-frame more-right")
    expect(framed.locator(".scroll-hint")).to_be_visible()
    framed.locator(".scroll").evaluate("box => box.scrollTo(box.scrollWidth, 0)")
    expect(framed).to_have_class("scroll-frame more-left")  # at the right end: the rest is on the left
    view = server.api("GET", "/api/state", token=server.host_token)[1]["view"]
    gates = len(view["middle"])
    inside = [cell for cell in view["legal_cells"] if view["bounds"]["min_x"] < cell["x"] < view["bounds"]["max_x"]]
    _act(server, view["current"], "place_gate", x=inside[0]["x"], y=inside[0]["y"], value=2)  # the table redrawn
    expect(page.locator("svg.eight-gates-middle .gate")).to_have_count(gates + 1)
    expect(framed).to_have_class("scroll-frame more-left")
    assert framed.locator(".scroll").evaluate("box => box.scrollLeft + box.clientWidth >= box.scrollWidth - 1")
    assert errors == []
    context.close()
