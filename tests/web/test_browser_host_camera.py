"""The host page's camera tools in a real browser: see what the camera sees, calibrate with one tap, and the
answer (or the refusal) said in the page's language; what the box says about itself shown until answered."""
from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from camera_table import state_when
from companion.config import Camera
from phone_browser import in_korean, open_page
from pi_like import PI_CAMERA, SwappedModule
from tray_scene import TableTray

CAMERA = Camera(source="synthetic", still_seconds=0.05, frames_to_vote=2)
HANGUL = re.compile("[\uac00-\ud7a3]")


def ready(server: Any) -> Any:
    state_when(server, lambda snap: snap["camera"]["status"] == "ready")
    return server


def loaded(page: Any, selector: str) -> bool:
    """Whether the picture at `selector` came and was decoded; raises playwright's Error."""
    page.wait_for_function(f"() => document.querySelector('{selector}') && document.querySelector('{selector}').complete")
    return bool(page.evaluate(f"() => document.querySelector('{selector}').naturalWidth > 0"))


def test_the_host_calibrates_with_one_tap_and_sees_the_tray_found(browser: Any, start_server: Any) -> None:
    table = TableTray()
    table.show([3], seed=2)
    server = ready(start_server(frames=table, camera=CAMERA))
    context, page, errors = open_page(browser, server, server.host_token)
    page.locator(".camera-look").click()
    assert loaded(page, ".camera-view")
    page.locator(".camera-calibrate").click()
    expect(page.locator(".calibrated")).to_contain_text("Calibrated: the tray at")
    assert loaded(page, ".camera-view")
    in_korean(page)
    expect(page.locator(".calibrated")).to_contain_text("보정했습니다")
    expect(page.locator(".camera-calibrate")).to_have_text("카메라 보정")
    assert errors == []
    context.close()


def test_a_refused_calibration_is_said_in_korean_on_the_korean_page(browser: Any, start_server: Any) -> None:
    table = TableTray()
    table.show([3], seed=2)
    table.lay_on_table(5, seed=3)  # the tray found would leave this die out
    server = ready(start_server(frames=table, camera=CAMERA))
    context, page, errors = open_page(browser, server, server.host_token)
    in_korean(page)
    page.locator(".camera-calibrate").click()
    refusal = page.locator(".host-camera .refusal")
    expect(refusal).to_contain_text("다시 보정하세요")
    assert HANGUL.search(refusal.inner_text())
    expect(page.locator(".camera-calibrate")).to_be_enabled()
    assert errors == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"]
    context.close()


def test_without_a_camera_the_host_page_offers_no_camera_tools(browser: Any, start_server: Any) -> None:
    server = start_server(camera=Camera(source="none"))
    context, page, errors = open_page(browser, server, server.host_token)
    expect(page.locator(".host-seats")).to_be_visible()
    expect(page.locator(".host-camera")).to_have_count(0)
    assert errors == []
    context.close()


def test_the_host_page_says_the_camera_refused_its_light_until_a_calibration_answers_it(
        browser: Any, start_server: Any) -> None:
    camera = SwappedModule()
    camera.show([3], seed=2)
    server = start_server(frames=camera, camera=PI_CAMERA)
    state_when(server, lambda snap: snap["camera"]["status"] == "ready" and snap["notices"])
    context, page, errors = open_page(browser, server, server.host_token)
    notices = page.locator(".box-notices")
    expect(notices).to_contain_text("outside this camera's range, 1.2 to 16.0")
    in_korean(page)
    expect(notices).to_contain_text("자동 노출로 읽고 있습니다")
    page.locator(".camera-calibrate").click()
    expect(page.locator(".calibrated")).to_contain_text("보정했습니다")
    expect(notices).to_have_count(0)
    assert errors == []
    context.close()
