"""Reproducer directories of contract failures: the shrunk input, the one plugin call sequence, the replay command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from ..reporting.reproducer import (META, RUN_FROM_ROOT, fresh, own_scheduler_spec, relative, remove_stale, slug,
                                     write_own_scheduler)
from .search import ContractFailure

CALLS = "calls.json"


class PlainDumper(yaml.SafeDumper):
    """YAML without anchors: an event's object is spelled out again, as a person would write the input."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def replay_command(directory: str | Path) -> str:
    return f"sched-conformance reproduce {directory}"


def write(directory: str | Path, failure: ContractFailure, *, config: dict[str, Any] | None, race: bool,
          own_scheduler: str | None = None, root: Path | None = None) -> Path:
    """`input.yaml` (the shrunk input), `calls.json` (init and the call sequence with the results seen),
    `meta.json`, `README.md`; with `own_scheduler`, the build's TOML, which replay builds (or takes from the
    cache), its paths relative to `root` (the directory the run started in; default the working directory). An
    earlier reproducer in `directory` is replaced."""
    out = fresh(directory)
    violation = failure.violation
    (out / "input.yaml").write_text(yaml.dump(failure.example.to_dict(), Dumper=PlainDumper, sort_keys=False,
                                              width=110))
    (out / CALLS).write_text(json.dumps({"init": {"config": config, "plugin": failure.plugin},
                                         "watch": failure.prop.watch, "calls": violation.calls,
                                         "results": violation.results}, indent=1) + "\n")
    meta = {"contract": violation.property_id, "plugin": failure.plugin, "race": race}
    if own_scheduler is not None:
        meta["ownScheduler"] = write_own_scheduler(out, own_scheduler, root)
    (out / META).write_text(json.dumps(meta, indent=2) + "\n")
    (out / "README.md").write_text(
        f"# {failure.plugin} breaks `{violation.property_id}`\n\n```\n{violation.message}\n```\n\n"
        f"The shrunk input is `input.yaml`; `calls.json` is the plugin call sequence the driver (harness/driver) "
        f"made, with its answers.\n\nReproduce with:\n\n```sh\n{replay_command(relative(out, root))}\n```\n\n"
        f"{RUN_FROM_ROOT if own_scheduler is not None else ''}")
    return out


def is_contract(meta: dict[str, Any]) -> bool:
    return "contract" in meta


def replay(directory: str | Path, meta: dict[str, Any]) -> int:
    """Run the recorded call sequence on a fresh driver; 1 when the failure shows again."""
    from ..builds import build
    from .base import REGISTRY
    from .driver import DriverCrash, PluginDriver
    from .session import stock_driver
    path = Path(directory)
    recorded = json.loads((path / CALLS).read_text())
    race = bool(meta.get("race"))
    spec = own_scheduler_spec(path, meta)
    if spec is not None:
        binary = build(spec, driver=not race, race_driver=race).driver(race=race)
    else:
        binary = stock_driver(race)
    driver = PluginDriver(binary, config=recorded["init"]["config"], plugin=recorded["init"]["plugin"], race=race)
    driver.watch = recorded.get("watch", True)
    prop = meta["contract"]
    try:
        driver.start()
        try:
            results = driver.run(recorded["calls"])
        except DriverCrash as crash:
            if "DATA RACE" in crash.output:
                print(f"REPRODUCED {prop} on {meta['plugin']}:\n{crash.output.strip()[:4000]}")
                return 1
            raise
    finally:
        driver.close()
    panics = [r["panic"] for r in results if r.get("panic")]
    if panics:
        print(f"REPRODUCED plugin-no-panic on {meta['plugin']}:\n{panics[0]}")
        return 1
    if results == recorded["results"]:
        statement = REGISTRY[prop].statement if prop in REGISTRY else prop
        print(f"REPRODUCED {prop} on {meta['plugin']}: the plugin answered the call sequence exactly as in the "
              f"failing run ({statement})")
        return 1
    print(f"{meta['plugin']} answered the recorded call sequence of {directory} differently this time: the failure "
          "does not reproduce (a plugin whose answers depend on calls before the sequence)")
    return 0


__all__ = ["CALLS", "PlainDumper", "is_contract", "remove_stale", "replay", "replay_command", "slug", "write"]
