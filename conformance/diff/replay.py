"""Replay a diff's reproducer: on both sides, compared (exit 1 when the difference is still there), or on one
side, shown: `--version` picks the side of that release (or builds that release with the --from side's
modules), `--side` picks a side (and with `--version`, that release with its modules)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from reference.scenario import Scenario

from ..builds import build
from ..core.errors import ConformanceError
from ..reporting import reproducer
from . import versions
from .compare import differences, run_side
from .groups import cause_key
from .report import outcome_text, side_by_side
from .sides import backend_for


def replay(directory: str, scenario: Scenario, meta: dict[str, Any], version: str | None,
           side: str | None = None) -> int:
    from ..extender.server import ExtenderServer
    sides = meta.get("sides") or {}
    if set(sides) != {"from", "to"}:
        raise ConformanceError(f"{directory}/meta.json: no `sides` with from and to; pass a directory written by "
                               f"`sched-conformance diff --report`")
    specs = {name: reproducer.load_own_scheduler(Path(directory) / side["ownScheduler"])
             for name, side in sides.items()}
    gates = str(meta.get("featureGates") or "")
    with ExtenderServer() as server:
        if version or side:
            wanted = versions.check("--version", version) if version else None
            name = side or next((n for n, s in specs.items() if s.k8s_version == wanted), "from")
            spec = replace(specs[name], k8s_version=wanted or specs[name].k8s_version)
            backend = backend_for(build(spec), extender_server=server, feature_gates=gates)
            try:
                result = run_side(backend, scenario)
            finally:
                backend.close()
            print(f"Kubernetes {spec.k8s_version} with the --{name} side's modules ({sides[name]['label']}) "
                  f"on {directory}:")
            print(outcome_text(result, scenario.workload_keys()))
            return 0
        backends = [backend_for(build(specs[n]), extender_server=server, feature_gates=gates) for n in ("from", "to")]
        try:
            results = [run_side(b, scenario) for b in backends]
        finally:
            for b in backends:
                b.close()
    found = differences(*results)
    print(side_by_side(*results, scenario.workload_keys(), limit=400))
    if not found:
        print(f"{sides['from']['label']} and {sides['to']['label']} agree on {directory}: the difference does not "
              f"reproduce")
        return 0
    print(f"REPRODUCED ({sides['from']['label']} -> {sides['to']['label']}): {cause_key(found[0])}"
          + ("" if cause_key(found[0]) == meta.get("group") else f" (recorded as {meta.get('group')})"))
    return 1


__all__ = ["replay"]
