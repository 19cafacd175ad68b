"""RFC 7386 JSON merge patch: mappings merge key by key, `null` removes a key, anything else
(lists included) replaces the target's value whole."""

from __future__ import annotations

import copy
from typing import Any, Mapping


def merge_patch(target: Any, patch: Any) -> Any:
    """The patched value; neither argument is modified."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return {k: copy.deepcopy(v) for k, v in out.items()}


__all__ = ["merge_patch"]
