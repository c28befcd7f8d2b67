"""Where tests leave screenshots and logs for a human to look at (ignored by git)."""

from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
