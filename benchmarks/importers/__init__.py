"""Pure importers of benchmark tools' raw output (no database).

Each module has ``parse(text, parameters) -> list[Point]`` and a ``VERSION``;
``detect(text)`` names the importer that fits. Malformed input raises ImportFailed
naming the line.
"""

from benchmarks.importers.base import ImportFailed, Point
from benchmarks.importers.registry import IMPORTERS, detect, parse

__all__ = ["IMPORTERS", "ImportFailed", "Point", "detect", "parse"]
