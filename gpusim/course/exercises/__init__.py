"""One module per lab, ``labNN.py``, registering that lab's exercise checks.

``gpusim.course.check("NN.k", ...)`` imports ``labNN`` on first use. Each check builds
its own inputs, runs the student's code on them and compares with a reference computed
independently of the student's code.
"""
