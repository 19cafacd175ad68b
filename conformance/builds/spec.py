"""The scheduler build spec: Kubernetes release, the user's Go modules and plugin registrations.

Loaded from flags (`--go-module`, `--go-plugin`, `--go-import`, `--k8s-version`), from `--own-scheduler FILE` (TOML, the
same keys), or from `[tool.sched-conformance]` in the pyproject.toml of the working directory; every
value is checked when loaded and a bad one gets one line naming it and the fix.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from reference.plugins import IN_TREE
from reference.probe import PROBE_NAMES

from ..core.errors import ConformanceError

_IDENT = re.compile(r"[A-Z][A-Za-z0-9_]*")
_PLUGIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._-]*")
_IN_TREE_NAMES = frozenset(name for _module, name in IN_TREE)
_IMPORT_PATH = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~/-]*[A-Za-z0-9_]")
_VERSION = re.compile(r"v?(1\.\d+\.\d+)")
_MODULE_VERSION = re.compile(r"v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+incompatible)?")
_HOOK = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*")
KEYS = ("go-modules", "go-plugins", "go-imports", "k8s-version", "scheduler-config", "objects", "crds", "domain")


class BuildSpecError(ConformanceError):
    """A bad build input; the message is one line naming it and the fix."""


@dataclass(frozen=True)
class GoModule:
    """A local module directory (used through a replace) or `path@version` (through the proxy)."""

    path: str                    # the module path, e.g. example.com/plugins
    version: str | None = None   # None: local
    directory: Path | None = None

    @property
    def local(self) -> bool:
        return self.directory is not None

    def describe(self) -> str:
        return str(self.directory) if self.local else f"{self.path}@{self.version}"


@dataclass(frozen=True)
class PluginRegistration:
    """`Name=import/path.Func`: the plugin `Name`, built by the factory `Func` of package `import/path`."""

    name: str
    package: str
    func: str

    def describe(self) -> str:
        return f"{self.name}={self.package}.{self.func}"


@dataclass(frozen=True)
class BuildSpec:
    modules: tuple[GoModule, ...] = ()
    plugins: tuple[PluginRegistration, ...] = ()
    # Packages linked in for their side effects, e.g. a plugin module's apis/config/scheme, whose init
    # registers the plugins' args types with kube-scheduler's scheme (scheduler-plugins' main imports it).
    imports: tuple[str, ...] = ()
    k8s_version: str | None = None       # None: the one the user's modules require, else the pinned one
    scheduler_config: Path | None = None
    # Not build inputs, but the same user's: the Python hook that adds their plugins' objects to
    # scenarios (`package.module:name`), and the CRD files the cluster backend installs for them.
    objects: str | None = None
    crds: tuple[Path, ...] = ()
    # The `[domain]` table: labels, annotations, taints and extended resources the generators draw
    # (generators.Domain), beside what the modules' sources show (builds/vocabulary.py).
    domain: Mapping[str, Any] = field(default_factory=dict)
    origin: str = "flags"
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.modules and not self.plugins and not self.imports and self.k8s_version is None

    def to_toml(self) -> str:
        """The build inputs as an `--own-scheduler` file (local modules by absolute path; no config: a
        reproducer's scenario carries its own)."""
        def quoted(values: list[str]) -> str:
            return "[" + ", ".join(json.dumps(v) for v in values) + "]"
        lines = [f"go-modules = {quoted([m.describe() for m in self.modules])}",
                 f"go-plugins = {quoted([p.describe() for p in self.plugins])}"]
        if self.imports:
            lines.append(f"go-imports = {quoted(list(self.imports))}")
        if self.k8s_version:
            lines.append(f"k8s-version = {json.dumps(self.k8s_version.lstrip('v'))}")
        if self.crds:
            lines.append(f"crds = {quoted([str(c) for c in self.crds])}")
        return "\n".join(lines) + "\n"


def parse_module(text: str, *, base: Path = Path(".")) -> GoModule:
    """`./dir` (a directory with go.mod) or `module/path@vX.Y.Z`."""
    if "@" in text:
        path, _, version = text.partition("@")
        if not _IMPORT_PATH.fullmatch(path) or not _MODULE_VERSION.fullmatch(version):
            raise BuildSpecError(f"--go-module {text!r}: use module/path@vX.Y.Z or a local directory with a go.mod")
        return GoModule(path=path, version=version)
    directory = (base / text).expanduser().resolve()
    go_mod = directory / "go.mod"
    if not go_mod.is_file():
        raise BuildSpecError(f"--go-module {text!r}: {go_mod} does not exist; give a module directory (with its "
                             f"go.mod) or module/path@vX.Y.Z")
    match = re.search(r"^module\s+(\S+)", go_mod.read_text(), re.MULTILINE)
    if not match:
        raise BuildSpecError(f"--go-module {text!r}: {go_mod} has no `module` line")
    return GoModule(path=match.group(1).strip('"'), directory=directory)


def parse_plugin(text: str) -> PluginRegistration:
    """`Name=import/path.Func`."""
    name, sep, target = text.partition("=")
    package, dot, func = target.rpartition(".")
    if not sep or not name or not dot or not _IMPORT_PATH.fullmatch(package) or not _IDENT.fullmatch(func):
        raise BuildSpecError(f"--go-plugin {text!r}: use Name=import/path.Func, e.g. "
                             f"MyScore=example.com/plugins/score.New (Func exported)")
    if not _PLUGIN_NAME.fullmatch(name):
        raise BuildSpecError(f"--go-plugin {text!r}: {name!r} is not a plugin name; use letters, digits, '.', '_' "
                             f"and '-', starting with a letter (it goes into the config and the generated Go)")
    if name in _IN_TREE_NAMES:
        raise BuildSpecError(f"--go-plugin {text!r}: {name} is an in-tree plugin of kube-scheduler (the registry "
                             f"would refuse a second one); register yours under another name")
    if name in PROBE_NAMES:
        raise BuildSpecError(f"--go-plugin {text!r}: {name} is one of the suite's probe plugins "
                             f"({PROBE_NAMES[0]}..{PROBE_NAMES[-1]}); register your plugin under another name")
    return PluginRegistration(name=name, package=package, func=func)


def parse_version(text: str) -> str:
    match = _VERSION.fullmatch(text.strip())
    if not match:
        raise BuildSpecError(f"--k8s-version {text!r}: use a Kubernetes release such as 1.37.2")
    return "v" + match.group(1)


def parse_import(text: str) -> str:
    """An import path linked in for its side effects (`--go-import`)."""
    if not _IMPORT_PATH.fullmatch(text):
        raise BuildSpecError(f"--go-import {text!r}: use an import path, e.g. "
                             f"sigs.k8s.io/scheduler-plugins/apis/config/scheme")
    return text


def parse_objects(text: str, *, base: Path = Path(".")) -> str:
    """`--objects package.module:name` or `path/to/file.py:name` (made absolute; imported when the suite
    starts, not here)."""
    source, _, name = text.rpartition(":")
    if source.endswith(".py") and name.isidentifier():
        path = (base / source).expanduser().resolve()
        if not path.is_file():
            raise BuildSpecError(f"--objects {text!r}: {path} does not exist")
        return f"{path}:{name}"
    if not _HOOK.fullmatch(text):
        raise BuildSpecError(f"--objects {text!r}: use package.module:name or path/to/file.py:name, e.g. "
                             "my_plugins.objects:pod_groups (a function Scenario -> strategy of generators.Extras, "
                             "or such a strategy)")
    return text


def parse_crd(text: str, *, base: Path = Path(".")) -> Path:
    """`--crd FILE`: a YAML file of CustomResourceDefinitions."""
    path = (base / text).expanduser().resolve()
    if not path.is_file():
        raise BuildSpecError(f"--crd {text!r}: {path} does not exist; give a YAML file of CustomResourceDefinitions")
    return path


def make_spec(*, modules: list[str] = (), plugins: list[str] = (), imports: list[str] = (),
              k8s_version: str | None = None, scheduler_config: str | None = None, objects: str | None = None,
              crds: list[str] = (), base: Path = Path("."), origin: str = "flags") -> BuildSpec:
    regs = tuple(parse_plugin(p) for p in plugins)
    imps = tuple(dict.fromkeys(parse_import(i) for i in imports))
    seen: set[str] = set()
    for reg in regs:
        if reg.name in seen:
            raise BuildSpecError(f"--go-plugin {reg.name}: registered twice; each plugin name once")
        seen.add(reg.name)
    config = None
    if scheduler_config:
        config = (base / scheduler_config).expanduser().resolve()
        if not config.is_file():
            raise BuildSpecError(f"--scheduler-config {scheduler_config!r}: {config} does not exist")
    mods = tuple(parse_module(m, base=base) for m in modules)
    for reg in regs:
        if not any(reg.package == m.path or reg.package.startswith(m.path + "/") for m in mods):
            raise BuildSpecError(f"--go-plugin {reg.describe()}: no --go-module provides package {reg.package}; "
                                 f"add the module that contains it")
    for imp in imps:
        if not any(imp == m.path or imp.startswith(m.path + "/") for m in mods):
            raise BuildSpecError(f"--go-import {imp}: no --go-module provides it; add the module that contains it")
    return BuildSpec(modules=mods, plugins=regs, imports=imps, k8s_version=parse_version(k8s_version) if k8s_version else None,
                     scheduler_config=config, objects=parse_objects(objects, base=base) if objects else None,
                     crds=tuple(dict.fromkeys(parse_crd(c, base=base) for c in crds)), origin=origin)


def load_table(table: Mapping[str, Any], *, base: Path, origin: str) -> BuildSpec:
    """A `[tool.sched-conformance]`-style table: go-modules, go-plugins, go-imports, crds (lists), k8s-version,
    scheduler-config, objects."""
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise BuildSpecError(f"{origin}: unknown key {unknown[0]!r}; the keys are {', '.join(KEYS)}")
    for key in ("go-modules", "go-plugins", "go-imports", "crds"):
        if not isinstance(table.get(key, []), list) or not all(isinstance(v, str) for v in table.get(key, [])):
            raise BuildSpecError(f"{origin}: {key} must be a list of strings")
    domain = table.get("domain", {})
    if domain:
        from generators import Domain, DomainError
        try:
            Domain.from_mapping(domain, "domain")
        except DomainError as exc:
            raise BuildSpecError(f"{origin}: {exc}") from None
    return replace(make_spec(modules=table.get("go-modules", []), plugins=table.get("go-plugins", []),
                     imports=table.get("go-imports", []), k8s_version=table.get("k8s-version"),
                     scheduler_config=table.get("scheduler-config"), objects=table.get("objects"),
                     crds=table.get("crds", []), base=base, origin=origin), domain=dict(domain))


def load_file(path: str | Path) -> BuildSpec:
    """`--own-scheduler FILE`: a TOML file with the keys at top level (or under [tool.sched-conformance])."""
    file = Path(path).expanduser().resolve()
    try:
        data = tomllib.loads(file.read_text())
    except OSError as exc:
        raise BuildSpecError(f"--own-scheduler {path}: cannot read it ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BuildSpecError(f"--own-scheduler {path}: not TOML ({exc})") from None
    table = data.get("tool", {}).get("sched-conformance", data)
    return load_table(table, base=file.parent, origin=str(file))


def from_pyproject(directory: Path = Path(".")) -> BuildSpec | None:
    """`[tool.sched-conformance]` of directory/pyproject.toml, or None."""
    file = directory.resolve() / "pyproject.toml"
    if not file.is_file():
        return None
    table = tomllib.loads(file.read_text()).get("tool", {}).get("sched-conformance")
    return load_table(table, base=file.parent, origin=f"{file} [tool.sched-conformance]") if table else None


__all__ = ["BuildSpec", "BuildSpecError", "GoModule", "PluginRegistration", "from_pyproject", "load_file",
           "load_table", "make_spec", "parse_crd", "parse_import", "parse_module", "parse_objects", "parse_plugin",
           "parse_version"]
