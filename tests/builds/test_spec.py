"""The build spec: flags, files and pyproject tables, each bad value one line naming it and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.builds import BuildSpecError, load_file, make_spec
from conformance.builds.builder import _first_error, choose_version, generated_registrations, pinned_version
from conformance.builds.spec import from_pyproject

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "plugins"
PREFER = "PreferLabeled=example.com/sched-plugins/prefer.New"


def test_a_local_module_and_its_registration():
    spec = make_spec(modules=[str(EXAMPLE)], plugins=[PREFER])
    (module,), (reg,) = spec.modules, spec.plugins
    assert (module.path, module.local, module.directory) == ("example.com/sched-plugins", True, EXAMPLE)
    assert (reg.name, reg.package, reg.func) == ("PreferLabeled", "example.com/sched-plugins/prefer", "New")


def test_a_versioned_module():
    (module,) = make_spec(modules=["sigs.k8s.io/scheduler-plugins@v0.34.7"]).modules
    assert (module.path, module.version, module.local) == ("sigs.k8s.io/scheduler-plugins", "v0.34.7", False)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"plugins": ["NoEquals"]}, r"--go-plugin 'NoEquals': use Name=import/path\.Func"),
    ({"plugins": ["X=example.com/p.new"]}, r"Func exported"),
    ({"plugins": ["Probe3=example.com/p.New"]}, r"Probe3 is one of the suite's probe plugins"),
    ({"plugins": ['My"Score=example.com/p.New']}, r"'My\"Score' is not a plugin name; use letters"),
    ({"plugins": ["my score=example.com/p.New"]}, r"'my score' is not a plugin name"),
    ({"plugins": ["NodeResourcesFit=example.com/p.New"]}, r"NodeResourcesFit is an in-tree plugin of kube-scheduler"),
    ({"modules": [str(EXAMPLE)], "plugins": [PREFER, PREFER]}, r"PreferLabeled: registered twice"),
    ({"plugins": [PREFER]}, r"no --go-module provides package example.com/sched-plugins/prefer"),
    ({"modules": ["/nonexistent/mod"]}, r"/nonexistent/mod/go.mod does not exist"),
    ({"modules": ["example.com/x@latest"]}, r"use module/path@vX\.Y\.Z"),
    ({"k8s_version": "1.37"}, r"--k8s-version '1.37': use a Kubernetes release such as 1\.37\.2"),
    ({"scheduler_config": "/nonexistent.yaml"}, r"--scheduler-config '/nonexistent.yaml': .* does not exist"),
    ({"imports": ["example.com/x/scheme"]}, r"--go-import example.com/x/scheme: no --go-module provides it"),
    ({"imports": ["not a path"]}, r"--go-import 'not a path': use an import path"),
    ({"objects": "no-colon"}, r"--objects 'no-colon': use package.module:name or path/to/file.py:name"),
    ({"objects": "/nonexistent/objects.py:hook"}, r"--objects '/nonexistent/objects.py:hook': .* does not exist"),
    ({"crds": ["/nonexistent/crd.yaml"]}, r"--crd '/nonexistent/crd.yaml': .* does not exist; give a YAML file"),
])
def test_bad_values_are_named_with_the_fix(kwargs, message):
    with pytest.raises(BuildSpecError, match=message) as info:
        make_spec(**kwargs)
    assert "\n" not in str(info.value)


def test_own_scheduler_file_and_pyproject(tmp_path):
    body = f'go-modules = ["{EXAMPLE}"]\ngo-plugins = ["{PREFER}"]\nk8s-version = "1.37.2"\n'
    (tmp_path / "own.toml").write_text(body)
    assert load_file(tmp_path / "own.toml").plugins[0].name == "PreferLabeled"
    (tmp_path / "pyproject.toml").write_text("[tool.sched-conformance]\n" + body)
    assert from_pyproject(tmp_path).k8s_version == "v1.37.2"
    (tmp_path / "bad.toml").write_text('go-plugin = ["x"]\n')
    with pytest.raises(BuildSpecError, match=r"unknown key 'go-plugin'; the keys are go-modules, go-plugins"):
        load_file(tmp_path / "bad.toml")


def test_the_version_follows_the_users_module_else_the_pin(tmp_path):
    assert choose_version(make_spec(modules=[str(EXAMPLE)]), tmp_path) == "v1.37.2"  # k8s.io/kube-scheduler v0.37.2
    assert choose_version(make_spec(), tmp_path) == pinned_version()
    assert choose_version(make_spec(k8s_version="1.36.4"), tmp_path) == "v1.36.4"
    with pytest.raises(BuildSpecError, match=r"Kubernetes v1\.30\.2 \(from --k8s-version\) is not a release"):
        choose_version(make_spec(k8s_version="1.30.2"), tmp_path)


def test_go_imports_are_blank_imports_and_survive_the_toml():
    scheme = "sigs.k8s.io/scheduler-plugins/apis/config/scheme"
    spec = make_spec(modules=["sigs.k8s.io/scheduler-plugins@v0.34.7"], imports=[scheme, scheme],
                     plugins=["Coscheduling=sigs.k8s.io/scheduler-plugins/pkg/coscheduling.New"])
    assert spec.imports == (scheme,)
    assert f'\t_ "{scheme}" // --go-import {scheme}' in generated_registrations(spec.plugins, spec.imports).splitlines()
    assert f'go-imports = ["{scheme}"]' in spec.to_toml().splitlines()


def test_generated_registrations_name_each_flag_on_its_line():
    spec = make_spec(modules=[str(EXAMPLE)], plugins=[PREFER, "Other=example.com/sched-plugins/prefer.New"])
    code = generated_registrations(spec.plugins)
    assert 'plugin0 "example.com/sched-plugins/prefer"' in code
    assert f'\tRegistry["PreferLabeled"] = plugin0.New // --go-plugin {PREFER}' in code.splitlines()


def test_a_module_the_proxy_does_not_serve_is_named_past_the_import_stack():
    output = ("go: downloading k8s.io/api v0.34.7\ngo: github.com/kube-scheduler-conformance/harness imports\n"
              "\tk8s.io/kubernetes/pkg/scheduler imports\n\tk8s.io/csi-translation-lib: "
              "k8s.io/csi-translation-lib@v0.34.7: reading https://proxy.golang.org/k8s.io/csi-translation-lib/@v/"
              "v0.34.7.zip: 403 Forbidden\n\tserver response: This module version is not available.\n")
    assert _first_error(output) == ("k8s.io/csi-translation-lib@v0.34.7: reading https://proxy.golang.org/"
                                    "k8s.io/csi-translation-lib/@v/v0.34.7.zip: 403 Forbidden")
    assert _first_error("go: cannot find main module\n") == "go: cannot find main module"


def test_objects_and_crds_from_a_file_are_resolved_against_it(tmp_path):
    (tmp_path / "hooks.py").write_text("")
    (tmp_path / "crds.yaml").write_text("")
    (tmp_path / "own.toml").write_text('objects = "hooks.py:groups"\ncrds = ["crds.yaml"]\n')
    spec = load_file(tmp_path / "own.toml")
    assert (spec.objects, spec.crds) == (f"{tmp_path / 'hooks.py'}:groups", (tmp_path / "crds.yaml",))
    assert spec.empty, "objects and CRDs are not build inputs"
    assert f'crds = ["{tmp_path / "crds.yaml"}"]' in spec.to_toml(), "a reproducer keeps the CRDs to install"
    assert make_spec(objects="my_plugins.objects:groups").objects == "my_plugins.objects:groups"


@pytest.mark.parametrize(("source", "message"), [
    ("", r"--objects {hook}: .* has no 'groups'"),
    ("raise RuntimeError('boom')", r"--objects {hook}: importing .* raised RuntimeError: boom"),
    ("groups = 3", r"--objects {hook}: groups is a int; give a function Scenario -> strategy of generators.Extras"),
])
def test_a_bad_objects_hook_is_one_line(tmp_path, source, message):
    from conformance.builds.own_scheduler import OwnSchedulerError, load_hook
    (tmp_path / "hooks.py").write_text(source)
    hook = f"{tmp_path / 'hooks.py'}:groups"
    with pytest.raises(OwnSchedulerError, match=message.format(hook=hook)) as info:
        load_hook(hook)
    assert "\n" not in str(info.value)
    with pytest.raises(OwnSchedulerError, match=r"cannot import no_such_module_here .* PYTHONPATH"):
        load_hook("no_such_module_here:groups")
