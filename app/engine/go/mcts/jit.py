"""How the Go search's kernels are compiled: numba, its on-disk cache, the array types, and the
random numbers every kernel draws from.

`kernel` is `numba.njit(cache=True, nogil=True)`. numba's cache checks only the source file of
the function it compiled, never the files of the functions and constants it calls in, so on
import this module points numba's cache at a directory named after a digest of every source
the kernels read (`SOURCES`): an edit anywhere among them compiles afresh, and the directories
of older digests are removed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

try:
    import numba
except ImportError as error:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "app.engine.go.mcts needs numba (a dependency in pyproject.toml): the Monte-Carlo "
        "player is too slow without it, so there is no pure-Python fallback. Run "
        "`.venv/bin/pip install -e .`."
    ) from error

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Words = npt.NDArray[np.uint64]
Flags = npt.NDArray[np.uint8]
Int = int | np.int64  # kernels take np.int64 where a bare constant would be a literal (`kernel`)

F = TypeVar("F", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parent
STALE_SECONDS = 600  # a digest's directory unused this long belongs to no running process
IMPORT = re.compile(r"^from (\.+)(\w+) import", re.MULTILINE)


def kernel_sources(package: Path = PACKAGE) -> tuple[Path, ...]:
    """Every source whose code or constants a kernel compiles in: the package's modules that
    define kernels and, transitively, the modules they import from (relative imports: the
    engine imports nothing else). The player and the tree, which only call kernels, are left
    out, so editing them compiles nothing."""
    todo = [path for path in package.glob("*.py") if "@kernel" in path.read_text()]
    found: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        for dots, name in IMPORT.findall(path.read_text()):
            base = path.parent
            for _ in range(len(dots) - 1):
                base = base.parent
            if (base / f"{name}.py").exists():
                todo.append(base / f"{name}.py")
    return tuple(sorted(found))


SOURCES = kernel_sources()


def sources_digest(sources: tuple[Path, ...] = SOURCES) -> str:
    """A digest of the kernels' sources: their names and contents."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _cache_base() -> Path:
    """Where the digests' directories live: under NUMBA_CACHE_DIR when it is set, else the
    package's own __pycache__ (or the user's cache directory when that is read-only)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = PACKAGE / "__pycache__" / "kernels"
    try:
        base.mkdir(parents=True, exist_ok=True)
        if os.access(base, os.W_OK):
            return base
    except OSError:
        pass
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "tabletop" / "kernels"


def use_cache(base: Path) -> Path:
    """Point numba's cache at base/<digest> (before any kernel is defined) and drop the stale
    directories of other digests beside it; returns the directory."""
    directory = base / sources_digest()
    directory.mkdir(parents=True, exist_ok=True)
    os.utime(directory)
    for other in base.iterdir():
        if (other != directory and other.is_dir() and len(other.name) == 16
                and time.time() - other.stat().st_mtime > STALE_SECONDS):
            shutil.rmtree(other, ignore_errors=True)
    numba.config.CACHE_DIR = str(directory)  # type: ignore[attr-defined]
    return directory


CACHE = use_cache(_cache_base())


def kernel(function: F) -> F:
    """numba.njit with the on-disk cache and without the GIL, keeping the Python signature
    for mypy (numba itself is untyped).

    Compiled code calls kernels with `np.int64(CONSTANT)` rather than a bare constant: numba
    would compile (and cache) a separate copy of the callee for each literal value.
    """
    return cast(F, numba.njit(cache=True, nogil=True)(function))


# -- random numbers ------------------------------------------------------------------------------


@kernel
def rand_u64(rng: Words) -> np.uint64:
    """xorshift64*: fast, good enough for playouts, and its state is one word we own."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(2685821657736338717)  # type: ignore[no-any-return]


@kernel
def rand_below(rng: Words, n: Int) -> int:
    """A uniform int in [0, n) for 1 <= n < 2**32 (multiply and shift: no division)."""
    return int(((rand_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel
def rand_unit(rng: Words) -> float:
    """A uniform float in [0, 1)."""
    return float(rand_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
