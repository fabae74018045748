// Reference streams for MTGP32 and MT19937 from cuRAND (see README.md):
//  mtgp32_block SEED B words: the first 1024 curand() outputs of MTGP32 engine B, from the
//    device API (curandMakeMTGP32KernelState with mtgp32dc_params_fast_11213, 200 engines,
//    one block of 256 threads per engine, each thread's r-th call is output 256 r + t)
//  host_mt19937 / host_mtgp32 SEED I words: outputs I .. I+255 of cuRAND's host-API
//    generator (curandGenerate, default ordering) after curandSetPseudoRandomGeneratorSeed
#include <cstdio>
#include <cstdlib>
#include <curand.h>
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>
__global__ void k(curandStateMtgp32* s, unsigned* o, int m) {
  for (int r = 0; r < m; r++) o[blockIdx.x * m * 256 + r * 256 + threadIdx.x] = curand(&s[blockIdx.x]);
}
void pr(const char* g, unsigned long long s, long i, const unsigned* w, int n) {
  printf("%s %llu %ld", g, s, i);
  for (int k = 0; k < n; k++) printf(" %08x", w[k]);
  printf("\n");
}
int main() {
  const unsigned long long seeds[] = {0ULL, 1ULL, 1234ULL, 0xdeadbeefdeadbeefULL};
  const int B = 200, M = 4;
  const size_t NH = 11000000;
  unsigned *d, *h = (unsigned*)malloc(NH * 4);
  cudaMalloc(&d, NH * 4);
  curandStateMtgp32* st;
  cudaMalloc(&st, B * sizeof(curandStateMtgp32));
  mtgp32_kernel_params* kp;
  cudaMalloc(&kp, sizeof(mtgp32_kernel_params));
  curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, kp);
  for (unsigned long long s : seeds) {
    curandMakeMTGP32KernelState(st, mtgp32dc_params_fast_11213, kp, B, s);
    k<<<B, 256>>>(st, d, M);
    cudaMemcpy(h, d, (size_t)B * M * 256 * 4, cudaMemcpyDeviceToHost);
    for (int b : {0, 1, 2, 199}) pr("mtgp32_block", s, b, h + (size_t)b * M * 256, M * 256);
    for (int t : {(int)CURAND_RNG_PSEUDO_MT19937, (int)CURAND_RNG_PSEUDO_MTGP32}) {
      curandGenerator_t g;
      curandCreateGenerator(&g, (curandRngType_t)t);
      curandSetPseudoRandomGeneratorSeed(g, s);
      curandGenerate(g, d, NH);
      cudaMemcpy(h, d, NH * 4, cudaMemcpyDeviceToHost);
      const char* nm = t == CURAND_RNG_PSEUDO_MT19937 ? "host_mt19937" : "host_mtgp32";
      for (long i : {0L, 65536L, 5111808L, 5177344L, 10223616L}) pr(nm, s, i, h + i, 256);
      curandDestroyGenerator(g);
    }
  }
  return 0;
}
