"""One test per (plugin, property): draw inputs, drive the plugin, check, shrink, report, write a reproducer."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.contracts import REGISTRY, UnknownPlugin
from conformance.contracts import reproducer
from conformance.contracts.report import describe
from conformance.pytest_plugin import contract_session, contract_targets, reproducers_dir
from conformance.reporting.summary import record_exercised
from conformance.reporting.pytest_failure import fail


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "plugin" not in metafunc.fixturenames:
        return
    plugins, properties = contract_targets(metafunc.config)
    metafunc.parametrize(("plugin", "property_id"), [(pl, p) for pl in plugins for p in properties])


@pytest.mark.conformance
def test_contract(plugin: str, property_id: str, request: pytest.FixtureRequest) -> None:
    prop = REGISTRY[property_id]
    session = contract_session(request.config)
    try:
        driver = session.driver(plugin)
    except UnknownPlugin as exc:
        pytest.fail(str(exc), pytrace=False)
    if not prop.applies(driver.points):
        pytest.skip(f"{plugin} implements none of {', '.join(sorted(prop.points))} "
                    f"(it implements {', '.join(sorted(driver.points)) or 'no extension point'})")
    if prop.race:
        driver = session.driver(plugin, race=True)
    # The properties drawing from one strategy share their examples: the first of their tests runs the search,
    # for those of the session's tests on this plugin (after -k and --contract) that draw from it.
    checked = [REGISTRY[item.callspec.params["property_id"]] for item in request.session.items
               if getattr(item, "callspec", None) and item.callspec.params.get("plugin") == plugin]
    failure, tally = session.searches.result(driver, prop, checked,
                                             profile=request.config.getoption("conformance_profile"),
                                             max_examples=request.config.getoption("conformance_max_examples"))
    record_exercised(request.node, f"{plugin}/{property_id}", tally.exercised, tally.examples)
    request.node.user_properties.append(("sched_conformance_examples_per_second",
                                         round(tally.examples / tally.seconds) if tally.seconds else 0))
    if failure is None:
        reproducer.remove_stale(Path(request.config.getoption("conformance_reproducers"))
                                / reproducer.slug(f"{plugin}-{property_id}"), contract=property_id, plugin=plugin)
        if tally.exercised == 0:
            pytest.skip(f"{tally.line(property_id)}: no generated input reached the situation the rule governs, "
                        "so it was not checked")
        return
    directory = reproducers_dir(request.config) / reproducer.slug(f"{plugin}-{failure.violation.property_id}")
    reproducer.write(directory, failure, config=session.config(), race=prop.race,
                     root=request.config.invocation_params.dir, **session.reproducer_options())
    fail(describe(failure, directory))
