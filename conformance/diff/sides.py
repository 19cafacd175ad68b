"""The two sides of a diff: a build spec each (the user's scheduler on both, the release or plugin module
that differs), both built (or taken from the build cache), and a backend on each build's runner."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..builds import Build, BuildSpec, BuildSpecError, make_spec
from ..builds import build
from ..builds.builder import BuildError
from ..builds.spec import parse_module
from ..core.errors import ConformanceError
from ..builds.own_scheduler import resolve
from . import versions


class SideBuildError(ConformanceError):
    """One side did not build: which side, the first Go error (the full output on later lines), and where the
    other side's build is kept."""


@dataclass(frozen=True)
class Side:
    flag: str          # "--from" or "--to"
    spec: BuildSpec

    @property
    def label(self) -> str:
        modules = ", ".join(m.describe() for m in self.spec.modules)
        return f"{self.spec.k8s_version or 'pinned'}" + (f" with {modules}" if modules else "")

    def resolved(self, version: str) -> "Side":
        return replace(self, spec=replace(self.spec, k8s_version=version))


def log(message: str) -> None:
    print(f"[sched-conformance diff] {message}", file=sys.stderr, flush=True)


def make_sides(*, from_version: str | None, to_version: str | None, from_module: str | None,
               to_module: str | None, modules: list[str], plugins: list[str], imports: list[str],
               scheduler_config: str | None, own_file: str | None, directory: Path = Path(".")) -> tuple[Side, Side]:
    """The specs of both sides; usage errors (a version not served, a module missing) raise before any build."""
    if not (from_version or to_version or from_module or to_module):
        raise ConformanceError("diff needs two sides: --from and --to releases (e.g. --from v1.36.4 --to v1.37.2), "
                               "or --from-module and --to-module directories of your plugins")
    if bool(from_module) != bool(to_module):
        raise ConformanceError("--from-module and --to-module go together: give both plugin module directories")
    side_modules = {flag: _side_module(flag, text, directory) for flag, text in
                    (("--from", from_module), ("--to", to_module)) if text}
    # The --from module stands in for the side module while the shared flags are checked (a --go-plugin
    # names a package of it), and leaves the shared spec afterwards.
    side_module = [from_module] if from_module else []
    own = resolve(modules=[*modules, *side_module], plugins=plugins, imports=imports,
                  scheduler_config=scheduler_config, own_file=own_file, directory=directory)
    shared = own.spec if own is not None else make_spec(base=directory)
    if from_module:
        shared = replace(shared, modules=tuple(m for m in shared.modules if m != side_modules["--from"]))
    sides = []
    for flag, version, module in (("--from", from_version, from_module), ("--to", to_version, to_module)):
        checked = versions.check(flag, version) if version else None
        extra = (side_modules[flag],) if module else ()
        if module:
            clash = [m for m in shared.modules if m.path == extra[0].path]
            if clash:
                raise BuildSpecError(f"{flag}-module {module}: module {extra[0].path} is also a --go-module; give it "
                                     f"only as --from-module/--to-module")
        spec = replace(shared, modules=shared.modules + extra, k8s_version=checked or shared.k8s_version)
        _check_plugins_provided(spec, flag)
        sides.append(Side(flag, spec))
    return sides[0], sides[1]


def _side_module(flag: str, text: str, directory: Path) -> Any:
    try:
        return parse_module(text, base=directory)
    except BuildSpecError as exc:
        raise BuildSpecError(str(exc).replace("--go-module", f"{flag}-module", 1)) from None


def _check_plugins_provided(spec: BuildSpec, flag: str) -> None:
    for reg in spec.plugins:
        if not any(reg.package == m.path or reg.package.startswith(m.path + "/") for m in spec.modules):
            raise BuildSpecError(f"--go-plugin {reg.describe()}: no module of the {flag} side provides package "
                                 f"{reg.package}; add it with --go-module or --{flag.lstrip('-')}-module")


def build_both(a: Side, b: Side) -> tuple[Build, Build, dict[str, float]]:
    """Both builds, each timed; when one fails, the other is still built (and kept in the cache)."""
    built: dict[str, Build] = {}
    failed: dict[str, BuildSpecError] = {}
    seconds: dict[str, float] = {}
    for side in (a, b):
        log(f"building the {side.flag} side: Kubernetes {side.label}")
        start = time.monotonic()
        try:
            built[side.flag] = build(side.spec)
        except BuildSpecError as exc:
            failed[side.flag] = exc
        seconds[side.flag] = time.monotonic() - start
    if failed:
        flag, exc = next(iter(failed.items()))
        side = a if flag == "--from" else b
        other = b if flag == "--from" else a
        kept = (f"the {other.flag} side's build is kept in {built[other.flag].directory}" if other.flag in built
                else f"the {other.flag} side failed too")
        lines = str(exc).splitlines()
        detail = "\n".join(lines[1:]) if isinstance(exc, BuildError) else ""
        raise SideBuildError(f"the {flag} side (Kubernetes {side.label}) does not build: {lines[0]}; {kept}"
                             + (f"\n{detail}" if detail else ""))
    return built["--from"], built["--to"], seconds


def check_gates(built: Build, feature_gates: str, flag: str) -> None:
    """The build's runner accepts the gates (it parses them as kube-scheduler does); else one line why."""
    if not feature_gates:
        return
    proc = subprocess.run([str(built.runner), f"-feature-gates={feature_gates}", "-test.list=^$"],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["no output"])[0]
        raise ConformanceError(f"--feature-gates {feature_gates}: Kubernetes {built.k8s_version} (the {flag} side) "
                               f"refuses them: {first.split(': ', 1)[-1]}; pin only gates both releases have "
                               f"and do not lock")


def backend_for(built: Build, *, extender_server: Any, feature_gates: str = "") -> Any:
    from ..backends.upstream import UpstreamBackend
    args = (f"-feature-gates={feature_gates}",) if feature_gates else ()
    return UpstreamBackend(runner=built.runner, extender_server=extender_server, runner_args=args)


__all__ = ["Side", "SideBuildError", "backend_for", "check_gates", "build_both", "log", "make_sides"]
