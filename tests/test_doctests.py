"""Every docstring example in the package runs and prints what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import gpusim

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(gpusim.__path__, "gpusim.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    gpusim.set_system()
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    gpusim.set_system()
    assert result.failed == 0
