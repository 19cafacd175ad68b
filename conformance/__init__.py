"""The conformance suite. Today: the `sched-conformance` CLI over the reference (see `cli`)."""
