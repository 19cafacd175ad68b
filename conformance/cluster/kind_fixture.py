"""pytest-kind's `kind_cluster` fixture on the suite's offline kind cluster (`--conformance-kind-fixture`).

The suite's plugin registers this module when the option is given, after pytest-kind has registered its own
plugin, so this `kind_cluster` is the one tests get. It is the cluster `--conformance-cluster kind` uses
(kind.open_cluster: kind, kubectl and node image built here, ours-or-not, the watchdog), as pytest-kind's
`KindCluster`; pytest-kind's `--cluster-name` and `--keep-cluster` keep their meaning.
"""

from __future__ import annotations

from typing import Iterator

import pytest

PYTEST_KIND_DEFAULT_NAME = "pytest-kind"  # pytest-kind's --cluster-name default: here, the suite's cluster
# pytest-kind's options that pick another kind, kubectl, image or kubeconfig: this fixture has its own.
OWN = {"kind_bin": "--kind-bin", "kind_kubectl_bin": "--kind-kubectl-bin", "kind_image": "--kind-image",
       "kubeconfig": "--kubeconfig"}


def conflicting_option(config: pytest.Config) -> str | None:
    """The first of pytest-kind's options given that this fixture cannot honour, as the user typed it."""
    return next((flag for dest, flag in OWN.items() if config.getoption(dest, None)), None)


@pytest.fixture(scope="session")
def kind_cluster(request: pytest.FixtureRequest) -> Iterator[object]:
    """The suite's kind cluster as pytest-kind's KindCluster: created (and deleted at the end, unless
    --keep-cluster) when it is not up, else reused and left up."""
    from ..core.errors import BackendUnavailable
    from ..core.progress import say
    from . import kind
    name = request.config.getoption("cluster_name")
    keep = request.config.getoption("keep_cluster")
    try:
        cluster, created = kind.open_cluster(None if name == PYTEST_KIND_DEFAULT_NAME else name, progress=say,
                                             tied=not keep)
    except BackendUnavailable as exc:
        raise pytest.fail.Exception(f"sched-conformance: {exc}", pytrace=False) from None  # one line, no chain
    yield cluster
    if created and not keep:
        cluster.delete()


__all__ = ["conflicting_option", "kind_cluster"]
