"""The only persistence of play: the SQLite journal (store), its schema, its start-up checks and its codec.

Imports only the engine's vocabulary (companion.rules) and the standard library.
"""
