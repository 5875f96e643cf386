"""Pure image → dice functions and the camera sources behind one FrameSource protocol."""
