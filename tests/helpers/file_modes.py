"""Making file modes bind a process the tests start, even when the tests run as root (as CI may)."""
from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Callable

import pytest

PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_SETPCAP = 1, 2, 8


def bound_by_file_modes() -> Callable[[], None] | None:
    """For root: a preexec that drops the capabilities that ignore file modes; None for other users; fails the
    test when root may not drop them."""
    if os.geteuid() != 0:
        return None
    effective = int(Path("/proc/self/status").read_text().split("CapEff:")[1].split()[0], 16)
    if not effective >> CAP_SETPCAP & 1:
        pytest.fail("running as root without CAP_SETPCAP: cannot make file modes bind the started process, "
                    "so a folder it may not read cannot be simulated here; run the tests as a normal user")

    def drop() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
            if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
                os._exit(97)

    return drop
