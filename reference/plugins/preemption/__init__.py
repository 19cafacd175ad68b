"""Mirrors pkg/scheduler/framework/preemption/preemption.go, executor.go and util.go (the pod path).

`evaluator` holds the dry run and node choice; `executor` the actuation. The DefaultPreemption
plugin (`reference.plugins.default_preemption`) plugs its victim selection into them.
"""
