"""Fixtures of the storage tests: a state folder's bytes, and `companion run` as a subprocess."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def folder_bytes() -> Callable[[Path], dict[str, bytes]]:
    """files_in: each file of a folder, by name, with its bytes; it raises OSError."""
    return files_in


def files_in(folder: Path) -> dict[str, bytes]:
    """Each file of the folder, by name, with its bytes; raises OSError when the folder cannot be read."""
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


@pytest.fixture(scope="session")
def run_companion() -> Callable[..., subprocess.CompletedProcess[str]]:
    """companion_run: runs a `companion run` command to its end; it raises subprocess.TimeoutExpired."""
    return companion_run


def companion_run(command: list[str], timeout: float = 30.0, **options: Any) -> subprocess.CompletedProcess[str]:
    """Runs `companion run` from the repo; a damaged journal or a read-only folder must stop it well within
    timeout; raises subprocess.TimeoutExpired when it does not."""
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout, **options)


@pytest.fixture
def refused_start(benchmark: Callable[[str], Any], free_port: int) -> Callable[[Path], tuple[str, dict[str, bytes]]]:
    """start_refused on a free port: the one sentence a start on a damaged state folder ends with, and the folder's
    files after it; it raises AssertionError when the start does not stop with exit code 2."""
    return lambda state: start_refused(state, benchmark("daemon").run_command(state, free_port))


def start_refused(state: Path, command: list[str]) -> tuple[str, dict[str, bytes]]:
    """Runs `companion run` on the state folder; returns its last line on stderr and the folder's files after;
    raises AssertionError unless it exits with 2 and names the journal."""
    finished = companion_run(command)
    assert finished.returncode == 2, finished.stdout + finished.stderr
    sentence = finished.stderr.strip().splitlines()[-1]
    assert str(state / "journal.sqlite") in sentence and "It was left as it is" in sentence, sentence
    return sentence, files_in(state)
