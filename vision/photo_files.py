"""Photo files read with care: a missing, unreadable, huge or broken file gives a sentence, never a crash."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

MAX_PHOTO_BYTES = 200_000_000  # a camera photo is a few MB; a larger file would only fill the memory of a Pi


def load_photo(path: str) -> tuple[np.ndarray | None, str]:
    """Returns (frame, "") or (None, a sentence saying why the file could not be read); raises nothing."""
    file = Path(path)
    try:
        if not file.exists():
            return None, f"There is no file at {path}."
        if not file.is_file():
            return None, f"{path} is not a file."
        if file.stat().st_size > MAX_PHOTO_BYTES:
            return None, f"The file {path} is too large to be a photo (over {MAX_PHOTO_BYTES // 1_000_000} MB)."
        data = np.fromfile(file, dtype=np.uint8)
    except OSError as problem:  # also a name too long, or a folder we may not look into
        return None, f"The file {path} could not be opened ({problem.strerror or problem})."
    except MemoryError:
        return None, f"The file {path} is too large to read into memory."
    try:
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except (cv2.error, MemoryError):  # e.g. a header claiming 50000 x 50000 pixels
        return None, f"The file {path} is too large an image to read."
    if frame is None:
        return None, f"The file {path} is not an image OpenCV can read."
    return frame, ""
