"""The host side of the emulator: what a HIP program's host code talks to.

    system.py      the emulated GPUs and each host thread's current device
    vaspace.py     device virtual addresses (page-aligned, quarantined frees)
    memory.py      allocations, capacity accounting, pointer lookup
    darray.py      DeviceArray: shaped views of device memory
    pointers.py    what a pointer argument refers to (device bytes or host bytes)
    streams.py     the queues work is submitted to
    properties.py  hipDeviceProp_t
    api.py         hipMalloc, hipMemcpy, ... under HIP's names
    kernel.py      @jit and kernel launch
    graphs.py      HIP graphs: nodes, instantiation, launch (graph_api.py: the hipGraph* API)
    capture.py     stream capture: hipStreamBeginCapture ... EndCapture records a graph
"""
