"""The differential property test: with `--compare B`, the backend and B run the same scenarios and
must agree where upstream is deterministic (conformance/differential/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.core import scenario_config
from conformance.reporting import reproducer
from conformance.differential import (DIFFERENTIAL, FAULT_SHARE, TIMELINE_SHARE, fault_scenarios_for,
                                      find_disagreement, scenarios_for, timeline_scenarios_for)
from conformance.pytest_plugin import flag, reproducers_dir
from conformance.search import for_profile
from conformance.reporting.pytest_failure import fail
from conformance.reporting.report import describe_failure
from reference.faults import OPS as FAULT_OPS

from ._scenarios import for_backends

_FAULT_CAPABILITIES = {f"fault-{op}" for op in FAULT_OPS}


@pytest.mark.conformance
def test_differential(conformance, request: pytest.FixtureRequest) -> None:
    other_name = request.config.getoption("conformance_compare")
    if not other_name:
        pytest.skip(f"no second backend; pass {flag(request.config, 'conformance_compare')} BACKEND")
    backend, other = conformance.backend(), conformance.backend(other_name)
    for b in (backend, other):
        missing = DIFFERENTIAL.requires - set(b.capabilities)
        if missing:
            pytest.skip(f"backend {b.name} lacks capability {', '.join(sorted(missing))}")
    base = conformance.base_config()
    unknown = sorted(scenario_config.unknown_plugins(base.config)) if base is not None else []
    if unknown and "reference" in (backend.name, other.name):
        pytest.skip(f"the reference does not implement {', '.join(unknown)} (your config's out-of-tree plugins): "
                    "nothing to compare with")
    extenders = all("extenders" in b.capabilities for b in (backend, other))
    # Without creation-order (a cluster: the informer's timing decides which of two equal-priority
    # pods pops first), the order of the workload is itself an open choice: one pod per scenario.
    max_pods = 4 if all("creation-order" in b.capabilities for b in (backend, other)) else 1
    profile = request.config.getoption("conformance_profile")
    max_examples = request.config.getoption("conformance_max_examples")
    strategies = [(scenarios_for(extenders=extenders, max_pods=max_pods, base=base), max_examples)]
    # Then timelines, in a search of their own: the scenarios without them stay the draws they were. On a
    # wall clock (a cluster) every event waits for idle, so that none races a cycle at a drawn second.
    share = max(1, (max_examples or for_profile(profile).max_examples) // TIMELINE_SHARE)
    wall_clock = not all("virtual-time" in b.capabilities for b in (backend, other))
    strategies.append((timeline_scenarios_for(extenders=extenders, max_pods=min(max_pods, 3), base=base,
                                              idle_only=wall_clock), share))
    # Then faults, on virtual time only (a fault on a wall clock is checked by the invariants alone), where
    # both backends inject them: for_backends strips the kinds one of them cannot.
    if not wall_clock and all(_FAULT_CAPABILITIES & set(b.capabilities) for b in (backend, other)):
        count = max(1, (max_examples or for_profile(profile).max_examples) // FAULT_SHARE)
        strategies.append((fault_scenarios_for(extenders=extenders, max_pods=min(max_pods, 3), base=base), count))
    failure = None
    for strategy, count in strategies:
        strategy = for_backends(strategy, [backend, other], objects=conformance.objects_hook(),
                                domain=conformance.domain())
        failure = find_disagreement(backend, other, strategy, profile=profile, max_examples=count)
        if failure is not None:
            break
    if failure is None:
        reproducer.remove_stale(Path(request.config.getoption("conformance_reproducers"))
                                / reproducer.slug(f"differential-{other_name}"),
                                invariant=DIFFERENTIAL.id, backend=conformance.backend_name, compare=other_name)
        return
    directory = reproducers_dir(request.config) / reproducer.slug(f"differential-{other_name}")
    reproducer.write(directory, failure.scenario, invariant=DIFFERENTIAL.id, backend=conformance.backend_name,
                     message=str(failure.violation), root=request.config.invocation_params.dir,
                     **conformance.reproducer_options())
    meta = directory / reproducer.META
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "compare": other_name}, indent=2) + "\n")
    fail(describe_failure(failure, directory, conformance.backend_name))
