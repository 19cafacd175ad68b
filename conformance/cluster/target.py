"""Which cluster `--backend cluster` talks to: the local control plane, a kind cluster, or a kubeconfig.

The pytest plugin and `sched-conformance run` pass their options here (through `make_backend`):

- `--kubeconfig`/`--context`: that cluster (safety check, `--scheduler-name`, no probes);
- `--cluster kind`: a kind cluster on the offline node image (kind.py), created or reused, whose own
  kube-scheduler (the probe build) runs each scenario's config (kind_scheduler.py); with
  `--scheduler-name`, its scheduler as it is (outcome-level only); or a one-line error naming what is missing;
- `--cluster local`, or none of these: the local control plane from harness/bin. One that runs
  already (`sched-conformance cluster up`, state in `$SCHED_CONFORMANCE_STATE`) is reused and left
  running; one this session starts dies with it and is stopped when the backend closes.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.errors import BackendUnavailable
from .backend import ClusterBackend
from .controlplane import ControlPlane

CLUSTERS = ("local", "kind")


def check_options(*, cluster: str | None = None, kubeconfig: str | None = None, context: str | None = None,
                  scheduler_name: str | None = None) -> None:
    """Raise BackendUnavailable naming the first pair of options that cannot go together."""
    if cluster is not None and cluster not in CLUSTERS:
        raise BackendUnavailable(f"--cluster {cluster!r} is unknown; use one of {', '.join(CLUSTERS)}")
    if cluster and (kubeconfig or context):
        given = "--kubeconfig" if kubeconfig else "--context"
        raise BackendUnavailable(f"--cluster {cluster} picks its own kubeconfig; drop {given} or --cluster")
    if cluster == "local" and scheduler_name:
        raise BackendUnavailable("--scheduler-name is for a cluster's own scheduler; the local control plane "
                                 "runs the scenario's profiles, so drop --scheduler-name or use --kubeconfig")


def open_backend(*, cluster: str | None = None, kubeconfig: str | None = None, context: str | None = None,
                 scheduler_name: str | None = None, allow_any_cluster: bool = False, fresh_scheduler: bool = False,
                 extender_server: Any = None, progress: Callable[[str], None] | None = None,
                 control_plane: ControlPlane | None = None, ensure_kind: Callable[[], tuple[str, str]] | None = None,
                 scheduler_binary: str | None = None, crds: tuple[Any, ...] = ()) -> ClusterBackend:
    """A ClusterBackend for the options; `control_plane` and `ensure_kind` replace the defaults in tests.
    `scheduler_binary`: the local control plane runs this kube-scheduler (the user's build). `crds`: CRD
    files installed for the run."""
    check_options(cluster=cluster, kubeconfig=kubeconfig, context=context, scheduler_name=scheduler_name)
    if scheduler_binary and (kubeconfig or context or cluster == "kind"):
        raise BackendUnavailable("your scheduler build runs on the local control plane only; on another cluster, "
                                 "deploy your binary (built with probeapp, docs/own-scheduler.md) and pass "
                                 "--scheduler-name, without --go-module/--go-plugin")
    common: dict[str, Any] = dict(extender_server=extender_server, fresh_scheduler=fresh_scheduler, progress=progress)
    if crds:
        common["crds"] = crds
    if cluster == "kind":
        from .kind import default_name, ensure_cluster
        from .kind_scheduler import KindScheduler, gateway
        if ensure_kind is None:
            # A cluster made for this session alone is deleted when it ends; one that was up is kept.
            ensure_kind = lambda: ensure_cluster(progress=progress, tied=True)  # noqa: E731
        kubeconfig, context = ensure_kind()
        if not scheduler_name:
            # The node's kube-scheduler is the probe build: driven per scenario, like the local one.
            name = context.removeprefix("kind-") if context else default_name()
            return ClusterBackend(kubeconfig=kubeconfig, context=context, allow_any_cluster=allow_any_cluster,
                                  cluster_scheduler=lambda kube: KindScheduler(name, kube, progress=progress),
                                  collector_host=gateway(), **common)
    if kubeconfig or context or cluster == "kind":
        return ClusterBackend(kubeconfig=kubeconfig, context=context, scheduler_name=scheduler_name,
                              allow_any_cluster=allow_any_cluster, **common)
    cp = control_plane or ControlPlane(scheduler_binary=scheduler_binary)
    if cp.running():
        return ClusterBackend(control_plane=cp, **common)
    # Started here: tied to this process (a killed session leaves no control plane behind).
    cp = ControlPlane(cp.state, binaries=cp.bin_dir, progress=progress, tied=True, scheduler_binary=cp.scheduler_binary)
    try:
        backend = ClusterBackend(control_plane=cp, stop_control_plane=True, **common)
    except BaseException:
        cp.down()
        raise
    backend.notes.append("started the local control plane for this session (stopped at the end); "
                         "`sched-conformance cluster up` keeps one running between sessions")
    return backend


__all__ = ["CLUSTERS", "check_options", "open_backend"]
