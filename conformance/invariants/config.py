"""The scheduler configuration: which plugins the built framework runs, in which order, with which weights."""

from __future__ import annotations

from ..core import scenario_config
from .base import invariant
from .run import Run


@invariant("plugin-order-matches-expansion",
           "The built framework's plugins per profile and extension point (ListPlugins) are the config merged "
           "with the v1 defaults and expanded: multiPoint, point-specific overrides, order and weights.",
           "apis/config/v1 default_plugins.go mergePlugins; framework/runtime/framework.go NewFramework, "
           "expandMultiPointPlugins (spec §5.2, §5.3, §11.18)", requires=("plugin-list", "reference-release"),
           rules=("plugins-per-point", "one-queue-sort", "config-expansion"))
def plugin_order_matches_expansion(run: Run) -> None:
    want = scenario_config.plugin_lists(run.scenario.config)
    got = run.outcome.plugins
    if got:
        run.exercise()
    for profile in [*want, *(p for p in got if p not in want)]:
        if profile not in got or profile not in want:
            raise run.violation(f"profile {profile!r} is "
                                f"{'missing from the built framework' if profile not in got else 'not in the config'}",
                                expected=sorted(want), actual=sorted(got))
        points = [*want[profile], *(p for p in got[profile] if p not in want[profile])]
        for point in points:
            if want[profile].get(point) != got[profile].get(point):
                raise run.violation(f"profile {profile!r}, point {point}: the "
                                    "plugins differ from the expanded config", plugin=_first_difference(
                                    want[profile].get(point), got[profile].get(point)),
                                    expected=want[profile].get(point), actual=got[profile].get(point))


def _first_difference(want: dict | None, got: dict | None) -> str:
    """The name of the first plugin entry that differs, for the report."""
    a = (want or {}).get("enabled", [])
    b = (got or {}).get("enabled", [])
    for x, y in zip(a, b):
        if x != y:
            return str(x.get("name") if isinstance(x, dict) else x)
    longer = a if len(a) > len(b) else b
    return str(longer[min(len(a), len(b))].get("name", "")) if len(a) != len(b) and longer else ""
