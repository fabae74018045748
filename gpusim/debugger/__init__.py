"""Step through a wavefront: record one work-group of a real launch, replay it as SIMT.

Each file sits in the layer of its step (``tests/test_layers.py``), as in gpusim/trace:

    instrument.py  the "debug" generation mode: the reference path calling the recorder
                   around every statement (compile layer)
    recorder.py    Recorder: each thread's events (statement, place, values, element)
    steps.py       simt_steps: the events as each wavefront steps (EXEC masks, lanes'
                   values); Recording, what a view shows
    runner.py      WorkgroupRecorder: runs the recorded work-group in a launch's tracer
                   slot while the fast path runs the others (engine layer)
    session.py     gpusim.debug(kernel[grid, block], *args, block=...): a recorded launch

Nothing is imported here: each file is imported by its own name.
"""
