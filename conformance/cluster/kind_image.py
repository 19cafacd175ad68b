"""The offline kind node image: built by kind-node/build-image.sh, reused while its inputs are unchanged.

The script does the work (debootstrap, control-plane images, containerd preload); this module runs it
with its progress lines passed on, and turns a failure into one line naming the cause and the fix.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

from .. import paths
from ..core.errors import BackendUnavailable
from .state import bin_dir

IMAGE_REPOSITORY = "sched-conformance/kind-node"


def docker_setup() -> Path:
    """kind-node/docker-setup.sh: installs or checks Docker for kind (the script says what it changes)."""
    return paths.kind_node() / "docker-setup.sh"


def docker_setup_command() -> str:
    """How to run docker-setup.sh, for a message: relative to the checkout, else its path in the cache."""
    root = paths.checkout()
    return str(docker_setup().relative_to(root)) if root is not None else f"bash {docker_setup()}"


def is_ours(image: str) -> bool:
    """Was this node image made by build_image? (How a cluster of ours is told from somebody else's.)"""
    return image.startswith(IMAGE_REPOSITORY + ":")


def build_image(*, binaries: Path | None = None, progress: Callable[[str], None] | None = None,
                force: bool = False) -> str:
    """The node image's tag, built now unless an image of the same inputs exists."""
    say = progress or (lambda _line: None)
    if binaries is None:
        from ..builds.stock import stock_binary
        stock_binary("kubelet")  # the node's binaries, built now if missing (with the control plane's)
    argv = ["bash", str(paths.kind_node() / "build-image.sh"), "--bin", str(binaries or bin_dir())] + \
        (["--force"] if force else [])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=paths.sources())
    assert proc.stderr is not None and proc.stdout is not None
    last = ""
    try:
        for line in proc.stderr:
            line = line.rstrip()
            if line.startswith("build-image: ") or (line and not last.startswith("build-image: ")):
                last = line  # the script's own error line names the cause; its trap's line follows it
            if line:
                say(line)
        tag = proc.stdout.read().strip()
        code = proc.wait()
    except BaseException:
        # Ctrl-C: the script's own trap removes its container and intermediate images.
        proc.terminate()
        proc.wait()
        raise
    if code != 0 or not tag:
        raise BackendUnavailable(f"the kind node image build failed: {last.removeprefix('build-image: ')}")
    return tag.splitlines()[-1]


__all__ = ["IMAGE_REPOSITORY", "build_image", "docker_setup", "docker_setup_command", "is_ours"]
