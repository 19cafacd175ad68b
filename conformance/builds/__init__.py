"""The user's scheduler as one build: spec (release, Go modules, plugin registrations) -> cached binaries."""

from .builder import Build, BuildError, build
from .spec import BuildSpec, BuildSpecError, from_pyproject, load_file, make_spec

__all__ = ["Build", "BuildError", "BuildSpec", "BuildSpecError", "build", "from_pyproject",
           "load_file", "make_spec"]
