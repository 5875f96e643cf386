"""The roll path at the table: settle, read, vote, the camera's errands from the host page, and calibration.

Imports the table (what it publishes to), the config and vision; the table never imports the camera.
"""
