"""Reading the header of a journal's WAL index (the `-shm` file) as SQLite wrote it (stdlib only).

SQLite keeps, in the `-shm` file beside the WAL, how many WAL frames hold committed changes
(`mxFrame`) and how many of them a checkpoint has already copied into the journal (`nBackfill`).
It updates that header only after the WAL frames it counts were synced, so a header that checks
out says how much of the WAL must still be there. The layout is SQLite's walformat.html: two equal
48-byte copies of the header in the machine's byte order, with a checksum, then the checkpoint info.
A process killed keeps it; a power cut may leave an older one (never one ahead of the WAL).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from companion.journal.wal_scan import WAL_VERSION, checksum

HEADER = 48
READ = 2 * HEADER + 40  # both copies of the header and the checkpoint info


@dataclass(frozen=True)
class WalIndex:
    """What the WAL index says: the frames committed, the frames already in the journal, the WAL's salts."""

    frames: int
    backfilled: int
    salts: bytes


def read_wal_index(path: Path) -> WalIndex | None:
    """The header of the `-shm` file at `path`, or None when there is none or it does not check out; raises nothing."""
    try:
        with path.open("rb") as file:
            raw = file.read(READ)
    except OSError:
        return None
    if len(raw) < READ or raw[:HEADER] != raw[HEADER:2 * HEADER]:
        return None  # absent, or caught in the middle of a write: it says nothing for sure
    version, _, _, is_init, big_endian, _, frames = struct.unpack("=IIIBBHI", raw[:20])
    if version != WAL_VERSION or not is_init:
        return None
    words = struct.unpack("=10I", raw[:40])
    if checksum(words, (0, 0)) != struct.unpack("=2I", raw[40:48]):
        return None
    backfilled = struct.unpack("=I", raw[2 * HEADER:2 * HEADER + 4])[0]
    return WalIndex(frames, backfilled, raw[32:40])

