"""Sleuth: hidden-information board games with exact deduction, AI players and tournaments."""

__version__ = "0.1.0"
