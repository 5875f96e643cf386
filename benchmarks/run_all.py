"""Run every benchmark in turn (make bench); each prints its own figures. Returns 1 if one fails."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ("engine.py", "push.py", "dice_reader.py", "power_cut.py", "evening.py", "busy_seat.py", "roll_path.py")


def main() -> int:
    """Run each benchmark that exists with this Python; returns the number that failed (0 or 1)."""
    failed = 0
    for name in BENCHMARKS:
        script = HERE / name
        if not script.exists():
            print(f"== {name}: missing", flush=True)
            failed = 1
            continue
        print(f"== {name}", flush=True)
        failed |= subprocess.run([sys.executable, str(script)], check=False).returncode != 0
    return int(bool(failed))


if __name__ == "__main__":
    sys.exit(main())
