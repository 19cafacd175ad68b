"""Reproducer directories: the shrunk scenario, kubectl-applyable manifests, and the replay command."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from reference.scenario import Scenario, ScenarioError

META = "meta.json"
OWN_SCHEDULER = "own-scheduler.toml"


def write(directory: str | Path, scenario: Scenario, *, invariant: str, backend: str, message: str,
          own_scheduler: str | None = None, user_extenders: list[dict[str, Any]] | None = None,
          extra_meta: dict[str, Any] | None = None, replay: str | None = None) -> Path:
    """Write `scenario.json`, `manifests.yaml`, `scheduler-config.yaml`, `meta.json` and `README.md`; with
    `own_scheduler` (the build's `--own-scheduler` TOML), also `own-scheduler.toml`, which replay builds
    (or takes from the build cache) instead of the stock scheduler; `user_extenders` (the user's extenders[]
    entries) go into meta.json, and replay puts the recording proxy in front of them again."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    (out / "scenario.json").write_text(scenario.to_json() + "\n")
    objects = [*scenario.objects, *scenario.nodes, *scenario.pods, *scenario.workload]
    (out / "manifests.yaml").write_text(yaml.safe_dump_all(objects, sort_keys=False))
    config = scenario.config or {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
    (out / "scheduler-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    meta = {"invariant": invariant, "backend": backend}
    if own_scheduler is not None:
        (out / OWN_SCHEDULER).write_text(own_scheduler)
        meta["ownScheduler"] = OWN_SCHEDULER
    if user_extenders:
        meta["userExtenders"] = user_extenders
    meta.update(extra_meta or {})
    (out / META).write_text(json.dumps(meta, indent=2) + "\n")
    command = replay or replay_command(out, backend)
    (out / "README.md").write_text(
        f"# {'Difference' if invariant == 'diff' else 'Counterexample to'} `{invariant}`\n\n```\n{message}\n```\n\n"
        f"Reproduce with:\n\n```sh\n{command}\n```\n\n"
        "On a cluster: `kubectl apply -f manifests.yaml` with a scheduler started from "
        "`scheduler-config.yaml` (nodes are fake: they need `status` patched in, see docs/scenario.md).\n")
    return out


def replay_command(directory: str | Path, backend: str) -> str:
    return f"sched-conformance reproduce {directory} --backend {backend}"


def read(directory: str | Path) -> tuple[Scenario, dict[str, Any]]:
    """The scenario and its metadata; errors name the missing or bad file."""
    path = Path(directory)
    scenario_file = path / "scenario.json"
    if not scenario_file.is_file():
        raise ScenarioError(f"{scenario_file}: not found; pass a directory written by a failing run")
    scenario = Scenario.loads(scenario_file.read_text())
    meta_file = path / META
    meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
    return scenario, meta


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "failure"


__all__ = ["OWN_SCHEDULER", "read", "replay_command", "slug", "write"]
