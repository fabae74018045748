"""Every package has a map: each of its files and sub-packages named where a reader starts.

docs/STYLE.md, "What that means here", point 12: a short README or module docstring per
package with its data-flow sketch. A map that misses a file sends the reader to ``ls``;
so every ``.py`` file of a package (not ``__init__.py`` or ``__main__.py``) must be named
by its file name (``launcher.py``) and every sub-package by its folder name and a slash
(``passes/``), in the package's ``__init__.py`` docstring or in a README.md beside it.
Folders without ``__init__.py`` (data, headers) are not packages and need no entry.
"""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gpusim"
ROOT = PACKAGE.parent


def _packages() -> list[Path]:
    return sorted(init.parent for init in PACKAGE.rglob("__init__.py")
                  if "__pycache__" not in init.parts)


def _entries(package: Path) -> list[str]:
    """What the map of ``package`` must name: ``file.py`` and ``sub_package/``."""
    files = [p.name for p in package.glob("*.py") if p.name not in ("__init__.py",
                                                                    "__main__.py")]
    subs = [p.name + "/" for p in package.iterdir()
            if p.is_dir() and (p / "__init__.py").is_file()]
    return sorted(files) + sorted(subs)


def _map_text(package: Path) -> str:
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    readme = package / "README.md"
    return docstring + "\n" + (readme.read_text() if readme.is_file() else "")


def _named(entry: str, text: str) -> bool:
    """``entry`` appears as a whole name: ``views.py`` is not named by ``trace_views.py``;
    a path into a sub-package (``labs/lab01.py``) names it."""
    end = "" if entry.endswith("/") else r"(?![\w-])"
    return re.search(rf"(?<![\w-]){re.escape(entry)}{end}", text) is not None


def test_named_reads_whole_names():
    assert _named("views.py", "``views.py`` draws") and _named("passes/", "- passes/: IR")
    assert _named("labs/", "labs/lab01.py registers")
    assert not _named("views.py", "trace_views.py") and not _named("passes/", "bypasses/")


@pytest.mark.parametrize("package", _packages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_package_map_names_every_file(package):
    missing = [entry for entry in _entries(package) if not _named(entry, _map_text(package))]
    readme = package / "README.md"
    where = (readme if readme.is_file() else package / "__init__.py").relative_to(ROOT)
    assert not missing, (
        f"{package.relative_to(ROOT)}/ has no map entry for {', '.join(missing)}: name each "
        f"(file.py, sub_package/) with a line on what it holds in {where}"
        + ("" if readme.is_file() else "'s docstring (or a README.md beside it)"))
