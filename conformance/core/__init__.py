"""The types every part of conformance shares: the root of its errors, what a backend returns (`Outcome`),
and what the reference says a scenario's config means."""
