"""The offline kind node image: built by kind-node/build-image.sh, reused while its inputs are unchanged.

The script does the work (debootstrap, control-plane images, containerd preload); this module runs it
with its progress lines passed on, and turns a failure into one line naming the cause and the fix.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

from ..core.errors import BackendUnavailable
from .state import bin_dir

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "kind-node"
BUILD_SCRIPT = NODE_DIR / "build-image.sh"
DOCKER_SETUP = NODE_DIR / "docker-setup.sh"
IMAGE_REPOSITORY = "sched-conformance/kind-node"
BUILD_HINT = "harness/build.sh --control-plane --kind"


def is_ours(image: str) -> bool:
    """Was this node image made by build_image? (How a cluster of ours is told from somebody else's.)"""
    return image.startswith(IMAGE_REPOSITORY + ":")


def build_image(*, binaries: Path | None = None, progress: Callable[[str], None] | None = None,
                force: bool = False) -> str:
    """The node image's tag, built now unless an image of the same inputs exists."""
    say = progress or (lambda _line: None)
    argv = [str(BUILD_SCRIPT), "--bin", str(binaries or bin_dir())] + (["--force"] if force else [])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
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


__all__ = ["BUILD_HINT", "DOCKER_SETUP", "IMAGE_REPOSITORY", "build_image", "is_ours"]
