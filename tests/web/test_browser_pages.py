"""The host and phone pages in a real headless Chromium against the real companion on 127.0.0.1:
the host's typing outlives a redraw, option labels say what the option does, every status word is
in Korean on the Korean page, a phone whose seat left the table says so, long names stay in their
QR captions."""
from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from phone_browser import PHONE, in_korean, new_game, open_page

from companion.table.snapshot import CAMERA_STATES
from hardware.panel import STATUSES as LIGHT_STATES  # what the status LED shows
from camera_table import StillDice, press_roll, state_when
from unsure_reads import answer_now, unsure_read

DESKTOP = {"viewport": {"width": 1280, "height": 900}}



def anns_check(server: Any, kind: str, *, speed: int = 4) -> str:
    """Through The Gate for Ann alone (her turn at once): her speed, then a roll check of `kind`; her token."""
    new_game(server, "through-the-gate", ["Ann"])
    ann = server.seat_token(0)
    server.act(ann, 0, "declare_speed", speed=speed)
    server.act(ann, 0, "check", kind=kind)
    return ann


# --- 1. the host's typing survives a redraw ---------------------------------------------------
def typed_form(page: Any) -> dict[str, str]:
    return {"name-0": page.locator("#name-0").input_value(), "name-1": page.locator("#name-1").input_value(),
            "hourglasses": page.locator("#f-options-hourglasses").input_value(),
            "variant": page.locator("#f-options-variant").input_value()}


def test_what_the_host_typed_survives_every_redraw_and_starts_the_game(browser, companion_server):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator("#name-0")).to_have_value("Ann")
    page.locator("#name-0").fill("Cy")
    page.locator("#name-1").fill("Di")
    page.locator("#f-options-hourglasses").fill("3")
    page.locator("#f-options-variant").select_option(label="Against the Ice Queen")
    typed = typed_form(page)
    assert typed == {"name-0": "Cy", "name-1": "Di", "hourglasses": "3", "variant": "1"}

    page.get_by_role("button", name="New QR code").first.click()  # a new QR code for Ann: the page redraws
    expect(page.locator(".qr img").first).to_have_attribute("src", re.compile(r"/api/seats/0/qr\.svg\?v=\d+-1$"))
    assert typed_form(page) == typed
    in_korean(page)  # the language changes: the page redraws
    expect(page.get_by_role("button", name="게임 시작")).to_be_visible()
    assert typed_form(page) == typed
    page.get_by_role("button", name="+ 플레이어").click()  # a third player: the page redraws
    expect(page.locator("#name-2")).to_have_value("")
    assert typed_form(page) == typed

    page.locator("#name-2").fill("Ed")
    page.get_by_role("button", name="게임 시작").click()
    expect(page.locator(".qr figcaption b")).to_have_text(["Cy", "Di", "Ed"])
    assert typed_form(page) == typed  # the form still holds what was typed, for the next game
    snap = server.api("GET", "/api/state", token=server.host_token)[1]
    assert snap["players"] == ["Cy", "Di", "Ed"] and snap["view"]["mode"] == "ice_queen"
    assert [player["hourglasses"] for player in snap["view"]["players"]] == [3, 3, 3]
    assert errors == []
    context.close()


# --- 2. Gateway's option says what it does ------------------------------------------------------
def test_the_gateway_rescue_option_is_labelled_as_the_creatures_to_rescue(browser, companion_server):
    server = companion_server
    context, page, errors = open_page(browser, server, server.host_token)
    page.locator("#game-choice").select_option("gateway-rescue")
    label = page.locator("label[for=f-options-creatures] > span")
    expect(label).to_have_text("Creatures to rescue")
    expect(page.locator("#f-options-creatures")).to_have_value("6")
    in_korean(page)
    expect(label).to_have_text("구출할 생물 수")
    page.locator("#f-options-creatures").fill("2")
    page.locator("#name-0").fill("Ann")
    page.locator("#name-1").fill("Bob")
    page.get_by_role("button", name="게임 시작").click()
    expect(page.locator(".qr figcaption b")).to_have_text(["Ann", "Bob"])
    view = server.api("GET", "/api/state", token=server.host_token)[1]["view"]
    assert (view["creatures_total"], view["creatures_left"]) == (2, 2)  # what the option does: creatures to rescue
    assert errors == []
    context.close()


# --- 3. no raw status id on the Korean page -----------------------------------------------------
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

    assert len(CAMERA_STATES) == len(LIGHT_STATES)
    for camera, light in zip(CAMERA_STATES, LIGHT_STATES):
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


# --- 4. a seat the new table gives to someone else, or does not have ------------------------------
@pytest.mark.parametrize(("lang", "not_here", "gone"), [
    ("en", "Seat 3 is not at this table. Ask the host for your seat's QR code.",
     "This phone's link no longer works: its seat went to someone else or got a new QR code. "
     "Scan your seat's QR code on the host's phone."),
    ("ko", "3번 자리는 이 테이블에 없습니다. 호스트에게 자기 자리의 QR 코드를 요청하세요.",
     "이 휴대폰의 링크는 더 이상 쓸 수 없습니다: 자리가 다른 사람에게 갔거나 새 QR 코드가 나왔습니다. "
     "호스트 휴대폰에서 자기 자리의 QR 코드를 스캔하세요."),
])
def test_a_phone_whose_seat_is_not_at_the_new_table_says_so_and_offers_nothing(browser, companion_server, lang,
                                                                              not_here, gone):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob", "Cy"])
    context, page, errors = open_page(browser, server, server.seat_token(2))
    if lang == "ko":
        in_korean(page)
    expect(page.locator(".who")).to_contain_text("Cy")
    new_game(server, "gateway-rescue", ["Ann", "Bob"])  # the next game has two seats: Cy's phone has none
    expect(page.locator(".notice.warn")).to_have_text(not_here)
    expect(page.locator("#app button, #app input, #app select")).to_have_count(0)
    expect(page.locator("#app section")).to_have_count(1)
    expect(page.locator("#app")).not_to_contain_text("#2")

    new_game(server, "through-the-gate", ["Ann", "Bob", "Dee"])  # a third seat again: Dee's, not Cy's phone's
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the phone wakes and tries again
    expect(page.locator(".notice.warn")).to_have_text(gone)
    expect(page.locator("#app")).not_to_contain_text("Dee")
    assert errors == [] or all("403" in error for error in errors), errors
    context.close()


# --- 5. long names stay inside the QR captions ----------------------------------------------------
OUTSIDE = """figures => figures.flatMap((figure) => {
    const box = figure.getBoundingClientRect();
    const caption = figure.querySelector("figcaption");
    const name = caption.querySelector("b");
    const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
    const wrong = [];
    if (!inside(caption.getBoundingClientRect(), box)) wrong.push("caption wider than its QR code");
    if (!inside(name.getBoundingClientRect(), caption.getBoundingClientRect())) wrong.push("name outside its caption");
    if (name.scrollWidth > name.clientWidth + 0.5) wrong.push("name overflows");
    if (!inside(box, figure.closest("section").getBoundingClientRect())) wrong.push("QR code outside the seats box");
    return wrong.map((what) => `${name.textContent}: ${what}`);
})"""


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone-390", "desktop-1280"])
def test_long_names_stay_inside_their_qr_captions(browser, companion_server, device, tmp_path):
    server = companion_server
    names = ["W" * 24, "김수한무거북이와두루미삼천갑자동방삭치치카", "Ann"]
    new_game(server, "through-the-gate", names)
    context, page, errors = open_page(browser, server, server.host_token, device)
    expect(page.locator(".qr figcaption b")).to_have_text(names)
    page.screenshot(path=tmp_path / "host-long-names.png", full_page=True)
    assert page.locator(".qr").evaluate_all(OUTSIDE) == []
    width = device["viewport"]["width"]  # (a phone widens innerWidth to a page too wide: compare with the screen)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page does not scroll sideways
    assert errors == []
    context.close()


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


def test_the_host_page_asks_again_for_the_qr_code_of_a_seat_a_new_game_gives_to_someone_else(browser, companion_server):
    server = companion_server
    new_game(server, "through-the-gate", ["Ann", "Bob"])
    context, page, errors = open_page(browser, server, server.host_token, DESKTOP)
    seat_1 = page.locator(".qr img").nth(1)
    expect(seat_1).to_have_attribute("alt", "QR Bob")
    before = seat_1.get_attribute("src")
    page.locator("#name-1").fill("Cy")
    page.get_by_role("button", name="Start the game").click()  # Bob's link no longer works: Cy needs the new one
    expect(seat_1).to_have_attribute("alt", "QR Cy")
    assert seat_1.get_attribute("src") != before  # a new address, so no browser shows the old code from its cache
    assert errors == []
    context.close()


# --- 5. the result and the rulings in Korean -------------------------------------------------------
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


# --- 6. a roll the camera read half of, and a correction typed for a roll that is gone ----------------
def test_a_phone_enters_only_the_d8_beside_the_d6_the_camera_read(browser, start_server):
    camera = StillDice()
    server = start_server(frames=camera)
    new_game(server, "gateway-rescue", ["Ann"])
    ann = server.seat_token(0)
    server.act(ann, 0, "rescue")
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")  # it has looked at the empty tray
    camera.land(6)
    press_roll(server)
    state_when(server, lambda snap: snap["camera"]["status"] == "read_part")
    context, page, errors = open_page(browser, server, ann)
    expect(page.locator(".half-read")).to_contain_text("6 d6")
    expect(page.locator(".half-read img")).to_have_count(1)  # what the camera saw
    form = page.locator("form.hand-roll")
    expect(form.locator("input")).to_have_count(1)  # only the d8: the camera's d6 joins it
    expect(form).to_contain_text("d8")
    form.locator("input").fill("5")
    form.locator("button[type=submit]").click()
    expect(page.locator(".gr-last")).to_contain_text("D8 5 (phone), D6 6 (camera)")
    last = server.api("GET", "/api/state", token=ann)[1]["view"]["last_roll"]
    assert (last["d8"], last["d8_origin"], last["d6"], last["d6_origin"]) == (5, "phone", 6, "camera")
    assert errors == []
    context.close()


def test_a_correction_typed_for_a_roll_is_dropped_when_the_next_roll_comes(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "three_less")
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=ann)[0] == 200
    context, page, errors = open_page(browser, server, ann)
    page.locator("details.correct summary").click()
    page.locator("details.correct input").fill("5")  # Ann starts to put her first die right ...
    assert server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)[0] == 200
    expect(page.locator(".ttg-dice")).to_contain_text("Die 2")  # ... and the second die comes in meanwhile
    expect(page.locator("details.correct")).not_to_have_attribute("open", "")
    expect(page.locator("details.correct input")).to_have_value("")  # her 5 would have replaced the 6
    assert errors == []
    context.close()


def test_a_roll_typed_while_the_camera_read_it_is_refused_not_counted_twice(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "three_less")
    assert server.api("POST", "/api/dice", {"values": [2], "sides": [6]}, token=ann)[0] == 200
    context, page, errors = open_page(browser, server, ann)
    expect(page.locator(".ttg-dice")).to_contain_text("Die 1")
    held: list[Any] = []
    page.route("**/api/dice", lambda route: held.append(route))  # Ann's typed 6 is on its way ...
    page.locator("form.hand-roll input").fill("6")
    page.locator("form.hand-roll button[type=submit]").click()
    page.wait_for_timeout(300)
    assert len(held) == 1
    assert server.api("POST", "/api/dice", {"values": [6], "sides": [6]}, token=server.host_token)[0] == 200
    held[0].continue_()  # ... when the camera's read of the same die comes in first
    expect(page.locator(".refusal")).to_contain_text("Another roll has come in since your phone showed the table")
    dice = server.api("GET", "/api/state", token=ann)[1]["view"]["check"]["dice"]
    assert [die["raw"] for die in dice] == [2, 6], dice
    assert [error for error in errors if "status of 409" not in error] == []
    context.close()


def test_a_roll_held_up_by_the_wifi_while_a_new_game_starts_is_refused_there(browser, companion_server):
    server = companion_server
    ann = anns_check(server, "item")
    context, page, errors = open_page(browser, server, ann)
    held: list[Any] = []
    page.route("**/api/dice", lambda route: held.append(route))  # the café's Wi-Fi sits on Ann's roll ...
    page.locator("form.hand-roll input").fill("6")
    page.locator("form.hand-roll button[type=submit]").click()
    page.wait_for_timeout(300)
    assert len(held) == 1
    new_game(server, "gateway-rescue", ["Ann", "Bo"], ending=True)  # ... while the host starts the next game
    held[0].continue_()
    expect(page.locator(".refusal")).to_contain_text("A new game has started since your phone showed the table")
    log = server.api("GET", "/api/state", token=server.host_token)[1]["view"]["log"]
    assert not any("rolled 6" in line for line in log), log  # it did not become Ann's roll for first player
    assert [error for error in errors if "status of 409" not in error] == []  # the browser notes the refusal
    context.close()


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


def test_the_move_that_ended_the_game_is_taken_back_from_the_result_screen(browser, companion_server):
    server = companion_server
    new_game(server, "gateway-city", ["Ann", "Bo"])
    ann = server.seat_token(0)
    for _ in range(4):  # Ann taps +5 VP once too often: 20 VP ends the game
        server.act(ann, 0, "adjust_vp", player=0, amount=5)
    context, page, errors = open_page(browser, server, ann)
    expect(page.locator(".outcome")).to_be_visible()
    page.locator(".controls button.undo").click()
    expect(page.locator(".outcome")).to_have_count(0)  # the game goes on, at 15 VP
    table = server.api("GET", "/api/state", token=ann)[1]
    assert table["outcome"] is None and table["legal_moves"], table
    assert errors == []
    context.close()
