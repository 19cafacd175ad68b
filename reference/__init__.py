"""A pure-Python reference implementation of the Kubernetes scheduling framework (v1.37.2)."""
