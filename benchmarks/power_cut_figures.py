"""The power-cut benchmark's figures: what one run counted, and the totals and medians over the runs it prints."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Figures:
    """What one run counted."""

    kills: int = 0
    start_up_kills: int = 0
    restarts: int = 0
    mismatches: list[str] = field(default_factory=list)
    integrity_failures: int = 0
    in_flight: int = 0
    in_flight_saved: int = 0
    accepted: int = 0
    refused: int = 0
    games_started: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0


def summary(runs: list[Figures]) -> dict[str, Any]:
    """Totals over the runs, and medians for the times; raises nothing."""
    restarts = [seconds for run in runs for seconds in run.restart_seconds[1:]]
    return {
        "runs": len(runs),
        "kills": sum(run.kills for run in runs),
        "start_up_kills": sum(run.start_up_kills for run in runs),
        "restarts": sum(run.restarts for run in runs),
        "mismatches": sum(len(run.mismatches) for run in runs),
        "integrity_failures": sum(run.integrity_failures for run in runs),
        "kills_with_input_in_flight": sum(run.in_flight for run in runs),
        "in_flight_inputs_saved": sum(run.in_flight_saved for run in runs),
        "inputs_accepted": sum(run.accepted for run in runs),
        "inputs_refused_by_rules": sum(run.refused for run in runs),
        "games_started": sum(run.games_started for run in runs),
        "restart_s_median": round(statistics.median(restarts), 3) if restarts else None,
        "run_s_median": round(statistics.median(run.seconds for run in runs), 1),
        "first_mismatches": [text for run in runs for text in run.mismatches][:10],
    }
