"""The table companion: rules engine, journal, session and the daemon that wires them."""
