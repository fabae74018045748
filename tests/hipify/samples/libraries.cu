// Library names: cuBLAS, cuRAND (host and device), cuFFT, cuSPARSE, cuSOLVER, NCCL.
#include <cublas_v2.h>
#include <curand.h>
#include <curand_kernel.h>
#include <cufft.h>
#include <cusparse.h>
#include <cusolverDn.h>
#include <nccl.h>

__global__ void draw(curandStatePhilox4_32_10_t* states, float* out) {
    int i = threadIdx.x;
    curand_init(1234, i, 0, &states[i]);
    out[i] = curand_uniform(&states[i]);
}

void libraries(float* A, float* B, float* C, int n, cufftComplex* signal) {
    cublasHandle_t blas;
    cublasCreate(&blas);
    const float alpha = 1.0f, beta = 0.0f;
    cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, A, n, B, n, &beta, C, n);
    cublasDestroy(blas);

    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
    curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
    curandGenerateUniform(gen, A, n);
    curandDestroyGenerator(gen);

    cufftHandle plan;
    cufftPlan1d(&plan, n, CUFFT_C2C, 1);
    cufftExecC2C(plan, signal, signal, CUFFT_FORWARD);
    cufftDestroy(plan);

    cusparseHandle_t sparse;
    cusparseCreate(&sparse);
    cusparseDestroy(sparse);

    cusolverDnHandle_t solver;
    int lwork = 0;
    cusolverDnCreate(&solver);
    cusolverDnSgetrf_bufferSize(solver, n, n, A, n, &lwork);
    cusolverDnDestroy(solver);

    ncclComm_t comm;
    ncclUniqueId id;
    ncclGetUniqueId(&id);
    ncclCommInitRank(&comm, 1, id, 0);
    ncclAllReduce(A, B, n, ncclFloat, ncclSum, comm, 0);
    ncclCommDestroy(comm);
}
