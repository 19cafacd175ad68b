"""The local control plane for the live tests: started once per session, in a temporary state dir."""

import time

import pytest

from conformance.cluster.controlplane import ControlPlane
from conformance.cluster.state import BUILD_HINT, StateDir, bin_dir

NEEDED = ("etcd", "kube-apiserver", "kube-scheduler")


def _missing() -> list[str]:
    return [name for name in NEEDED if not (bin_dir() / name).is_file()]


@pytest.fixture(scope="session")
def control_plane(tmp_path_factory):
    missing = _missing()
    if missing:
        pytest.skip(f"{', '.join(missing)} not built in {bin_dir()}; run `{BUILD_HINT}`")
    cp = ControlPlane(StateDir(tmp_path_factory.mktemp("control-plane")), tied=True)
    start = time.monotonic()
    try:
        cp.up()
    except Exception:
        cp.down()
        raise
    cp.measured_start = time.monotonic() - start
    yield cp
    cp.down()
