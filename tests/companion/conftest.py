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
