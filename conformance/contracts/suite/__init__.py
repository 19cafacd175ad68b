"""The contract suite: `pytest --pyargs conformance.contracts.suite --conformance-check-plugin NAME` (or
--conformance-check-plugin-all)."""
