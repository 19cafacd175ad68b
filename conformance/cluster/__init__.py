"""The `cluster` backend and the local control plane (docs: kind-configs/README.md, ARCHITECTURE.md).

- `ControlPlane`: etcd + kube-apiserver + kube-scheduler on 127.0.0.1 (`cluster up|down|status`).
- `ClusterBackend`: runs scenarios against the local control plane or any kubeconfig context.
- `register`: adds `cluster up|down|status` and `cleanup` to the main CLI.
"""

from .backend import ClusterBackend
from .cli import register
from .collector import TraceCollector
from .controlplane import ControlPlane
from .state import StateDir

__all__ = ["ClusterBackend", "ControlPlane", "StateDir", "TraceCollector", "register"]
