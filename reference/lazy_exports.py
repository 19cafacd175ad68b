"""A package's public names imported on first use (PEP 562), so importing the package stays cheap."""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def lazy_exports(package: str, public: Mapping[str, str],
                 namespace: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package` whose names `public` maps to the modules defining them;
    a name is imported once, then kept in the package's `namespace`."""
    def getattr_(name: str) -> Any:
        if name not in public:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(public[name]), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *public})
    return getattr_, dir_


__all__ = ["lazy_exports"]
