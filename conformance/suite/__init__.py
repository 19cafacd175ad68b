"""The conformance suite itself: `pytest --pyargs conformance.suite` (or `sched-conformance run`)."""
