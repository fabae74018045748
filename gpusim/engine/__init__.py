"""The engine: runs a compiled kernel over a grid of work-groups, and times the launch.

Data flow::

    prepare_timed(kernel, grid, block, args, device, addresses)   launch_time.py
      prepare(...)                                                launcher.py
        validate.py     launch shape and LDS against the DeviceSpec
                        (hipErrorInvalidConfiguration)
        arguments.py    what a kernel can take (hipErrorInvalidValue), numba types
        cooperative.py  grid syncs: every work-group resident (CooperativeLaunchTooLarge)
        specialize      gpusim.compile -> CompiledKernel (cached per types, wave size, mode)
      LaunchTiming.choose  one of five ways to make the time (memo, sampled, traced,
                        cooperative, first-order); resources.py: the record's registers
    -> Launch.run() -> LaunchResult (seconds, breakdown, counters, memory statistics)
        workers.py      host threads claim work-groups -> watchdog.py (timeout, Ctrl-C)
        sanitizer.py    check mode: shadow memory in, findings.py records and report out
        gpusim.trace    trace mode: a prefix or a spread sample of work-groups
                        instrumented (trace/tracer.py), the rest on the fast path
        faults.py       KernelFaultError -> HipError naming kernel, line, block, thread,
                        advice.py the fix that fits the code around the access
        estimate.py     the "sampled" and "memo" ways: the sample through the memory and
                        timing models on a scaled machine, memoised per launch shape

>>> from gpusim.engine import Launch, prepare, launch
"""

from gpusim.engine.arguments import arg_types, bad_argument
from gpusim.engine.launcher import Launch, launch, prepare, specialize
from gpusim.engine.validate import as_dim3, validate_launch

__all__ = ["Launch", "prepare", "launch", "specialize", "arg_types", "bad_argument",
           "validate_launch", "as_dim3"]
