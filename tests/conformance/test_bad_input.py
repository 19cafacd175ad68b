"""Bad input to every command: exactly one line on stderr, `sched-conformance: <the bad value>: <the fix>`, exit 2,
no traceback, nothing on stdout (never under pytest's header), and nothing left behind.

Each row is fast: errors found before a backend starts, or by one that fails at once (no Go build, no cluster).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conformance import cli, paths

# Rows that start a prebuilt harness binary: without it they would build it (minutes of Go).
_BIN = paths.stock_bin()  # the stock binaries: built on first use where Go is
_NEEDS = {"check-plugin-unknown-plugin": "driver", "run-config-upstream-rejects": "runner"}

_FILES = {
    "config.yaml": b"apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
    "latin1.yaml": "apiVersion: kubescheduler.config.k8s.io/v1\n# r\xe9sum\xe9\n".encode("latin-1"),
    "broken.yaml": b"profiles: [\n",
    "v2.yaml": b"apiVersion: kubescheduler.config.k8s.io/v2\nkind: KubeSchedulerConfiguration\n",
    "notes.txt": b"a file where a directory belongs\n",
    "empty-kubeconfig.yaml": b"apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n",
    "own.toml": b"go-modules = [\n",
    "bad-domain.toml": b"[domain.labels]\n\"example.com/tier\" = [\"gold\", \"-silver\"]\n",
    # Score weights whose total could overflow int64 (a negative one): kube-scheduler refuses the config.
    "rejected.yaml": b"apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                     b"- plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n        weight: -3\n",
    "repro-bad/meta.json": b"not json",
    "repro-list/meta.json": b"[1, 2]",
    "repro-empty/README.md": b"no scenario here\n",
    "docs/coverage.md": b"# coverage\n",
    **{f"repro-{name}/{file}": text for name, fault in (
        ("fault-call", '{"when": 0, "op": "fail", "call": "bindd", "error": "conflict", "pod": "default/pod-0"}'),
        ("fault-pod", '{"when": 0, "op": "vanish", "object": "pod", "point": "permit", "pod": "default/pod-9"}'))
       for file, text in (("meta.json", b'{"invariant": "capacity-respected", "backend": "reference"}'),
                          ("scenario.json", ('{"nodes": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": '
                                             '"node-0"}, "status": {"allocatable": {"cpu": "1", "pods": "9"}}}], '
                                             '"workload": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": '
                                             '"pod-0", "namespace": "default"}, "spec": {"containers": [{"name": "c",'
                                             f' "image": "x"}}]}}}}], "timeline": [{fault}]}}').encode()))},
}

# (id, argv, what the line must name); argv's paths are relative to the working directory (a tmp_path with _FILES).
ROWS = [
    # run: options the table declares, values checked before any backend starts
    ("run-unknown-backend", ["run", "--backend", "nope"], "'nope'"),
    ("run-unknown-compare", ["run", "--compare", "refrence"], "'refrence'"),
    ("run-unknown-invariant", ["run", "--invariant", "no-such-invariant"], "'no-such-invariant'"),
    ("run-unknown-profile", ["run", "--profile", "fast"], "'fast'"),
    ("run-zero-examples", ["run", "--max-examples", "0"], "--max-examples: '0'"),
    ("run-word-examples", ["run", "--max-examples", "many"], "'many'"),
    ("run-unknown-cluster", ["run", "--backend", "cluster", "--cluster", "docker"], "'docker'"),
    ("run-kubeconfig-without-cluster", ["run", "--kubeconfig", "k.yaml"], "--kubeconfig"),
    ("run-missing-scheduler-config", ["run", "--scheduler-config", "missing.yaml"], "missing.yaml"),
    ("run-missing-own-scheduler", ["run", "--own-scheduler", "missing.toml"], "missing.toml"),
    ("run-own-scheduler-not-toml", ["run", "--own-scheduler", "own.toml"], "own.toml"),
    ("run-domain-bad-label-value", ["run", "--own-scheduler", "bad-domain.toml"],
     "domain.labels.'example.com/tier': value '-silver' is not a valid label value"),
    ("run-go-plugin-without-equals", ["run", "--go-plugin", "NoEquals"], "'NoEquals'"),
    ("run-go-plugin-bad-name", ["run", "--go-plugin", "my score=example.com/p.New"], "'my score' is not a plugin name"),
    ("check-plugin-go-plugin-in-tree-name", ["check-plugin", "--all", "--go-plugin", "NodeName=example.com/p.New"],
     "NodeName is an in-tree plugin"),
    ("run-missing-crd", ["run", "--crd", "missing-crd.yaml"], "missing-crd.yaml"),
    ("run-objects-without-colon", ["run", "--objects", "no-colon"], "'no-colon'"),
    ("run-extender-not-a-url", ["run", "--extender", "localhost:80"], "'localhost:80'"),
    ("run-reproducers-is-a-file", ["run", "--reproducers", "notes.txt"], "notes.txt"),
    # run: found when the backend starts, still before pytest's header
    ("run-python-backend-not-importable", ["run", "--backend", "python:no_such_module:factory"], "no_such_module"),
    ("run-missing-kubeconfig", ["run", "--backend", "cluster", "--kubeconfig", "missing-kubeconfig.yaml"],
     "missing-kubeconfig.yaml"),
    ("run-kubeconfig-without-contexts", ["run", "--backend", "cluster", "--kubeconfig", "empty-kubeconfig.yaml"],
     "empty-kubeconfig.yaml"),
    ("run-config-upstream-rejects", ["run", "--backend", "upstream", "--scheduler-config", "rejected.yaml"],
     "rejected.yaml"),
    # check-plugin
    ("check-plugin-neither", ["check-plugin"], "--all"),
    ("check-plugin-both", ["check-plugin", "NodeResourcesFit", "--all"], "--all"),
    ("check-plugin-unknown-plugin", ["check-plugin", "NodeResourceFit"], "'NodeResourceFit'"),
    ("check-plugin-unknown-contract", ["check-plugin", "--all", "--contract", "no-such-property"], "no-such-property"),
    ("check-plugin-unknown-profile", ["check-plugin", "--all", "--profile", "fast"], "'fast'"),
    ("check-plugin-missing-own-scheduler", ["check-plugin", "--all", "--own-scheduler", "missing.toml"],
     "missing.toml"),
    # invariants
    ("invariants-output-without-coverage", ["invariants", "--output", "matrix.md"], "--output"),
    ("invariants-output-into-missing-directory", ["invariants", "--coverage", "--output", "no-dir/coverage.md"],
     "no-dir"),
    ("invariants-output-is-a-directory", ["invariants", "--coverage", "--output", "docs"], "docs"),
    # reproduce
    ("reproduce-missing-directory", ["reproduce", "no-such-repro"], "no-such-repro"),
    ("reproduce-meta-not-json", ["reproduce", "repro-bad"], "meta.json"),
    ("reproduce-meta-not-an-object", ["reproduce", "repro-list"], "meta.json"),
    ("reproduce-without-scenario", ["reproduce", "repro-empty"], "scenario.json"),
    ("reproduce-fault-unknown-call", ["reproduce", "repro-fault-call"], "scenario.timeline[0].call: 'bindd'"),
    ("reproduce-fault-unknown-pod", ["reproduce", "repro-fault-pod"], "scenario.timeline[0].pod: pod 'default/pod-9'"),
    ("reproduce-unknown-side", ["reproduce", "repro-empty", "--side", "middle"], "'middle'"),
    # validate, plugins
    ("validate-missing-file", ["validate", "missing.yaml"], "missing.yaml"),
    ("validate-not-utf8", ["validate", "latin1.yaml"], "latin1.yaml"),
    ("validate-a-directory", ["validate", "docs"], "docs"),
    ("validate-not-yaml", ["validate", "broken.yaml"], "broken.yaml"),
    ("validate-unknown-api-version", ["validate", "v2.yaml"], "v2.yaml"),
    ("plugins-not-utf8", ["plugins", "latin1.yaml"], "latin1.yaml"),
    ("plugins-missing-file", ["plugins", "missing.yaml", "--json"], "missing.yaml"),
    # diff (errors before any build)
    ("diff-shrink-runs-not-a-number", ["diff", "--shrink-runs", "x"], "'x'"),
    ("diff-feature-gates-garbage", ["diff", "--feature-gates", "garbage"], "'garbage'"),
    ("diff-missing-baseline", ["diff", "--baseline", "missing-baseline.yaml"], "missing-baseline.yaml"),
    ("diff-go-plugin-without-equals", ["diff", "--from", "v1.37.2", "--to", "v1.37.2", "--go-plugin", "NoEquals"],
     "'NoEquals'"),
    ("diff-missing-scheduler-config", ["diff", "--from", "v1.37.2", "--to", "v1.37.2", "--scheduler-config",
                                       "missing.yaml"], "missing.yaml"),
    # version, the command itself, cluster
    ("version-unknown-option", ["version", "--verbose"], "--verbose"),
    ("no-command", [], "command"),
    ("unknown-command", ["runn"], "'runn'"),
    ("cleanup-wait-not-a-number", ["cleanup", "--wait", "soon"], "'soon'"),
    ("cluster-unknown-kind", ["cluster", "status", "--cluster", "docker"], "'docker'"),
    ("cache-without-action", ["cache"], "cache_action"),
    ("cache-unknown-action", ["cache", "clear"], "'clear'"),
    ("cache-prune-size-not-a-size", ["cache", "prune", "--max-size", "lots"], "'lots'"),
]


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    for name, content in _FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(content)
    monkeypatch.chdir(tmp_path)
    # The state of a cluster backend stays here; a stock contract driver comes from $SCHED_CONFORMANCE_BIN if set.
    monkeypatch.setenv("SCHED_CONFORMANCE_STATE", str(tmp_path.parent / f"{tmp_path.name}-state"))
    monkeypatch.setenv("SCHED_CONFORMANCE_CACHE", str(tmp_path.parent / f"{tmp_path.name}-cache"))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    return tmp_path


def test_the_table_covers_every_command():
    commands = {argv[0] for _, argv, _ in ROWS if argv}
    assert {"run", "check-plugin", "invariants", "reproduce", "validate", "plugins", "diff", "version", "cleanup",
            "cluster", "cache"} <= commands
    assert len(ROWS) >= 25


@pytest.mark.parametrize(("argv", "names"), [
    pytest.param(argv, names, id=row_id, marks=[pytest.mark.skipif(
        row_id in _NEEDS and not (_BIN / _NEEDS[row_id]).is_file() and shutil.which("go") is None,
        reason=f"needs {_BIN}/{_NEEDS.get(row_id)} or Go to build it")])
    for row_id, argv, names in ROWS])
def test_bad_input_is_one_line_and_exit_2(request, workdir, capsys, argv, names):
    needs = _NEEDS.get(request.node.callspec.id)
    if needs:  # a stock binary's first-use build prints progress: have it built before the row's one line
        from conformance.builds.stock import stock_binary
        stock_binary(needs, refresh=True)  # up to date, as the command itself wants it
        capsys.readouterr()
    before = _tree(workdir)
    code = cli.main(argv)
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("sched-conformance: ") and names in lines[0], lines[0]
    assert "Traceback" not in out + err
    assert out == "", out  # never under pytest's header
    assert _tree(workdir) == before
    for kept in ("SCHED_CONFORMANCE_STATE", "SCHED_CONFORMANCE_CACHE"):
        assert not Path(os.environ[kept]).exists() or not any(Path(os.environ[kept]).iterdir()), kept
