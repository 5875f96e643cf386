"""The table's memory: what the journal tells after the fact (are the dice fair, who wins what, each play as
BG Stats takes it). It reads the journal through its own read-only connection, never the engine loop's."""
