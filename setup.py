"""Packaging beyond pyproject.toml: the Go and image sources go into the wheel.

The harness Go module (probes, runner, plugin driver, build.sh), the kind node image's build and the kind
configs live beside the Python packages in a checkout; an installed package finds them in
`conformance/_sources` (conformance/paths.py), where build_py copies them. Build output (harness/bin) and
caches stay out. An editable install reads the checkout's directories directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE_DIRS = ("harness", "kind-node", "kind-configs")  # conformance/paths.py SOURCE_DIRS
EXCLUDED = shutil.ignore_patterns("bin", "__pycache__", "*.pyc", ".mod-*")


class BuildPyWithSources(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "conformance" / "_sources"
        for name in SOURCE_DIRS:
            if (target / name).exists():
                shutil.rmtree(target / name)
            shutil.copytree(Path(name), target / name, ignore=EXCLUDED)


setup(cmdclass={"build_py": BuildPyWithSources})
