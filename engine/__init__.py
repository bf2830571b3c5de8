"""summon's engine: loads games from YAML and Lua and runs matches in a Lua sandbox."""
from __future__ import annotations

from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
