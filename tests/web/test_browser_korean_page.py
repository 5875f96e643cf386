"""The Korean page in a real headless Chromium against the real companion on 127.0.0.1: every camera and status
light word, a corrected die, the answers to the box's buttons, the camera's sentences, a game's result, a roll
check's ruling and 8 Gates' move forms are in Korean."""
from __future__ import annotations

from itertools import zip_longest
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import anns_check, in_korean, new_game, open_page

from companion.table.snapshot import CAMERA_STATES
from hardware.panel import STATUSES as LIGHT_STATES  # what the status LED shows
from unsure_reads import answer_now, unsure_read


# --- 1. no raw status id on the Korean page ---------------------------------------------------
def show_statuses(page: Any, camera: str, light: str) -> None:
    """Draws the table as it stands with this camera status and status LED (the page's own show())."""
    page.evaluate("""([camera, light]) => {
        const snap = window.CompanionTable.snapshot;
        window.CompanionTable.show({ ...snap, seq: snap.seq + 1, camera: { ...snap.camera, status: camera, message: "" },
          lights: { ...snap.lights, status: light } });
    }""", [camera, light])


def anns_korean_phone_after_an_unsure_read(browser: Any, server: Any) -> tuple[Any, Any, list[str]]:
    """Ann's phone on the Korean page, once the camera was unsure of her roll: (context, page, console errors)."""
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.seat_token(0))
    expect(page.locator(".roll .why")).to_have_text("Ann rolls for first player.")
    in_korean(page)
    server.companion.loop.enqueue(answer_now(server.companion.loop, unsure_read(5)))  # a real re-roll at the table
    return context, page, errors


def test_every_camera_and_status_light_word_is_korean_on_the_korean_page(browser, companion_server):
    context, page, errors = anns_korean_phone_after_an_unsure_read(browser, companion_server)
    expect(page.locator(".led.status")).to_have_class("led status status-reroll")
    expect(page.locator(".led.status")).to_have_text("상태: 다시 굴리세요")

    for camera, light in zip_longest(CAMERA_STATES, LIGHT_STATES, fillvalue="ready"):  # every word of either
        show_statuses(page, camera, light)
        for shown, status in ((page.locator(".camera"), camera), (page.locator(".led.status"), light)):
            word = shown.text_content().split(":", 1)[1].strip()
            assert status not in word and any("\uac00" <= letter <= "\ud7a3" for letter in word), (status, word)
    assert errors == []
    context.close()


@pytest.mark.parametrize(("lang", "word"), [("en", "corrected"), ("ko", "정정")])
def test_a_corrected_die_says_so_in_words_on_the_gateway_rescue_page(browser, companion_server, lang, word):
    server = companion_server
    new_game(server, "gateway-rescue", ["Ann"])
    token = server.seat_token(0)
    server.act(token, 0, "move")
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=token)[0] == 200
    assert server.api("POST", "/api/dice/correct", {"values": [5], "sides": [6]}, token=token)[0] == 200
    assert server.api("GET", "/api/state", token=token)[1]["view"]["last_roll"]["d6_origin"] == "corrected"
    context, page, errors = open_page(browser, server, token)
    if lang == "ko":
        in_korean(page)
    last = page.locator(".gr-last")
    expect(last).to_contain_text(word)
    expect(last).not_to_contain_text("origin_")
    assert errors == []
    context.close()


# --- 2. the box's sentences -------------------------------------------------------------------
def test_every_answer_to_a_button_press_has_its_korean(browser, companion_server):
    """A press that does nothing is answered on the phones: on the Korean page, in Korean."""
    from companion.table import next_guard
    from companion.table import presses
    from companion.table import session
    from companion.rules import engine

    sentences = [session.NO_GAME_YET, engine.GAME_OVER, presses.NEXT_DOES_NOTHING, engine.NO_ROLL_EXPECTED,
                 presses.NO_CAMERA, engine.NOTHING_TO_UNDO, next_guard.just_passed("김민수")]
    new_game(companion_server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, companion_server, companion_server.seat_token(0))
    in_korean(page)
    said = page.evaluate("(sentences) => sentences.map((sentence) => window.Companion.inLang(sentence))", sentences)
    assert all(any("\uac00" <= letter <= "\ud7a3" for letter in text) for text in said), list(zip(sentences, said))
    assert "김민수의 차례를 끝내려면" in said[-1]
    assert errors == []
    context.close()


def test_the_boxs_camera_sentences_are_korean_on_the_korean_page(browser, companion_server):
    context, page, errors = anns_korean_phone_after_an_unsure_read(browser, companion_server)
    expect(page.locator(".camera")).to_contain_text("주사위를 확실히 읽지 못했습니다 — 다시 굴려 주세요.")
    said = page.evaluate("""() => [
        "I see 3 dice, expecting 2 — is an extra die on the tray? (1 die without pips, which I leave to you)",
        "A die changed after the read: the table keeps 5, but the tray now shows 2. If the new faces should count, correct the roll.",
        "A sentence the page does not know.",
      ].map((sentence) => window.Companion.inLang(sentence))""")
    assert said == ["주사위 3개가 보입니다 (필요: 2개) — 트레이에 주사위가 더 있나요? (눈이 없는 주사위 1개는 직접 입력하세요)",
                    "읽은 뒤 주사위가 바뀌었습니다: 테이블은 5을(를) 그대로 두고, 트레이에는 지금 2이(가) 보입니다. "
                    "새 눈이 맞다면 굴림을 정정하세요.",
                    "A sentence the page does not know."]
    page.locator("[data-lang=en]").click()
    expect(page.locator(".camera")).to_contain_text("Could not read the dice surely — please roll again.")
    assert errors == []
    context.close()


def test_every_fixed_camera_sentence_the_box_writes_has_its_korean(browser, companion_server):
    """The page's Korean table copies the box's English sentences: this ties the copy to the source."""
    from companion.camera import answers as camera_answers
    from companion.camera import roll_sentences as words
    from companion.camera import roller

    sentences = [words.OFFLINE_MESSAGE, words.REROLL_MESSAGE, words.COCKED_MESSAGE, words.NO_DICE_MESSAGE,
                 words.UNSETTLED_MESSAGE, words.UNMOVED_MESSAGE, words.CAMERA_MOVED_MESSAGE,
                 camera_answers.OFFLINE, words.count_message(1, 2),
                 words.read_message((3, 5)), camera_answers.too_late(roller.RollResult("read", values=(4,))),
                 camera_answers.half_read_already((6,), (8, 6))]
    new_game(companion_server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, companion_server, companion_server.seat_token(0))
    in_korean(page)
    said = page.evaluate("(sentences) => sentences.map((sentence) => window.Companion.inLang(sentence))", sentences)
    assert all(any("\uac00" <= letter <= "\ud7a3" for letter in text) for text in said), list(zip(sentences, said))
    assert errors == []
    context.close()


# --- 3. the result and the rulings in Korean --------------------------------------------------
def test_the_result_and_a_roll_check_are_in_korean_on_the_korean_page(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "less", speed=5)
    assert server.api("POST", "/api/dice", {"values": [3], "sides": [6]}, token=ann)[0] == 200
    context, page, errors = open_page(browser, server, ann)
    in_korean(page)
    expect(page.locator(".ttg-verdict")).to_contain_text("굴린 값 3 (속도 5): 3 < 5? 예.")
    new_game(server, "gateway-rescue", ["Ann", "Bo"], {"creatures": 1}, ending=True)
    ann, bo = server.seat_token(0), server.seat_token(1)
    assert server.api("POST", "/api/dice", {"values": [1], "sides": [6]}, token=ann)[0] == 200
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=bo)[0] == 200
    server.act(ann, 0, "rescue")
    assert server.api("POST", "/api/dice", {"values": [3, 1], "sides": [6, 8]}, token=ann)[0] == 200
    page.goto(f"{server.url}/join?token={ann}")
    expect(page.locator(".outcome")).to_contain_text("Ann 승리: 구출 1번.")
    expect(page.locator(".outcome")).not_to_contain_text("wins with")
    page.goto(f"{server.url}/join?token={server.host_token}")
    expect(page.locator(".host-history")).to_contain_text("Ann 승리: 구출 1번.")
    assert errors == []
    context.close()


# --- 4. 8 Gates' move forms -------------------------------------------------------------------
def test_the_eight_gates_move_forms_are_labelled_in_korean(browser, companion_server):
    server = companion_server
    new_game(server, "eight-gates", ["Ann", "Bob", "Cy"])
    context, page, errors = open_page(browser, server, server.host_token)
    page.goto(f"{server.url}/")  # the host's table view: every seat's move forms
    in_korean(page)
    forms = page.locator("section.controls")
    expect(forms).to_contain_text("받은 카드 값 (자리 순서대로)")
    expect(forms).to_contain_text("플레이어")
    text = forms.inner_text()
    assert "Player" not in text and "the dealt values" not in text, text
    assert errors == []
    context.close()
