"""The scripted extender's parts: scripts, the server side of the wire format, and the verbs' answers.

The HTTP server itself is `conformance.extender.server.ExtenderServer`.
"""

from .script import VERBS, Action, ExtenderScriptError, parse_script
from .verbs import Answer
from .wire import RequestError

__all__ = ["Action", "Answer", "ExtenderScriptError", "RequestError", "VERBS", "parse_script"]
