"""The companion command's sub-commands besides run: setting the box up (setup.py) and what its state folder
keeps (records.py). companion/cli.py parses the command line and hands each its arguments."""
from __future__ import annotations

import sys


def say(sentence: str) -> int:
    """Print the sentence as the command's error; returns the exit code 2."""
    print(f"companion: {sentence}", file=sys.stderr)
    return 2
