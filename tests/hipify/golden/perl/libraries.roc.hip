#include "hip/hip_runtime.h"
// Library names: cuBLAS, cuRAND (host and device), cuFFT, cuSPARSE, cuSOLVER, NCCL.
#include <rocblas.h>
#include <rocrand.h>
#include <rocrand/rocrand_kernel.h>
#include <hipfft/hipfft.h>
#include <rocsparse.h>
#include <rocsolver/rocsolver.h>
#include <nccl.h>

__global__ void draw(rocrand_state_philox4x32_10* states, float* out) {
    int i = threadIdx.x;
    rocrand_init(1234, i, 0, &states[i]);
    out[i] = rocrand_uniform(&states[i]);
}

void libraries(float* A, float* B, float* C, int n, hipfftComplex* signal) {
    rocblas_handle blas;
    rocblas_create_handle(&blas);
    const float alpha = 1.0f, beta = 0.0f;
    rocblas_sgemm(blas, rocblas_operation_none, rocblas_operation_transpose, n, n, n, &alpha, A, n, B, n, &beta, C, n);
    rocblas_destroy_handle(blas);

    rocrand_generator gen;
    rocrand_create_generator(&gen, ROCRAND_RNG_PSEUDO_PHILOX4_32_10);
    rocrand_set_seed(gen, 42ULL);
    rocrand_generate_uniform(gen, A, n);
    rocrand_destroy_generator(gen);

    hipfftHandle plan;
    hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
    hipfftExecC2C(plan, signal, signal, HIPFFT_FORWARD);
    hipfftDestroy(plan);

    rocsparse_handle sparse;
    rocsparse_create_handle(&sparse);
    rocsparse_destroy_handle(sparse);

    rocblas_handle solver;
    int lwork = 0;
    rocblas_create_handle(&solver);
    hipsolverDnSgetrf_bufferSize(solver, n, n, A, n, &lwork);
    rocblas_destroy_handle(solver);

    ncclComm_t comm;
    ncclUniqueId id;
    ncclGetUniqueId(&id);
    ncclCommInitRank(&comm, 1, id, 0);
    ncclAllReduce(A, B, n, ncclFloat, ncclSum, comm, 0);
    ncclCommDestroy(comm);
}
