"""`sched-conformance cluster up|down|status` and `sched-conformance cleanup`.

The main CLI adds these with `register(subparsers)`; each handler returns an exit status and
prints errors as one line naming the fix.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from ..core.errors import ConformanceError
from . import cleanup
from .controlplane import ControlPlane
from .kube import Kube
from .kubeconfig import read_target
from .safety import ensure_test_cluster
from .state import StateDir


def _state(args: argparse.Namespace) -> StateDir:
    return StateDir(Path(args.state)) if args.state else StateDir.default()


def _guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except ConformanceError as exc:
            print(f"sched-conformance: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("sched-conformance: interrupted (what it had started is removed)", file=sys.stderr)
            return 130
    return run


def _say(msg: str) -> None:
    print(msg, flush=True)


def _kind_docker(args: argparse.Namespace) -> None:
    """Docker for kind: set up by kind-node/docker-setup.sh when --install-docker allows it, else the command."""
    from . import kind
    from .kind_image import docker_setup
    reason = kind.unavailable_reason()
    if reason is None or "kind is not built" in reason:
        return
    if not args.install_docker:
        raise ConformanceError(f"{reason}; or pass --install-docker (as root) to let this command do it")
    if os.geteuid() != 0:
        raise ConformanceError(f"{reason}; --install-docker needs root: sudo bash {docker_setup()} --install")
    if subprocess.run(["bash", str(docker_setup()), "--install"], check=False).returncode != 0:
        raise ConformanceError(f"{docker_setup()} --install failed (its last line above names the cause)")


def _kind_up(args: argparse.Namespace) -> int:
    from . import kind
    args.kind_name = args.kind_name or kind.default_name()
    _kind_docker(args)
    start = time.monotonic()
    kubeconfig, context = kind.ensure_cluster(args.kind_name, state=_state(args), progress=_say)
    named = "" if args.kind_name == kind.DEFAULT_NAME else f" and ${kind.NAME_ENV}={args.kind_name}"
    print(f"kind cluster {args.kind_name} up in {time.monotonic() - start:.1f} s; use it with --cluster kind{named} "
          f"(or --kubeconfig {kubeconfig} --context {context}); `sched-conformance cluster down --cluster kind"
          f"{'' if args.kind_name == kind.DEFAULT_NAME else ' --kind-name ' + args.kind_name}` removes it")
    return 0


@_guard
def _up(args: argparse.Namespace) -> int:
    if args.cluster == "kind":
        return _kind_up(args)
    start = time.monotonic()
    cp = ControlPlane(_state(args), binaries=args.bin_dir, apiserver_port=args.port, progress=_say)
    status = cp.up(start_scheduler=not args.no_scheduler)
    print("\n".join(status.lines()))
    print(f"up in {time.monotonic() - start:.1f} s; use it with --kubeconfig {status.kubeconfig}")
    return 0


@_guard
def _down(args: argparse.Namespace) -> int:
    if args.cluster == "kind":
        from . import kind
        args.kind_name = args.kind_name or kind.default_name()
        for line in kind.delete(args.kind_name, state=_state(args)) or [f"no kind cluster {args.kind_name}"]:
            print(line)
        return 0
    for line in ControlPlane(_state(args), binaries=args.bin_dir).down():
        print(line)
    return 0


@_guard
def _status(args: argparse.Namespace) -> int:
    if args.cluster == "kind":
        from . import kind
        args.kind_name = args.kind_name or kind.default_name()
        nodes = kind.node_images(args.kind_name) if kind.check_ours(args.kind_name) else {}
        for container, image in sorted(nodes.items()):
            print(f"kind node {container} ({image})")
        print(f"kind cluster {args.kind_name} {'up' if nodes else 'not running'}")
        return 0 if nodes else 1
    status = ControlPlane(_state(args), binaries=args.bin_dir).status()
    print("\n".join(status.lines()))
    return 0 if status.ready else 1


@_guard
def _cleanup(args: argparse.Namespace) -> int:
    cp = ControlPlane(_state(args))
    local = not args.kubeconfig and not args.context and cp.running()
    kubeconfig = str(cp.kubeconfig) if local else args.kubeconfig
    target = read_target(kubeconfig, args.context)
    reason = ensure_test_cluster(target, allow_any_cluster=args.allow_any_cluster)
    print(f"cleaning context {target.context} at {target.server} ({reason})")
    kube = Kube.connect(target.path, target.context)
    try:
        found = cleanup.find(kube, args.run_id)
        if args.stale_only:
            removed = cleanup.sweep(kube, finalize=local)
        else:
            removed = cleanup.remove(kube, found, finalize=local)
        for line in removed:
            print(line)
        left = cleanup.wait_gone(kube, args.run_id, args.wait) if args.wait and not args.stale_only else []
    finally:
        kube.close()
    print(f"removed {len(removed)} object(s)" + (f"; {len(left)} still terminating" if left else ""))
    return 1 if left else 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `cluster up|down|status` and `cleanup` to the main CLI's subparsers."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--state", metavar="DIR", help="state directory (default $SCHED_CONFORMANCE_STATE or "
                                                        "~/.cache/sched-conformance/cluster)")
    common.add_argument("--bin-dir", metavar="DIR", help="where etcd, kube-apiserver, kube-scheduler are "
                                                         "(default $SCHED_CONFORMANCE_BIN or harness/bin)")
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--cluster", choices=("local", "kind"), default="local",
                        help="local: etcd + kube-apiserver + kube-scheduler on this machine (default); kind: a kind "
                             "cluster on the offline node image (kind-node/), whose kube-scheduler is the probe build")
    where.add_argument("--kind-name", default=None, metavar="NAME",
                       help="the kind cluster's name (default $SCHED_CONFORMANCE_KIND_NAME or sched-conformance)")
    cluster = subparsers.add_parser("cluster", help="the cluster the suite runs against: the local control plane "
                                                    "or a kind cluster")
    sub = cluster.add_subparsers(dest="cluster_command", required=True)
    up = sub.add_parser("up", parents=[common, where], help="start (or find running) and write a kubeconfig")
    up.add_argument("--port", type=int, help="kube-apiserver port on 127.0.0.1 (default: a free one)")
    up.add_argument("--no-scheduler", action="store_true", help="start etcd and the apiserver only")
    up.add_argument("--install-docker", action="store_true",
                    help="with --cluster kind, as root: install/start Docker and its runtime wrapper if needed "
                         "(kind-node/docker-setup.sh)")
    up.set_defaults(run=_up)
    sub.add_parser("down", parents=[common, where], help="stop everything (fine if nothing runs)").set_defaults(run=_down)
    sub.add_parser("status", parents=[common, where], help="what runs, where, and the log paths").set_defaults(run=_status)
    clean = subparsers.add_parser("cleanup", parents=[common],
                                  help="remove everything the suite created on a cluster, and nothing else")
    clean.add_argument("--kubeconfig", help="default: the local control plane if it runs, else $KUBECONFIG")
    clean.add_argument("--context")
    clean.add_argument("--allow-any-cluster", action="store_true",
                       help="also on a context that does not look like a test cluster")
    clean.add_argument("--run", dest="run_id", metavar="ID", help="only this run's objects")
    clean.add_argument("--stale-only", action="store_true",
                       help="only runs whose process is gone or that are older than 3 hours")
    clean.add_argument("--wait", type=float, default=60.0, metavar="SECONDS",
                       help="wait this long for namespaces to finish terminating (default 60)")
    clean.set_defaults(run=_cleanup)


__all__ = ["register"]
