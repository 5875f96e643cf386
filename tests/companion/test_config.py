"""The config: the example file loads; every bad value names its key and what is accepted."""
from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

import pytest

from companion import config
from companion.config import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "companion.example.toml"


def test_the_commented_example_loads() -> None:
    loaded = config.load(EXAMPLE)
    assert loaded.pins.factory == "lgpio" and loaded.camera.source == "pi" and loaded.port == 8080


def test_empty_config_gives_the_defaults() -> None:
    assert config.from_dict({}) == config.Config()


def test_addresses_and_host_names_are_accepted_for_the_web() -> None:
    for host in ("0.0.0.0", "::", "127.0.0.1", "table.local", "companion"):
        assert config.from_dict({"web": {"host": host, "advertise": host}}).host == host


def test_a_port_in_use_stops_start_up_with_a_sentence_naming_it(tmp_path: Path, free_port: int) -> None:
    from companion.daemon import build

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", free_port))
        taken.listen()
        box = config.Config(host="127.0.0.1", port=free_port, state=tmp_path, pins=config.Pins(factory="mock"),
                            camera=config.Camera(source="none"))
        with pytest.raises(config.ConfigError, match=f"web.port = {free_port}: another program already uses"):
            build(box)
    assert (tmp_path / "journal.sqlite").exists()  # the journal was opened, then closed cleanly


def test_the_camera_is_the_pi_camera_unless_in_demo_mode() -> None:
    assert config.from_dict({}).camera.source == "pi"  # a real box never reads made-up dice by default
    assert config.from_dict({"demo": True}).camera.source == "synthetic"
    assert config.from_dict({"demo": True, "camera": {"source": "usb:0"}}).camera.source == "usb:0"


def test_demo_on_the_command_line_means_synthetic_dice_and_a_real_box_warns_about_them(tmp_path: Path) -> None:
    from companion.cli import parser, settings
    from companion.daemon import build

    assert settings(parser().parse_args(["run", "--demo"])).camera.source == "synthetic"
    assert settings(parser().parse_args(["run"])).camera.source == "pi"
    real_box = config.Config(host="127.0.0.1", port=0, state=tmp_path, pins=config.Pins(factory="mock"),
                             camera=config.Camera(source="synthetic"))
    companion = build(real_box)
    try:
        assert any(warning.startswith('camera.source is "synthetic"') for warning in companion.warnings)
        assert any(warning.startswith('gpio.factory is "mock": the buttons and LEDs are make-believe')
                   for warning in companion.warnings)  # a laptop's setting left in a real box's config
    finally:
        companion.stop()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"camera": {"sorce": "pi"}}, "Unknown key camera.sorce"),
        ({"colour": 1}, "Unknown key colour"),
        ({"web": {"port": 70000}}, "web.port = 70000 must be a whole number from 1 to 65535"),
        ({"web": {"port": "80"}}, "web.port = '80'"),
        ({"gpio": {"factory": "pigpio"}}, "gpio.factory = 'pigpio' is not accepted; use one of: lgpio, rpigpio, mock"),
        ({"gpio": {"roll": 17, "next": 17}}, "pin 17 is used twice"),
        ({"gpio": {"seat_leds": [5, 6, 99]}}, "gpio.seat_leds[2] = 99"),
        ({"gpio": {"status_rgb": [1, 2]}}, "gpio.status_rgb = [1, 2] must be a list of 3 to 3 pin numbers"),
        ({"camera": {"source": "webcam"}}, "camera.source = 'webcam' is not a camera"),
        ({"camera": {"source": "usb:²"}}, "camera.source = 'usb:²' is not a camera"),
        ({"camera": {"tray": [1, 2, 3]}}, "camera.tray = [1, 2, 3] must be [x, y, width, height]"),
        ({"camera": {"tray_view": ""}}, "camera.tray_view = '' must be some text"),
        ({"camera": {"still_seconds": -1}}, "camera.still_seconds = -1"),
        ({"camera": {"still_seconds": 10}}, "camera.still_seconds = 10 must be a number of seconds from 0.1 to 5"),
        ({"game": {"players": []}}, "game.players = [] must be a list of 1 to 8 player names"),
        ({"game": "x"}, "game must be a table"),
        ({"demo": "yes"}, "demo = 'yes' must be true or false"),
        ({"camera": {"exposure_us": 12000}}, "camera.exposure_us locks the exposure only with camera.analogue_gain too"),
        ({"camera": {"colour_gains": [1.5, 1.5]}}, "camera.colour_gains locks the exposure only with camera.exposure_us, "
                                                   "camera.analogue_gain too"),
        ({"camera": {"exposure_us": 5_000_000, "analogue_gain": 2, "colour_gains": [1, 1]}},
         "camera.exposure_us = 5000000 must be a whole number from 1 to 1000000"),
        ({"web": {"host": "192.168.1.300"}}, "web.host = '192.168.1.300' must be an IP address or a host name alone"),
        ({"web": {"advertise": "http://192.168.1.20"}}, "web.advertise = 'http://192.168.1.20' must be an IP address"),
        ({"web": {"advertise": "192.168.1.20:8080"}}, "no http://, port or path"),
        ({"web": {"advertise": "pi.local/"}}, "web.advertise = 'pi.local/'"),
    ],
)
def test_bad_values_stop_with_a_sentence_naming_the_key(data: dict, words: str) -> None:
    with pytest.raises(ConfigError) as refused:
        config.from_dict(data)
    assert words in refused.value.message


def test_a_broken_file_says_what_is_wrong(tmp_path: Path) -> None:
    broken = tmp_path / "companion.toml"
    broken.write_text("[web\nport = 1\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        config.load(broken)
    with pytest.raises(ConfigError, match="Cannot read the config file"):
        config.load(tmp_path / "missing.toml")


def test_check_config_command_reports_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text('[camera]\nsource = "webcam"\n')
    assert main(["check-config", str(bad)]) == 2
    assert "camera.source = 'webcam'" in capsys.readouterr().err
    assert main(["check-config", str(EXAMPLE)]) == 0


@pytest.mark.parametrize("game, sentence", [
    ('id = "chess"\nplayers = ["Ann", "Bob"]', "game.id = 'chess' is not a game here"),
    ('id = "the-gate"\nplayers = ["Ann", "Ann"]', "different name"),
    ('id = "through-the-gate"\nplayers = ["Ann", "Bob"]\n[game.options]\nvariant = "solo-ish"', "variant"),
])
def test_check_config_refuses_a_first_game_that_run_would_refuse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, sentence: str) -> None:
    from companion.cli import main

    path = tmp_path / "companion.toml"
    path.write_text(f"[game]\n{game}\n")
    assert main(["check-config", str(path)]) == 2
    said = capsys.readouterr()
    assert sentence in said.err and "fine" not in said.out


def test_a_wrong_first_game_on_a_table_already_playing_is_told_and_the_table_runs_on(tmp_path: Path) -> None:
    from companion.daemon import build, check_first_game

    good = config.Config(host="127.0.0.1", port=0, state=tmp_path, demo=True,
                         game=config.GameConfig("through-the-gate", ("Ann", "Bob"), {}))
    build(good).stop()  # the first start opens the game
    wrong = replace(good, game=config.GameConfig("through-the-gate", ("Ann", "Bob"), {"hourglasses": 0}))
    with pytest.raises(ConfigError, match="hourglasses"):
        check_first_game(wrong)
    companion = build(wrong)  # the table it keeps is fine: it runs, and says what is wrong with the file
    try:
        assert companion.loop.snapshot(None)["players"] == ["Ann", "Bob"]
        told = [warning for warning in companion.warnings if "hourglasses" in warning]
        assert told and told[0].startswith("game: Hourglasses per player (hourglasses): must be from 1 to 999, not 0.")
        assert "used only to start the first game on an empty state folder" in told[0]
    finally:
        companion.stop()


def test_a_config_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes("\ufeff[web]\nport = 8123\n".encode("utf-8"))  # as Windows Notepad may save it
    assert config.load(path).port == 8123


def test_white_balance_gains_beyond_the_cameras_32_are_refused() -> None:
    with pytest.raises(ConfigError, match="at most 32"):
        config.from_dict({"camera": {"exposure_us": 10000, "analogue_gain": 2.0, "colour_gains": [40.0, 1.5]}})


def test_a_camera_without_colour_locks_its_exposure_without_white_balance() -> None:
    camera = config.from_dict({"camera": {"exposure_us": 12000, "analogue_gain": 2.0}}).camera
    assert camera.locked_exposure == {"ExposureTime": 12000, "AnalogueGain": 2.0}


def test_a_trays_view_named_by_a_relative_path_is_found_beside_the_config(tmp_path: Path) -> None:
    path = tmp_path / "etc" / "companion.toml"
    path.parent.mkdir()
    path.write_text('[camera]\ntray = [1, 2, 300, 200]\ntray_view = "companion-tray-view-1.png"\n')
    assert config.load(path).camera.tray_view == path.parent / "companion-tray-view-1.png"  # not the working folder's
    path.write_text(f'[camera]\ntray_view = "{tmp_path / "view.png"}"\n')
    assert config.load(path).camera.tray_view == tmp_path / "view.png"


def test_check_config_tells_of_a_trays_view_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    path = tmp_path / "companion.toml"
    path.write_text('[camera]\ntray = [1, 2, 300, 200]\ntray_view = "companion-tray-view-gone.png"\n')
    assert main(["check-config", str(path)]) == 0  # the table runs without it
    told = capsys.readouterr().out
    assert "fine, but camera.tray_view: cannot read the tray's view" in told and "not follow a knocked camera" in told


def test_a_trays_view_that_cannot_be_read_is_told_and_the_table_runs_on(tmp_path: Path) -> None:
    from companion.daemon import build

    box = config.Config(host="127.0.0.1", port=0, state=tmp_path, pins=config.Pins(factory="mock"), demo=True,
                        camera=config.Camera(source="synthetic", tray=(0, 0, 640, 480), tray_view=tmp_path / "gone.png"))
    companion = build(box)
    try:
        told = [warning for warning in companion.warnings if warning.startswith("camera.tray_view: cannot read")]
        assert len(told) == 1 and "calibrate it again on the host page" in told[0] and companion.camera is not None
    finally:
        companion.stop()
