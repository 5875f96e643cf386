"""Photo files that are no photos, for the tests of bad input."""
from __future__ import annotations

import struct
import zlib


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG file whose header claims width x height pixels (its pixels are not there)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")
