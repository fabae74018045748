"""How a kernel is traced: every file of tracing, from compile time to the record views read.

See README.md in this folder for the data flow. Each file sits in the layer of its step
(``tests/test_layers.py``): the record is data that the memory model reads, the
instrumentation is a compiler stage, the tracer runs with the engine.

    record.py      Trace (wavefront memory instructions), LaunchInfo, Site: the record
    events.py      the event buffers and the recording intrinsics the trace variant calls
    costs.py       instruction cost of statements (VALU, SALU, branch, FLOPs)
    instrument.py  code generation for the trace variant (TraceInstrument, TraceSite)
    tracer.py      Tracer: runs a prefix or a spread sample of work-groups instrumented
    rows.py        lane events -> wavefront rows (the Trace's arrays)
    report.py      a traced launch -> memory model -> counters, memory summary
    views.py       what the views draw from a trace (LDS phases, reuse, cache outcomes)

Nothing is imported here: ``gpusim.memsim`` reads ``trace.record`` while ``trace.tracer``
runs kernels, so each file is imported by its own name.
"""
