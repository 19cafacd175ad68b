"""Probe plugins for the reference: scripted per pod, every call traced (docs/probes.md)."""

from .plugin import CYCLE_KEY, Probe, ProbeArgs, probe_registry
from .script import PROBE_NAMES, SCRIPTED_POINTS, Action, Script, ScriptError, parse_script
from .trace import Trace
from .tracker import ProbeTracker

__all__ = ["Action", "CYCLE_KEY", "PROBE_NAMES", "Probe", "ProbeArgs", "ProbeTracker", "SCRIPTED_POINTS", "Script",
           "ScriptError", "Trace", "parse_script", "probe_registry"]
