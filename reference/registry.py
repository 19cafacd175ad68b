"""Plugin registry: name -> factory(args, handle), with the plugin's args type for config defaulting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping

from .errors import ConfigError
from .interfaces import Handle, Plugin


class PluginArgs:
    """Base of plugin args dataclasses. `from_config` applies v1 defaults and validates."""

    KIND: ClassVar[str] = ""  # e.g. "NodeResourcesFitArgs"

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, path: str) -> "PluginArgs":
        """Build from a pluginConfig `args` mapping; raise ConfigError(field=path...) when invalid."""
        raise NotImplementedError

    def to_config(self) -> dict[str, Any]:
        raise NotImplementedError


Factory = Callable[[Any, Handle], Plugin]


@dataclass(frozen=True)
class PluginSpec:
    name: str
    plugin_type: type[Plugin]
    factory: Factory
    args_type: type[PluginArgs] | None = None

    def default_args(self) -> PluginArgs | None:
        return self.args_type.from_config(None, f"pluginConfig[{self.name}].args") if self.args_type else None


def spec_of(plugin_type: type[Plugin]) -> PluginSpec:
    """A spec for a plugin class following the module convention: `NAME`, optional `ARGS`, `new`."""
    args_type = getattr(plugin_type, "ARGS", None)
    factory = getattr(plugin_type, "new", None) or (lambda args, handle: plugin_type())
    return PluginSpec(plugin_type.NAME, plugin_type, factory, args_type)


class Registry:
    """An ordered mapping of plugin name to `PluginSpec`."""

    def __init__(self, specs: Iterable[PluginSpec] = ()) -> None:
        self._specs: dict[str, PluginSpec] = {}
        for spec in specs:
            self.register(spec)

    @classmethod
    def of(cls, *plugin_types: type[Plugin]) -> "Registry":
        return cls(spec_of(t) for t in plugin_types)

    def register(self, spec: PluginSpec) -> None:
        if spec.name in self._specs:
            raise ConfigError(f"a plugin named {spec.name!r} already exists; pick another name")
        self._specs[spec.name] = spec

    def merged(self, other: "Registry") -> "Registry":
        """Upstream `Registry.Merge`: out-of-tree names must not collide with in-tree ones."""
        merged = Registry(self)
        for spec in other:
            merged.register(spec)
        return merged

    def get(self, name: str) -> PluginSpec | None:
        return self._specs.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[PluginSpec]:
        return iter(self._specs.values())


__all__ = ["Factory", "PluginArgs", "PluginSpec", "Registry", "spec_of"]
