#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>

#define HIP_CHECK(call)                                                          \
  do {                                                                           \
    hipError_t err_ = (call);                                                    \
    if (err_ != hipSuccess) {                                                    \
      fprintf(stderr, "HIP error %s at line %d\n", hipGetErrorString(err_), __LINE__); \
      exit(EXIT_FAILURE);                                                        \
    }                                                                            \
  } while (0)

#define N 1000
#define BLOCK 256

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

int main() {
  std::vector<float> h_a(N), h_b(N), h_c(N);
  for (int i = 0; i < N; ++i) {
    h_a[i] = i * 0.5f;
    h_b[i] = 2.0f * i;
  }
  float *d_a, *d_b, *d_c;
  size_t bytes = N * sizeof(float);
  HIP_CHECK(hipMalloc(&d_a, bytes));
  HIP_CHECK(hipMalloc(&d_b, bytes));
  HIP_CHECK(hipMalloc(&d_c, bytes));
  HIP_CHECK(hipMemcpy(d_a, h_a.data(), bytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_b, h_b.data(), bytes, hipMemcpyHostToDevice));
  int blocks = (N + BLOCK - 1) / BLOCK;
  vector_add<<<blocks, BLOCK>>>(d_a, d_b, d_c, N);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(h_c.data(), d_c, bytes, hipMemcpyDeviceToHost));
  int errors = 0;
  for (int i = 0; i < N; ++i) {
    if (fabsf(h_c[i] - 2.5f * i) > 1e-5f) errors++;
  }
  printf("vector add of %d elements: %s\n", N, errors == 0 ? "PASSED" : "FAILED");
  HIP_CHECK(hipFree(d_a));
  HIP_CHECK(hipFree(d_b));
  HIP_CHECK(hipFree(d_c));
  return errors == 0 ? 0 : 1;
}
