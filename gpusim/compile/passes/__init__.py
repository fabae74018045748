"""The compiler's passes, in pipeline order (``gpusim.compile.pipeline.PASSES``).

See README.md in this folder for the data flow through them.

>>> from gpusim.compile.passes import check_subset, infer, split
"""

from gpusim.compile.passes.infer import infer
from gpusim.compile.passes.liveness import plan
from gpusim.compile.passes.lower import lower
from gpusim.compile.passes.normalize import normalize
from gpusim.compile.passes.parse import namespace, parse_function
from gpusim.compile.passes.resolve import resolve_function
from gpusim.compile.passes.split import split
from gpusim.compile.passes.subset import check_subset
from gpusim.compile.passes.uniform import analyze

__all__ = ["parse_function", "namespace", "check_subset", "resolve_function", "normalize",
           "analyze", "lower", "infer", "split", "plan"]
