"""Reading a journal's write-ahead (WAL) file as SQLite's recovery would (stdlib only).

SQLite recovers a WAL file by reading frames until the first one whose checksum fails and silently
drops everything after it. That is right for a torn last write (a power cut in the middle of a
commit) but would silently lose saved moves if the damage were in the middle of the file, so
`scan_wal` looks past that point: frames of the same WAL generation that still check out against
their predecessor and belong to a later transaction mean committed changes would be lost.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

WAL_MAGICS = (0x377F0682, 0x377F0683)
WAL_VERSION = 3007000
WAL_HEADER = 32
FRAME_HEADER = 24
MASK = 0xFFFFFFFF


@dataclass(frozen=True)
class WalScan:
    """What SQLite's recovery would make of a WAL file, and what it would drop."""

    frames: int
    kept: int
    lost_commits: int
    salts: bytes = b""


def scan_wal(raw: bytes) -> WalScan | None:
    """How many frames SQLite keeps and how many saved commits lie past a bad frame; None for a bad header."""
    magic, version, page_size, _, salt1, salt2, sum1, sum2 = struct.unpack(">8I", raw[:WAL_HEADER])
    if magic not in WAL_MAGICS or version != WAL_VERSION or page_size < 512 or page_size & (page_size - 1):
        return None
    big_endian = bool(magic & 1)
    if _checksum(raw[:24], (0, 0), big_endian) != (sum1, sum2):
        return None
    frame = FRAME_HEADER + page_size
    count = (len(raw) - WAL_HEADER) // frame
    frames = [raw[WAL_HEADER + index * frame:WAL_HEADER + (index + 1) * frame] for index in range(count)]
    kept, transaction_start, running = 0, 0, (sum1, sum2)
    for index, data in enumerate(frames):
        page, commit, *salts, check1, check2 = struct.unpack(">6I", data[:FRAME_HEADER])
        running = _checksum(data[:8] + data[FRAME_HEADER:], running, big_endian)
        if page == 0 or tuple(salts) != (salt1, salt2) or running != (check1, check2):
            break
        kept = index + 1
        transaction_start = kept if commit else transaction_start
    lost = _lost_commits(frames, kept, transaction_start, (salt1, salt2), big_endian)
    return WalScan(count, kept, lost, raw[16:24])


def _lost_commits(frames: list[bytes], bad: int, transaction_start: int, salts: tuple[int, int], big_endian: bool) -> int:
    """Commits of a later transaction past the first bad frame that still check out; 0 for a torn tail.

    Only the last transaction can be torn by a power cut (each commit is synced before the next
    starts), and one transaction writes each page once: so two commit frames, or one after a page
    number seen twice since the broken transaction began, mean a saved transaction would be dropped.
    """
    commits, pages, later = 0, set(), False
    for index in range(transaction_start, len(frames)):
        page, commit, *frame_salts = struct.unpack(">4I", frames[index][:16])
        if tuple(frame_salts) != salts:
            continue
        later = later or page in pages
        pages.add(page)
        if index > bad and commit and _checks_out(frames[index - 1], frames[index], big_endian):
            commits += 1
            later = later or commits >= 2
    return commits if later else 0


def _checks_out(before: bytes, frame: bytes, big_endian: bool) -> bool:
    """Whether a frame's checksum carries on from the frame before it (ignoring where the chain broke)."""
    previous = struct.unpack(">2I", before[16:24])
    expected = struct.unpack(">2I", frame[16:24])
    return _checksum(frame[:8] + frame[FRAME_HEADER:], previous, big_endian) == expected


def _checksum(data: bytes, start: tuple[int, int], big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of bytes read as words in the WAL's byte order; raises nothing."""
    return checksum(struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data), start)


def checksum(words: tuple[int, ...], start: tuple[int, int]) -> tuple[int, int]:
    """SQLite's checksum (two running 32-bit sums over pairs of words), from `start`; raises nothing."""
    first, second = start
    pairs = iter(words)
    for one, two in zip(pairs, pairs):
        first = (first + one + second) & MASK
        second = (second + two + first) & MASK
    return first, second
