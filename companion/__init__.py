"""The table companion: the rules engine and games, the running table, its journal, its camera, and the daemon."""
