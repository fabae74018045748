"""Pass 11, compile: generated source -> an imported module whose functions numba compiled.

The source is written to ``<gpusim.config.cache_dir>/kernels/<kernel>_<hash>.py`` (hash of
the source and of the device library it calls) and imported under a unique module name;
its functions are ``numba.njit(cache=True)``, so numba keeps the machine code beside the
file and a new process that generates the same source loads it instead of compiling.

The reference path executes the same source as plain Python (no numba at all).

>>> key = source_key("x = 1\\n")
>>> len(key)
16
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import types
from pathlib import Path

from gpusim.compile.ir import KernelIR
from gpusim.errors import KernelCompileError

# what generated modules import (paths under gpusim/compile/)
_LIB_FILES = ("device/devicelib.py", "device/atomics.py", "device/machine_ops.py",
              "device/mathlib.py", "device/cmathlib.py", "device/half.py", "device/printf.py",
              "lang_vectors.py",
              "sanitize/shadow.py", "sanitize/ops.py", "../trace/events.py")
_lock = threading.Lock()


def _library_hash() -> str:
    """What besides the module's text decides its machine code: the device library it
    imports, and the gpusim and numba versions."""
    from importlib.metadata import version

    here = Path(__file__).parent.parent
    h = hashlib.sha1(f"gpusim {version('gpusim')} numba {version('numba')}".encode())
    for name in _LIB_FILES:
        h.update((here / name).read_bytes())
    return h.hexdigest()


_LIB_HASH = _library_hash()


def source_key(source: str) -> str:
    """The cache key of a generated module: its text (the kernel's source, argument types,
    wave size and mode, and no file path: see ``diagnostics.source_label``), the device
    library's text and the gpusim and numba versions."""
    return hashlib.sha1((_LIB_HASH + source).encode()).hexdigest()[:16]


def cache_dir() -> Path:
    """Where generated kernels live (``gpusim.config.cache_dir``/kernels, else a temp dir)."""
    from gpusim.config import config

    for base in (config.cache_dir, os.path.join(tempfile.gettempdir(), f"gpusim-{os.getuid()}")):
        path = Path(base) / "kernels"
        try:
            path.mkdir(parents=True, exist_ok=True)
            probe = path / ".write-test"
            probe.write_text("")
            probe.unlink()
            return path
        except OSError:
            continue
    raise OSError("no writable directory for compiled kernels; set gpusim.config.cache_dir")


def load_module(kir: KernelIR) -> types.ModuleType:
    """Write (once) and import the generated module of ``kir``."""
    key = source_key(kir.source)
    stem = f"{kir.name}_{key}"
    modname = f"gpusim_kernel_{stem}"
    with _lock:
        if modname in sys.modules:
            return sys.modules[modname]
        path = cache_dir() / f"{stem}.py"
        if not path.exists():
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(kir.source)
            os.replace(tmp, path)  # atomic: a parallel process sees all or nothing
        spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module  # numba's cache re-imports it by this name
        try:
            spec.loader.exec_module(module)
        except Exception:
            del sys.modules[modname]
            raise
    kir.module_path = str(path)
    return module


def reference_module(kir: KernelIR) -> types.SimpleNamespace:
    """The generated source executed as plain Python (the reference path)."""
    ns: dict = {"_GPUSIM_REFERENCE": True, "__name__": f"gpusim_reference_{kir.name}"}
    exec(compile(kir.source, f"<gpusim reference {kir.name}>", "exec"), ns)  # noqa: S102
    return types.SimpleNamespace(run=ns[f"{kir.name}__run"],
                                 workspace=ns[f"{kir.name}__workspace"])


def compile_module(kir: KernelIR, arg_types: tuple, *, defer: bool = False
                   ) -> types.SimpleNamespace:
    """Import the module and compile ``<kernel>__run`` for the launch argument types.

    ``defer=True`` imports the module but leaves numba's compilation of ``run`` to the
    returned ``finish()`` (idempotent, thread-safe; raises the ``KernelCompileError``):
    a launch whose work-groups all run in another variant never needs this one's machine
    code (``engine.launcher.Launch.settle``). Without it ``finish`` has already run.
    """
    from numba import typeof
    from numba.core import types as nbtypes

    module = load_module(kir)
    run = getattr(module, f"{kir.name}__run")
    workspace = getattr(module, f"{kir.name}__workspace")
    sample = workspace(1, 16)
    i64, vec = nbtypes.int64, nbtypes.Array(nbtypes.int64, 1, "C")
    consts = tuple(typeof(kir.arrays[n].value) for n in sorted(kir.const_params))
    extra = tuple(ty for _, ty in kir.extra_args)  # an instrumented mode's arguments
    signature = (i64, i64) + tuple(arg_types) + consts + (vec, vec) + extra + (
        (typeof(sample),) if sample else ())
    done: list[bool] = []
    lock = threading.Lock()

    def finish() -> None:
        with lock:
            if done:
                return
            try:
                run.compile(signature)
            except Exception as exc:  # numba could not type or lower the generated code
                detail = "\n".join("    " + ln for ln in str(exc).splitlines()[:12])
                raise KernelCompileError(
                    f"kernel '{kir.name}': numba could not compile the generated code "
                    f"({getattr(kir, 'module_path', '<generated>')}). Its `# line N` comments "
                    f"name your lines; numba said:\n{detail}") from exc
            done.append(True)

    if not defer:
        finish()
    return types.SimpleNamespace(run=run, workspace=workspace, module=module, finish=finish)
