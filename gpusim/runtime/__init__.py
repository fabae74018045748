"""The host side of the emulator: what a HIP program's host code talks to.

The runtime stages a launch's arguments and queues work on streams; the engine checks,
runs and times each launch (``engine/launch_time.py``), and the runtime never reaches
the memory or timing models of a kernel itself (``tests/test_layers.py``)::

    kernel[grid, block](args)   kernel.py -> kernel_args.stage -> engine.prepare_timed
                                -> streams.enqueue(run) -> scheduler: run() when the
                                stream reaches it; its LaunchResult -> the profile record

Machine and memory
    system.py         the emulated GPUs and each host thread's current device
    topology.py       which GPUs share an Infinity Fabric link, and how fast it is
    properties.py     hipDeviceProp_t
    vaspace.py        device virtual addresses (page-aligned, quarantined frees)
    memory.py         allocations, capacity accounting, pointer lookup
    mempool.py        stream-ordered allocation: memory pools, hipMallocAsync/FreeAsync
    managed.py        unified memory: one buffer for host and device, migrated by page
    peer.py           peer access between GPUs (hipDeviceEnablePeerAccess ...)
    pointers.py       what a pointer argument refers to (device bytes or host bytes)
    darray.py         DeviceArray: shaped views of device memory
    darray_views.py   views of a device array without copying (numba.cuda's layout methods)
Work and time
    streams.py        the queues work is submitted to (enqueue, resolve_stream)
    scheduler.py      when each queued operation runs, and its modeled start and end
    hw_queues.py      hardware queues and SDMA engines a stream's work lands on
    copies.py         copies and memsets: checked when called, run in stream order
    api.py            hipMalloc, hipMemcpy, ... under HIP's names
    api_async.py      streams, events, async copies and memsets, host callbacks
Kernels
    kernel.py         @jit and kernel launch
    kernel_args.py    what a launched kernel gets for each argument (staging, addresses)
    launch_config.py  numba.cuda's launch-configuration errors and dimension rules
    kernel_overloads.py  kernel.overloads: numba.cuda's per-signature view
    kernel_resources.py  Kernel.resources() / Kernel.isa(): LLVM's registers and code
    tracebacks.py     learners' tracebacks: gpusim's frames hidden, the launch site named
Graphs
    graphs.py         HIP graphs: nodes, instantiation, launch
    graph_api.py      the hipGraph* API under HIP's names
    capture.py        stream capture: hipStreamBeginCapture ... EndCapture records a graph
"""
