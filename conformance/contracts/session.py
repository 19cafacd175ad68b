"""The plugins under test: which scheduler build, which config, one driver process per plugin (plain or -race)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..builds.stock import stock_binary
from .driver import PluginDriver
from .search import SharedSearches


def stock_driver(race: bool = False) -> Path:
    """$SCHED_CONFORMANCE_BIN/driver, else harness/bin/driver, brought up to date by build.sh (a no-op when its
    stamp matches the sources, a build with progress otherwise)."""
    return stock_binary("driver-race" if race else "driver", refresh=True)


class ContractSession:
    """Drivers for the own scheduler (`own`, an OwnScheduler or None for the stock one), started on first use."""

    def __init__(self, own: Any = None) -> None:
        from .inputs import use_domain
        self.own = own
        use_domain(own.domain() if own is not None else None)  # the plugins' own vocabulary in every input
        self._drivers: dict[tuple[str, bool], PluginDriver] = {}
        self._plugins: tuple[str, ...] | None = None
        self.searches = SharedSearches()

    def binary(self, race: bool = False) -> Path:
        if self.own is not None and self.own.builds:
            from ..builds import build
            return build(self.own.spec, driver=not race, race_driver=race).driver(race=race)
        return stock_driver(race)

    def config(self) -> dict[str, Any] | None:
        return self.own.config() if self.own is not None else None

    def plugins(self) -> tuple[str, ...]:
        """Every plugin of the effective profile (the config's first one)."""
        if self._plugins is None:
            lister = PluginDriver(self.binary(), config=self.config(), plugin="").start()
            try:
                self._plugins = tuple(lister.info["plugins"])
            finally:
                lister.close()
        return self._plugins

    def driver(self, plugin: str, *, race: bool = False) -> PluginDriver:
        key = (plugin, race)
        if key not in self._drivers:
            self._drivers[key] = PluginDriver(self.binary(race), config=self.config(), plugin=plugin,
                                              race=race).start()
        return self._drivers[key]

    def reproducer_options(self) -> dict[str, Any]:
        if self.own is None or not self.own.builds:
            return {}
        return {"own_scheduler": self.own.spec.to_toml()}

    def close(self) -> None:
        for driver in self._drivers.values():
            driver.close()
        self._drivers.clear()


__all__ = ["ContractSession", "stock_driver"]
