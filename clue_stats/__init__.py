"""clue-stats: clue_stats.

The compiled counting kernels (numba, ``cache=True``) are cached beside their sources when that
folder can be written (a clone); an installed tool, whose package folder often cannot, caches them
in ``clue-stats/numba`` under the user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``;
``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows), unless ``$NUMBA_CACHE_DIR`` says
otherwise. Set here, before anything imports numba: numba reads it when it is first imported.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def user_cache_dir() -> Path:
    """clue-stats' folder under the user's cache folder (nothing is made here)."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "clue-stats"


def numba_cache_dir(package_writable: bool) -> Path | None:
    """Where the kernels are cached: None (numba's own place, beside the sources) when the package
    folder can be written or $NUMBA_CACHE_DIR is set, else clue-stats/numba in the user's cache."""
    if os.environ.get("NUMBA_CACHE_DIR") or package_writable:
        return None
    return user_cache_dir() / "numba"


def _set_numba_cache() -> None:
    engine = Path(__file__).resolve().parent / "engine"
    folder = numba_cache_dir(os.access(engine if engine.is_dir() else Path(__file__).parent, os.W_OK))
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # numba's own fallback (its user-wide folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)


_set_numba_cache()
