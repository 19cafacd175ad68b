"""The package as a user gets it: a wheel built from this checkout, installed into a fresh virtualenv
outside it. Tests that run the documented commands run them with this environment's `sched-conformance`,
from a project directory that is not the checkout, so nothing can lean on the checkout's layout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path

    @property
    def cli(self) -> Path:
        return self.venv / "bin" / "sched-conformance"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment a user's shell has: the venv first on PATH, nothing of this checkout on PYTHONPATH."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "SCHED_CONFORMANCE_BIN")}
        return {**env, "PATH": f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(self.venv),
                **extra}

    def project(self, name: str, *, examples: bool = True) -> Path:
        """A new user's project directory, outside the checkout (pytest would find the checkout's pyproject.toml
        above a directory inside it, and its `pythonpath` would shadow the installed package), with a copy of
        this checkout's examples/ (the docs' paths resolve there)."""
        directory = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.venv.parent))
        if examples and not (directory / "examples").exists():
            shutil.copytree(ROOT / "examples", directory / "examples",
                            ignore=shutil.ignore_patterns("__pycache__", ".sched-conformance"))
        return directory


def install(workdir: Path) -> Installed:
    """Build the wheel (`pip wheel`, as `python -m build` would) and install it into a new virtualenv, both in
    `workdir` (outside the checkout)."""
    dist = workdir / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True, cwd=workdir)
    wheel = next(dist.glob("kube_scheduler_conformance-*.whl"))
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                   check=True, capture_output=True, text=True, cwd=workdir)
    return Installed(wheel, venv)
