"""Search recipes an invariant declares (`@invariant(situation=..., focus=...)`): situations built around the
rule, the first pod's decisive answers, constrained clusters, and each theme's generator options."""
