"""The study's numpy encoder became the product's install-time builder: one copy of it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))

from memhooks.cli.semantic_build import MiniLM, model_zip

__all__ = ["MiniLM", "model_zip"]
