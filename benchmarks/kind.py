"""The kind path, measured in one run: node image build (cold and cached), cluster create, and scenarios/s
of the same scenarios on kind, on the local control plane, and in process (upstream runner, reference).

    PYTHONPATH=. python benchmarks/kind.py [--cold] [--per-invariant 2] [--name sc-bench]

Needs Docker (kind-node/docker-setup.sh) and `harness/build.sh --control-plane --kind`.
--cold removes the node image and the debootstrapped base image first, so the build starts from the
Debian mirror (the Go binaries are not rebuilt: `harness/build.sh` prints their own times). The
cluster is created for the run and deleted at the end (a watchdog deletes it if the run is killed).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from benchmarks.backends import ci_scenarios, timed  # noqa: E402 - after the path fix above
from conformance.backends.reference import ReferenceBackend  # noqa: E402
from conformance.backends.upstream import UpstreamBackend  # noqa: E402
from conformance.cluster import kind, kind_image  # noqa: E402
from conformance.cluster.target import open_backend  # noqa: E402
from conformance.extender.server import ExtenderServer  # noqa: E402


def _images(repository: str) -> list[str]:
    out = subprocess.run(["docker", "image", "ls", repository, "--format", "{{.Repository}}:{{.Tag}}"],
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="remove the node and base images first")
    parser.add_argument("--per-invariant", type=int, default=2, help="ci examples per invariant")
    parser.add_argument("--name", default="sc-bench", help="the kind cluster's name (must not exist)")
    args = parser.parse_args()
    reason = kind.unavailable_reason()
    if reason:
        sys.exit(f"benchmarks/kind.py: {reason}")
    if kind.check_ours(args.name):
        sys.exit(f"benchmarks/kind.py: kind cluster {args.name} exists; pick another --name or "
                 f"`sched-conformance cluster down --cluster kind --kind-name {args.name}`")
    if args.cold:
        old = _images(kind_image.IMAGE_REPOSITORY) + _images("sched-conformance/kind-base")
        if old:
            subprocess.run(["docker", "rmi", *old], capture_output=True, check=False)
    start = time.monotonic()
    image = kind_image.build_image(progress=lambda line: print(f"  {line}", flush=True))
    first = time.monotonic() - start
    start = time.monotonic()
    kind_image.build_image()
    cached = time.monotonic() - start
    print(f"node image build: {first:.1f} s ({'cold: debootstrap included' if args.cold else 'as found'}), "
          f"{cached:.1f} s cached (inputs hashed, image reused)", flush=True)

    start = time.monotonic()
    kind.ensure_cluster(args.name, tied=True, build=lambda **_: image)
    print(f"kind cluster create: {time.monotonic() - start:.1f} s", flush=True)
    try:
        with ExtenderServer() as server:
            reference = ReferenceBackend(extender_server=server)
            items = [s for s in ci_scenarios(reference, args.per_invariant)
                     if not (s.config or {}).get("extenders")]  # a kind node cannot reach the extender server
            print(f"{len(items)} ci-profile scenarios ({args.per_invariant} per invariant, without extenders)")
            upstream = UpstreamBackend(extender_server=server)
            os.environ[kind.NAME_ENV] = args.name
            local = open_backend(extender_server=server)
            on_kind = open_backend(cluster="kind", extender_server=server)
            try:
                for label, backend in (("reference (in process)", reference), ("upstream runner (in process)", upstream),
                                       ("local control plane", local), ("kind", on_kind)):
                    seconds, _ = timed(backend.run, items)
                    print(f"{label}: {len(items) / sum(seconds):.2f} scenarios/s "
                          f"({sum(seconds):.1f} s for {len(items)})", flush=True)
            finally:
                for backend in (upstream, local, on_kind):
                    backend.close()
    finally:
        kind.delete(args.name)


if __name__ == "__main__":
    main()
