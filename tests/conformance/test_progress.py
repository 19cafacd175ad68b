"""Progress of slow work reaches the terminal from inside a test, past pytest's capture (a cold build or
check-plugin's -race driver built inside a test is not silent), and only while the suite is selected."""

from __future__ import annotations

pytest_plugins = ["pytester"]

TEST = """
from conformance.core.progress import say

def test_builds_something():
    say("[sched-conformance build] step runner: go build")
"""


def test_progress_inside_a_test_is_not_captured(pytester):
    pytester.makepyfile(test_slow=TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--conformance-backend", "reference")
    assert result.ret == 0
    assert "[sched-conformance build] step runner: go build" in result.stderr.str()


def test_without_the_suite_selected_the_plugin_leaves_capture_alone(pytester):
    pytester.makepyfile(test_slow=TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == 0
    assert "step runner" not in result.stderr.str() + result.stdout.str()  # captured, as any test's output
