"""The table page on a 320-px-wide phone: every game's table, with every seat's move forms (the host's
table view), in English and in Korean, fits the screen; nothing makes the page scroll sideways."""
from __future__ import annotations

from playwright.sync_api import expect

from phone_browser import watch_errors

NARROW = {"viewport": {"width": 320, "height": 640}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
OUTSIDE = """() => [...document.querySelectorAll("body *")]
  .filter((node) => !node.closest(".scroll") && node.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map((node) => `${node.tagName.toLowerCase()}.${node.className}: ${(node.textContent || "").slice(0, 50)}`)"""


def test_every_games_table_fits_a_320_px_screen(browser, companion_server):
    server = companion_server
    host = server.host_token
    context = browser.new_context(**NARROW)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={host}")
    page.goto(f"{server.url}/")  # the host's table view: every seat's move forms
    for game in server.api("GET", "/api/games", token=host)[1]:
        players = ["Ann", "Bob", "Cy"][:max(game["min_players"], min(3, game["max_players"]))]
        table = server.api("GET", "/api/state", token=host)[1]
        ends = {} if table["game_no"] is None else {"ends_game": table["game_no"]}
        assert server.api("POST", "/api/game", {"game": game["id"], "players": players, **ends}, token=host)[0] == 200
        expect(page.locator("#title")).to_have_text(game["title"])
        for lang in ("en", "ko"):
            page.locator(f"[data-lang={lang}]").click()
            page.evaluate("() => document.querySelectorAll('details').forEach((fold) => { fold.open = true; })")
            assert page.evaluate(OUTSIDE) == [], (game["id"], lang)
            assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["viewport"]["width"], (game["id"], lang)
    assert errors == []
    context.close()
