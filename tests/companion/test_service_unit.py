"""systemd/companion.service: `systemd-analyze verify` passes, and it runs the daemon as the code expects.

The committed unit is for a Pi install under /opt/companion; verify wants ExecStart's binary to exist,
so the check runs on a copy whose ExecStart points at this venv's `companion` (nothing else changed).
systemd-analyze comes from Debian's `systemd` package.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import parser
from companion.table.notify import PING_SECONDS

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "companion.service"
PI_BINARY = "/opt/companion/.venv/bin/companion"


def settings(text: str) -> dict[str, list[str]]:
    """Every `Section.Key` of a unit file with its values in order (keys may repeat); raises nothing."""
    found: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return found


def one(unit: dict[str, list[str]], key: str) -> str:
    """The single value of a key; raises AssertionError when it is missing or repeated."""
    values = unit.get(key, [])
    assert len(values) == 1, f"{key}: {values}"
    return values[0]


def seconds(span: str) -> float:
    """A plain systemd time span such as `15`, `15s`, `2min` or `500ms` in seconds; raises ValueError."""
    units = {"": 1.0, "s": 1.0, "sec": 1.0, "ms": 0.001, "min": 60.0, "m": 60.0}
    found = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]*)", span)
    if found is None or found.group(2) not in units:
        raise ValueError(f"not a time span this test reads: {span!r}")
    return float(found.group(1)) * units[found.group(2)]


def verify(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` on a copy of the unit whose ExecStart is this machine's venv."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: install Debian's systemd package"
    here = Path(sys.executable).parent / "companion"
    assert here.is_file(), f"{here} is missing: install the project into the venv (pip install -e .)"
    copy = tmp_path / "companion.service"
    copy.write_text(text.replace(PI_BINARY, str(here)))
    return subprocess.run([analyze, "verify", "--man=no", str(copy)], capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def unit() -> dict[str, list[str]]:
    """The committed unit's settings."""
    return settings(UNIT.read_text())


def test_systemd_analyze_verify_passes_without_a_word(tmp_path: Path) -> None:
    result = verify(tmp_path, UNIT.read_text())
    assert result.returncode == 0 and not result.stderr.strip() and not result.stdout.strip(), result


def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("Type=notify", "Type=notify\nWatchdogSecs=15")
    assert "WatchdogSecs" in verify(tmp_path, broken).stderr


def test_it_is_a_notify_service_with_a_watchdog_the_loop_can_feed(unit: dict[str, list[str]]) -> None:
    assert one(unit, "Service.Type") == "notify"
    assert one(unit, "Service.NotifyAccess") == "main"  # the console script execs python: it is the main pid
    assert seconds(one(unit, "Service.WatchdogSec")) >= 4 * PING_SECONDS
    assert one(unit, "Service.Restart") == "on-failure"
    assert seconds(one(unit, "Service.TimeoutStopSec")) >= 10  # a clean stop takes a few seconds at most


def test_exec_start_is_a_command_line_the_daemon_accepts(unit: dict[str, list[str]]) -> None:
    words = shlex.split(one(unit, "Service.ExecStart"))
    assert words[0] == PI_BINARY
    args = parser().parse_args(words[1:])
    assert args.command == "run" and not args.demo
    assert str(args.config) == "/etc/companion/companion.toml"
    assert str(args.state) == "/var/lib/" + one(unit, "Service.StateDirectory")


def test_it_runs_as_its_own_user_with_the_pi_hardware(unit: dict[str, list[str]]) -> None:
    assert one(unit, "Service.User") == "companion" and one(unit, "Service.Group") == "companion"
    assert set(one(unit, "Service.SupplementaryGroups").split()) >= {"gpio", "video"}
    assert "GPIOZERO_PIN_FACTORY=lgpio" in unit["Service.Environment"]
    assert one(unit, "Service.ProtectSystem") == "strict" and one(unit, "Service.NoNewPrivileges") == "yes"
    assert one(unit, "Install.WantedBy") == "multi-user.target"
