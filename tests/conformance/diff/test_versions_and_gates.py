"""Which releases a diff accepts (with the nearest ones when not), and the feature-gate defaults read from a
release's kube_features.go."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.diff import gates, versions

SERVED = ("v1.33.5", "v1.34.0", "v1.34.3", "v1.35.4", "v1.36.1", "v1.36.3", "v1.37.2")


@pytest.fixture
def proxy(monkeypatch):
    monkeypatch.setattr(versions, "proxy_versions", lambda: (SERVED, ""))
    monkeypatch.setattr(versions, "cached_versions", lambda: ("v1.37.1",))


def test_served_and_cached_releases_are_accepted(proxy):
    assert versions.check("--from", "1.36.3") == "v1.36.3"
    assert versions.check("--to", "v1.37.1") == "v1.37.1"  # in the module cache only


@pytest.mark.parametrize("version, expected", [
    ("v1.36.2", "--to v1.36.2: the Go module proxy does not serve k8s.io/kubernetes v1.36.2; nearest available "
                "(served or in the module cache): v1.36.3, v1.36.1, v1.37.2"),
    ("v1.33.5", "--to v1.33.5: the probes and runner build against v1.34.x, v1.35.x, v1.36.x, v1.37.x only; "
                "nearest available: v1.34.3, v1.34.0, v1.35.4"),
    ("latest", "--to 'latest': not a release version; give one like v1.37.2"),
])
def test_an_unavailable_release_is_one_line_with_the_nearest(proxy, version, expected):
    with pytest.raises(versions.VersionError) as info:
        versions.check("--to", version)
    assert str(info.value) == expected


def test_offline_names_the_cause_and_the_cached_releases(monkeypatch):
    monkeypatch.setattr(versions, "proxy_versions", lambda: ((), "the Go module proxy did not answer (dial tcp)"))
    monkeypatch.setattr(versions, "cached_versions", lambda: ("v1.37.1",))
    with pytest.raises(versions.VersionError, match=r"not in the Go module cache and the Go module proxy did not "
                                                     r"answer \(dial tcp\); .* cached release: v1\.37\.1$"):
        versions.check("--from", "v1.36.3")


FEATURES = '''
var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
\tOldGA: {
\t\t{Version: version.MustParse("1.20"), Default: false, PreRelease: featuregate.Alpha},
\t\t{Version: version.MustParse("1.30"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
\t},

\tAsyncThing: {
\t\t{Version: version.MustParse("1.32"), Default: false, PreRelease: featuregate.Alpha},
\t\t{Version: version.MustParse("1.33"), Default: true, PreRelease: featuregate.Beta},
\t},

\tgenericfeatures.NewInApi: {
\t\t{Version: version.MustParse("1.37"), Default: true, PreRelease: featuregate.Beta},
\t},
}
'''


def release(root: Path, name: str, features: str) -> Path:
    source = root / name
    (source / "pkg" / "features").mkdir(parents=True)
    (source / "pkg" / "features" / "kube_features.go").write_text(features)
    return source


def test_defaults_follow_the_last_spec_at_or_before_the_release(tmp_path):
    source = release(tmp_path, "k", FEATURES)
    assert gates.defaults(source, "v1.32.4") == {"OldGA": True, "AsyncThing": False}
    assert gates.defaults(source, "v1.33.0") == {"OldGA": True, "AsyncThing": True}
    assert gates.defaults(source, "v1.37.1") == {"OldGA": True, "AsyncThing": True, "NewInApi": True}


def test_moved_defaults_count_a_new_gate_on_by_default_and_not_a_removed_locked_one(monkeypatch):
    info = {"v1.36.0": ({"Locked": True, "AsyncThing": False, "Same": True}, {"DefaultPreemption": {"AsyncThing"},
                                                                              gates.CORE: {"Locked", "Same"}}),
            "v1.37.0": ({"AsyncThing": True, "Same": True, "NewOn": True, "NewOff": False},
                        {"DefaultPreemption": {"AsyncThing"}, "NodeName": {"NewOn", "NewOff"}})}
    monkeypatch.setattr(gates, "gate_info", lambda v: info[v])
    assert gates.moved_defaults("v1.36.0", "v1.37.0") == {"AsyncThing": (False, True), "NewOn": (False, True)}
    assert gates.gates_behind({"DefaultPreemption"}, "v1.36.0", "v1.37.0") == {"AsyncThing": (False, True)}
    assert gates.gates_behind({"DefaultPreemption"}, "v1.36.0", "v1.37.0", pinned={"AsyncThing"}) == {}
    assert gates.gates_behind({"NodeAffinity"}, "v1.36.0", "v1.37.0") == {}


@pytest.mark.parametrize("text", ["A", "A=yes", "=true", "A=true,,B"])
def test_feature_gate_pins_are_checked(text):
    if text == "A=true,,B":
        with pytest.raises(ValueError, match="'B'"):
            gates.parse_pins(text)
        return
    with pytest.raises(ValueError, match="give Name=true or Name=false"):
        gates.parse_pins(text)
    assert gates.parse_pins("A=true, B=false") == {"A": True, "B": False}
