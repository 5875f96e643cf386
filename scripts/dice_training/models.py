"""The two small networks of the dice reader, in PyTorch (training only; the Pi runs their ONNX export).

- `Finder`: a fully convolutional net over the whole (downscaled) photo. Output stride 4: a heat map of
  top-face centres, the centre's offset within its cell, and log face size.
- `FaceReader`: reads one square crop around a found die: nothing, 1-6 pips, or a face without pips.
  The d8 reader is the same network with its own classes: no d8 numeral, or the numeral 1-8.
"""
from __future__ import annotations

import torch
from torch import nn

from vision.cutting import FACE_CROP  # the crop side the reader runs with
from vision.faces import CLASSES as FACE_CLASSES  # 0 nothing, 1-6 pips, 7 a face without pips (numerals, symbols)


def _block(inputs: int, outputs: int, stride: int = 1) -> nn.Sequential:
    """Returns conv 3x3 + batch norm + ReLU; raises nothing."""
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, 3, stride, 1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True)
    )


class Finder(nn.Module):
    """Finds top-face centres: a small encoder down to stride 16 and back up to stride 4."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(_block(3, 16, 2), _block(16, 24, 2))  # stride 4
        self.down8 = nn.Sequential(_block(24, 40, 2), _block(40, 40))
        self.down16 = nn.Sequential(_block(40, 64, 2), _block(64, 64))
        self.lateral8 = nn.Conv2d(40, 64, 1)
        self.merge8 = _block(64, 32)
        self.lateral4 = nn.Conv2d(24, 32, 1)
        self.merge4 = _block(32, 24)
        self.heads = nn.Conv2d(24, 4, 1)  # heat logit, offset x, offset y, log size
        nn.init.constant_(self.heads.bias[0], -2.19)  # start believing 10 % of cells are centres (CenterNet)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        """Returns (N, 4, H/4, W/4) maps for a (N, 3, H, W) batch scaled to 0..1; raises nothing."""
        at4 = self.stem(image)
        at8 = self.down8(at4)
        at16 = self.down16(at8)
        up8 = self.merge8(self.lateral8(at8) + nn.functional.interpolate(at16, scale_factor=2.0, mode="nearest"))
        up4 = self.merge4(self.lateral4(at4) + nn.functional.interpolate(up8, scale_factor=2.0, mode="nearest"))
        return self.heads(up4)


class FaceReader(nn.Module):
    """Reads one FACE_CROP x FACE_CROP crop of a die into `classes` logits (FACE_CLASSES for the face reader)."""

    def __init__(self, classes: int = FACE_CLASSES) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 24), _block(24, 48, 2), _block(48, 64, 2), _block(64, 64), _block(64, 96, 2)
        )
        self.classes = nn.Linear(96 * (FACE_CROP // 8) ** 2, classes)  # where on the face a pip is matters

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        """Returns (N, classes) logits for a (N, 3, FACE_CROP, FACE_CROP) batch of normalised crops; raises nothing."""
        return self.classes(torch.flatten(self.features(crops), 1))
