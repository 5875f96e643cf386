"""Pure image → dice functions and the camera sources behind one FrameSource protocol.

`vision.read_dice(frame)` is the reader (vision/reader.py), imported on first use so that the camera
sources and types load without it.
"""
from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """Returns `read_dice` on first use; raises AttributeError for any other unknown name."""
    if name == "read_dice":
        from vision.reader import read_dice

        return read_dice
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
