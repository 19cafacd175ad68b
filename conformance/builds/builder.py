"""A scheduler build: the harness module with the user's plugins, built once per set of inputs.

The build directory (outside the user's tree, under the cache) holds a copy of the harness module with
a generated `userplugins/zz_generated.go` (one registration per line), a go.mod that requires the
user's modules (a local one through a `replace`) and pins the Kubernetes release, and `bin/` with the
runner and the probe kube-scheduler. Its name is a hash of every input: the spec, the harness
sources, the Go version and the content of local modules; the second run with the same inputs only
checks that the binaries are there.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..core.progress import say
from .cache import evict, touch
from .coverage import MARKER
from .script import run_build_script
from .spec import BuildSpec, BuildSpecError, GoModule, PluginRegistration

GENERATED = Path("userplugins") / "zz_generated.go"
FACTORY_SIGNATURE = "func(context.Context, runtime.Object, framework.Handle) (framework.Plugin, error)"
# Releases the harness compiles against; harness/build.sh picks each one's build tag (harness/fwk).
SUPPORTED = ("v1.34.", "v1.35.", "v1.36.", "v1.37.")


class BuildError(BuildSpecError):
    """The build failed; the message names the input and the fix, the Go output follows on later lines."""


@dataclass(frozen=True)
class Build:
    directory: Path
    k8s_version: str
    spec: BuildSpec

    @property
    def runner(self) -> Path:
        return self.directory / "bin" / "runner"

    @property
    def kube_scheduler(self) -> Path:
        return self.directory / "bin" / "kube-scheduler"

    def driver(self, *, race: bool = False) -> Path:
        """The plugin driver (harness/driver), built with -race when `race`; built on first use."""
        return self.directory / "bin" / ("driver-race" if race else "driver")


def _log(message: str) -> None:
    say(f"[sched-conformance build] {message}")


def _go(*args: str, cwd: Path, what: str) -> str:
    proc = subprocess.run(["go", *args], cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"{what} failed: {_first_error(proc.stderr)}\n{proc.stderr.strip()}")
    return proc.stdout


_MODULE_ERROR = re.compile(r"\S+@v\S+: (?:reading|verifying|unknown revision|invalid version).*")


def _first_error(output: str) -> str:
    """The first module the proxy could not serve (its line, past the import stack), else the first line."""
    if m := _MODULE_ERROR.search(output):
        return m.group(0).strip()
    lines = [line.strip() for line in output.splitlines() if line.strip() and not line.startswith("go: downloading")]
    return lines[0] if lines else "(no output)"


def pinned_version() -> str:
    match = re.search(r"^\s*k8s\.io/kubernetes\s+(v\S+)", (paths.harness() / "go.mod").read_text(), re.MULTILINE)
    assert match, "harness/go.mod pins k8s.io/kubernetes"
    return match.group(1)


def _required_k8s(go_mod: str) -> str | None:
    """The Kubernetes release a go.mod builds against: k8s.io/kubernetes, else k8s.io/kube-scheduler v0.X.Y."""
    if m := re.search(r"^\s*(?:require\s+)?k8s\.io/kubernetes\s+(v1\.\d+\.\d+)", go_mod, re.MULTILINE):
        return m.group(1)
    if m := re.search(r"^\s*(?:require\s+)?k8s\.io/kube-scheduler\s+v0\.(\d+)\.(\d+)", go_mod, re.MULTILINE):
        return f"v1.{m.group(1)}.{m.group(2)}"
    return None


def _module_go_mod(module: GoModule, cwd: Path) -> str:
    if module.local:
        return (module.directory / "go.mod").read_text()
    info = json.loads(_go("mod", "download", "-json", f"{module.path}@{module.version}", cwd=cwd,
                          what=f"downloading {module.describe()}"))
    return Path(info["GoMod"]).read_text()


def choose_version(spec: BuildSpec, cwd: Path) -> str:
    """--k8s-version, else what the user's modules require, else the pinned release; checked against SUPPORTED."""
    version, source = spec.k8s_version, "--k8s-version"
    if version is None:
        for module in spec.modules:
            if required := _required_k8s(_module_go_mod(module, cwd)):
                version, source = required, f"{module.describe()} (its go.mod)"
                break
    if version is None:
        version, source = pinned_version(), "the harness pin"
    if not version.startswith(SUPPORTED):
        raise BuildSpecError(f"Kubernetes {version} (from {source}) is not a release the probes and runner build "
                             f"against ({', '.join(s + 'x' for s in SUPPORTED)}); pass --k8s-version with one of them")
    return version


def _tree_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "bin" not in p.relative_to(root).parts[:1]
                       and p.name != GENERATED.name and (p.suffix == ".go" or p.name in ("go.mod", "go.sum")
                                                         or p.suffix == ".sh")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_key(spec: BuildSpec, version: str) -> str:
    go_version = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()
    # Local modules count by content, not location: the same module in another checkout (another CI
    # workspace, a copy) is the same build.
    parts = {"version": version, "go": go_version, "harness": _tree_hash(paths.harness()),
             "modules": [m.path if m.local else m.describe() for m in spec.modules],
             "local": {m.path: _tree_hash(m.directory) for m in spec.modules if m.local},
             "plugins": [p.describe() for p in spec.plugins], "imports": list(spec.imports)}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]


def generated_registrations(plugins: tuple[PluginRegistration, ...], side_effects: tuple[str, ...] = ()) -> str:
    """userplugins/zz_generated.go: one assignment per registration, so a Go error's line names it, and a
    blank import per --go-import."""
    packages = sorted({p.package for p in plugins})
    alias = {pkg: f"plugin{i}" for i, pkg in enumerate(packages)}
    imports = "\n".join([f'\t{alias[pkg]} "{pkg}"' for pkg in packages]
                        + [f'\t_ "{pkg}" // --go-import {pkg}' for pkg in side_effects if pkg not in alias])
    body = "\n".join(f'\tRegistry["{p.name}"] = {alias[p.package]}.{p.func} // --go-plugin {p.describe()}'
                     for p in plugins)
    return (f"// Code generated by sched-conformance build; DO NOT EDIT.\n\npackage userplugins\n\n"
            f"import (\n{imports}\n)\n\nfunc init() {{\n{body}\n}}\n")


def _prepare(spec: BuildSpec, version: str, mod: Path) -> None:
    if mod.exists():
        shutil.rmtree(mod)
    shutil.copytree(paths.harness(), mod, ignore=shutil.ignore_patterns("bin", GENERATED.name))
    if version != pinned_version():
        go_directive = re.search(r"^go\s+(\S+)", (paths.harness() / "go.mod").read_text(), re.MULTILINE).group(1)
        (mod / "go.mod").write_text(f"module github.com/kube-scheduler-conformance/harness\n\ngo {go_directive}\n")
        (mod / "go.sum").unlink(missing_ok=True)
        _log(f"pinning Kubernetes {version} (hack/pin-k8s.sh)")
        proc = subprocess.run(["bash", str(mod / "hack" / "pin-k8s.sh"), version.lstrip("v"), str(mod)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError(f"pinning Kubernetes {version} failed: {_first_error(proc.stderr)}; is it a release "
                             f"the Go module proxy serves?\n{proc.stderr.strip()}")
    for module in spec.modules:
        if module.local:
            _go("mod", "edit", f"-require={module.path}@v0.0.0", f"-replace={module.path}={module.directory}",
                cwd=mod, what=f"adding {module.describe()}")
        else:
            _go("mod", "edit", f"-require={module.path}@{module.version}", cwd=mod, what=f"adding {module.describe()}")
    if spec.plugins or spec.imports:
        (mod / GENERATED).write_text(generated_registrations(spec.plugins, spec.imports))
    _log("go mod tidy (resolves your modules' dependencies through the module proxy)")
    try:
        _go("mod", "tidy", cwd=mod, what="go mod tidy")
    except BuildError as exc:
        modules = ", ".join(m.describe() for m in spec.modules) or "the harness"
        raise BuildError(f"resolving {modules} against Kubernetes {version}: {str(exc).splitlines()[0]}; "
                         f"check that the module builds against that release or pass --k8s-version"
                         + "\n" + "\n".join(str(exc).splitlines()[1:])) from None


def _explain(output: str, spec: BuildSpec, mod: Path) -> str:
    """One line for a failed compile: the registration whose generated line failed, else the first error."""
    lines = (mod / GENERATED).read_text().splitlines() if (mod / GENERATED).exists() else []
    for m in re.finditer(rf"{re.escape(GENERATED.as_posix())}:(\d+):\d+: (.*)", output):
        line = lines[int(m.group(1)) - 1] if int(m.group(1)) <= len(lines) else ""
        for reg in spec.plugins:
            if f"--go-plugin {reg.describe()}" in line:
                return (f"--go-plugin {reg.describe()}: {m.group(2)}; a plugin factory is {FACTORY_SIGNATURE} "
                        f"(frameworkruntime.PluginFactory)")
    modules = ", ".join(m.describe() for m in spec.modules) or "the harness"
    errors = [ln.strip() for ln in output.splitlines() if re.search(r"\.go:\d+:\d+: ", ln)]
    return f"compiling with {modules} failed: {errors[0] if errors else _first_error(output)}"


def build(spec: BuildSpec, *, control_plane: bool = False, driver: bool = False, race_driver: bool = False) -> Build:
    """The build for `spec`, made now (progress on the progress sink) or taken from the cache; `control_plane`,
    `driver` and `race_driver` add kube-apiserver and etcd, or the plugin driver (check-plugin), plain or with
    -race. A failed new build leaves nothing in the cache."""
    start = time.monotonic()
    root = paths.builds()
    root.mkdir(parents=True, exist_ok=True)
    version = choose_version(spec, root)
    directory = root / cache_key(spec, version)
    result = Build(directory=directory, k8s_version=version, spec=spec)
    done = directory / "built.json"
    bin_dir = directory / "bin"
    extras = [flag for flag, wanted, binary in (("--driver", driver, result.driver()),
                                                ("--race-driver", race_driver, result.driver(race=True)),
                                                ("--control-plane", control_plane, bin_dir / "kube-apiserver"))
              if wanted and not binary.is_file()]
    mod = directory / "mod"
    covered = sorted({p.package for p in spec.plugins})  # the user's plugin packages, instrumented
    cached = done.is_file() and result.runner.is_file() and result.kube_scheduler.is_file()
    if cached and not extras:  # silent: a cache hit is not slow work (`sched-conformance cache list` shows it)
        touch(directory)
        return result
    try:
        if cached:
            _log(f"adding {' and '.join(f[2:] for f in extras)} to the cached build {directory}")
            for module in spec.modules:  # the cached build may come from a copy of the module elsewhere
                if module.local:
                    _go("mod", "edit", f"-replace={module.path}={module.directory}", cwd=mod,
                        what=f"pointing the build at {module.describe()}")
        else:
            plugins = ", ".join(p.describe() for p in spec.plugins) or "no plugins of your own"
            _log(f"building Kubernetes {version} with {plugins} in {directory}")
            _prepare(spec, version, mod)
        cover = ["--cover", ",".join(covered)] if covered else []  # builds/coverage.py reports on them
        code, text = run_build_script(["bash", paths.harness() / "build.sh", "--mod", mod, "--out", bin_dir, *extras,
                                       *cover], prefix="sched-conformance build")
        if code != 0:
            raise BuildError(f"{_explain(text, spec, mod)}\n{text.strip()}")
    except BaseException:
        if not cached:
            shutil.rmtree(directory, ignore_errors=True)
        raise
    if covered:
        (bin_dir / MARKER).write_text("\n".join(covered) + "\n")
    done.write_text(json.dumps({"k8sVersion": version, "modules": [m.describe() for m in spec.modules],
                                "plugins": [p.describe() for p in spec.plugins], "imports": list(spec.imports)},
                               indent=2))
    touch(directory)
    _log(f"built in {time.monotonic() - start:.0f} s")
    evict(keep=directory)
    return result


__all__ = ["Build", "BuildError", "FACTORY_SIGNATURE", "build", "cache_key", "choose_version",
           "generated_registrations", "pinned_version"]
