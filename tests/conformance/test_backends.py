"""Backend selection by name, including a user's `python:` factory."""

from __future__ import annotations

import pytest

from conformance.backends import make_backend
from conformance.backends.reference import ReferenceBackend
from conformance.core.errors import BackendUnavailable


class _Plain:
    name = "plain"
    capabilities = frozenset({"probes"})
    kubernetes_version = "v0"

    def __init__(self, **options):
        self.options = options

    def run(self, scenario):
        raise NotImplementedError

    def close(self):
        pass


def no_arguments():
    return _Plain()


def with_server(*, extender_server=None):
    return _Plain(extender_server=extender_server)


def with_anything(**options):
    return _Plain(**options)


def not_a_backend():
    return object()


def unknown_capability():
    backend = _Plain()
    backend.capabilities = frozenset({"teleport"})
    return backend


HERE = __name__


def test_reference_by_name() -> None:
    assert isinstance(make_backend("reference"), ReferenceBackend)


@pytest.mark.parametrize("factory, expected", [
    ("no_arguments", {}), ("with_server", {"extender_server": "srv"}), ("with_anything", {"extender_server": "srv"}),
])
def test_python_factory_gets_only_the_options_it_declares(factory, expected) -> None:
    backend = make_backend(f"python:{HERE}:{factory}", extender_server="srv")
    assert backend.options == expected


@pytest.mark.parametrize("spec, message", [
    ("nosuch", "backend 'nosuch' is unknown"),
    ("python:nosuchmodule_xyz:f", "cannot import 'nosuchmodule_xyz'"),
    (f"python:{HERE}", "needs the form python:package.module:factory"),
    (f"python:{HERE}:missing", "has no callable 'missing'"),
    (f"python:{HERE}:not_a_backend", "lacks name, capabilities, run, close"),
    (f"python:{HERE}:unknown_capability", "unknown capability 'teleport'"),
])
def test_a_backend_that_cannot_start_says_why_in_one_line(spec, message) -> None:
    with pytest.raises(BackendUnavailable, match=message) as info:
        make_backend(spec)
    assert "\n" not in str(info.value)



def test_the_reference_replays_preemptions_exactly() -> None:
    """Run after run, the same scenario gives the same outcome: a reproducer replays and the differential
    and the mutant matrix compare like with like. Pods without a start time once counted as starting at the
    wall clock's now, so equal-priority victims were ordered by how fast two calls of time.time() followed
    each other, and which of them a preemption kept changed from run to run."""
    from .invariants._kit import node, pod, scenario
    # Reprieved most important first: in input order (upstream's virtual clock: the same "now" for all),
    # running-0 stays and running-1 and running-2 go; another order keeps others.
    bound = [pod("running-0", cpu="1", priority=100, on="node-0"),
             *(pod(f"running-{i}", cpu="500m", priority=100, on="node-0") for i in (1, 2))]
    sc = scenario([pod(cpu="1", priority=1000)], nodes=[node(cpu="2")], bound=bound)
    backend = ReferenceBackend()
    runs = [backend.run(sc) for _ in range(30)]
    assert {tuple(sorted(r.deleted)) for r in runs} == {("default/running-1", "default/running-2")}
    assert all(r.to_dict() == runs[0].to_dict() for r in runs)
