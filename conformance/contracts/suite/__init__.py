"""The contract suite: `pytest --pyargs conformance.contracts.suite --check-plugin NAME` (or --check-plugin-all)."""
