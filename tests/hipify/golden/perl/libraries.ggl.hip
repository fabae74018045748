#include "hip/hip_runtime.h"
// Library names: cuBLAS, cuRAND (host and device), cuFFT, cuSPARSE, cuSOLVER, NCCL.
#include <hipblas.h>
#include <hiprand.h>
#include <hiprand/hiprand_kernel.h>
#include <hipfft/hipfft.h>
#include <hipsparse.h>
#include <hipsolver.h>
#include <nccl.h>

__global__ void draw(hiprandStatePhilox4_32_10_t* states, float* out) {
    int i = threadIdx.x;
    hiprand_init(1234, i, 0, &states[i]);
    out[i] = hiprand_uniform(&states[i]);
}

void libraries(float* A, float* B, float* C, int n, hipfftComplex* signal) {
    hipblasHandle_t blas;
    hipblasCreate(&blas);
    const float alpha = 1.0f, beta = 0.0f;
    hipblasSgemm(blas, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, &alpha, A, n, B, n, &beta, C, n);
    hipblasDestroy(blas);

    hiprandGenerator_t gen;
    hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
    hiprandSetPseudoRandomGeneratorSeed(gen, 42ULL);
    hiprandGenerateUniform(gen, A, n);
    hiprandDestroyGenerator(gen);

    hipfftHandle plan;
    hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
    hipfftExecC2C(plan, signal, signal, HIPFFT_FORWARD);
    hipfftDestroy(plan);

    hipsparseHandle_t sparse;
    hipsparseCreate(&sparse);
    hipsparseDestroy(sparse);

    hipsolverHandle_t solver;
    int lwork = 0;
    hipsolverDnCreate(&solver);
    hipsolverDnSgetrf_bufferSize(solver, n, n, A, n, &lwork);
    hipsolverDnDestroy(solver);

    ncclComm_t comm;
    ncclUniqueId id;
    ncclGetUniqueId(&id);
    ncclCommInitRank(&comm, 1, id, 0);
    ncclAllReduce(A, B, n, ncclFloat, ncclSum, comm, 0);
    ncclCommDestroy(comm);
}
