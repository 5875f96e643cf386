"""Shared test fixtures: where the shared dice photos live."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dice() -> Path:
    """The folder of labelled dice photos beside the repo; fails (never skips) when it is missing."""
    folder = SHARED / "dice"
    assert folder.is_dir(), f"expected the shared dice photos at {folder}"
    return folder
