"""The public API of each package is its `__all__` (as Hypothesis asserts of `hypothesis.strategies`): every name
resolves, is defined inside the package, and the list is sorted; the lazy packages stay cheap to import."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

PACKAGES = ("reference", "generators", "conformance")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_resolves_to_the_packages_own_object(package):
    module = importlib.import_module(package)
    assert module.__all__, f"{package} has no __all__"
    for name in module.__all__:
        value = getattr(module, name)
        home = getattr(value, "__module__", None) or getattr(value, "__name__", None)
        if home is not None and not isinstance(value, (str, int, tuple, frozenset, dict)):
            assert home.split(".")[0] == package, f"{package}.{name} comes from {home}"


@pytest.mark.parametrize("package", PACKAGES)
def test_public_names_are_sorted_and_unique(package):
    names = importlib.import_module(package).__all__
    assert list(names) == sorted(set(names))


@pytest.mark.parametrize("package", ("reference", "conformance"))
def test_an_unknown_name_is_an_attribute_error(package):
    with pytest.raises(AttributeError, match="no_such_name"):
        getattr(importlib.import_module(package), "no_such_name")


def test_loading_the_pytest_plugin_imports_nothing_else():
    # pytest loads the plugin in every session of an environment where the package is installed.
    code = ("import sys, conformance.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('hypothesis', 'generators', 'reference')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['reference', 'reference.lazy_exports']"
