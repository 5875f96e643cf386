"""The running table: the one engine loop, the session it drives, what it publishes, and how phones join.

Imports the engine (companion.rules, companion.games) and the journal; never the camera, the web or the daemon.
"""
