"""One module per lab, ``labNN.py``, registering that lab's exercise checks.

``gpusim.course.check("NN.k", ...)`` imports ``labNN`` on first use. Each check builds
its own inputs, runs the student's code on them and compares with a reference computed
independently of the student's code.

    lab00.py  a tour of the MI300X: resident work-items, bytes for hipMalloc
    lab01.py  first kernels: a grid-stride loop
    lab02.py  wavefronts and LDS: shuffle reduction, compaction, a cooperative launch
    lab03.py  the sanitizer: LDS initialised before use, one atomic per block
    lab04.py  streams: a pipeline over several streams, a time step as a HIP graph
    lab05.py  occupancy on the MI100; FP32 instead of FP64
    lab06.py  memory: a padded LDS tile for a conflict-free transpose
    lab07.py  rocBLAS, rocSOLVER: row-major GEMM, FLOP rates, batched solves
    lab08.py  rocRAND, rocFFT, rocSPARSE: Monte Carlo, Sobol, FFT sizes, index bases, ELL
    lab09.py  porting: hipify's options, a wave64-correct reduction
    lab10.py  several GPUs: all-reduce by parts, bus factors, LL / Simple, data parallel
    lab11.py  HIP C++: a block reduction and a conflict-free transpose
    lab12.py  performance capstone: a row softmax up to the HBM roofline
    lab13.py  matrix cores: a bf16 GEMM, one wavefront per 32 x 32 tile
"""
