// Reference streams from cuRAND's device API (Philox4_32_10, XORWOW, MRG32k3a).
// One thread per case; prints text lines: GEN SEED SUBSEQ OFFSET KIND hex-words...
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

#define NW 64
#define NF 16
struct Out {
  unsigned int st0[32], st1[32];      // state words after init and after the NW draws
  unsigned int words[NW];             // curand()
  float unif[NF];                     // curand_uniform() from a fresh init
  float norm[NF];                     // curand_normal() from a fresh init
  float norm2[NF];                    // curand_normal2() pairs from a fresh init
  unsigned int skip[NF];              // init(seed,0,0); skipahead(offset); skipahead_sequence(subseq)
  double unifd[NF];                   // curand_uniform_double() from a fresh init
};

template <class S>
__global__ void run(const unsigned long long* seed, const unsigned long long* sub,
                    const unsigned long long* off, Out* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  S s;
  Out& o = out[i];
  curand_init(seed[i], sub[i], off[i], &s);
  memset(o.st0, 0, sizeof o.st0); memset(o.st1, 0, sizeof o.st1);
  memcpy(o.st0, &s, sizeof(S) < 128 ? sizeof(S) : 128);
  for (int k = 0; k < NW; k++) o.words[k] = curand(&s);
  memcpy(o.st1, &s, sizeof(S) < 128 ? sizeof(S) : 128);
  curand_init(seed[i], sub[i], off[i], &s);
  for (int k = 0; k < NF; k++) o.unif[k] = curand_uniform(&s);
  curand_init(seed[i], sub[i], off[i], &s);
  for (int k = 0; k < NF; k++) o.norm[k] = curand_normal(&s);
  curand_init(seed[i], sub[i], off[i], &s);
  for (int k = 0; k < NF; k += 2) { float2 r = curand_normal2(&s); o.norm2[k] = r.x; o.norm2[k + 1] = r.y; }
  curand_init(seed[i], 0, 0, &s);
  skipahead(off[i], &s);
  skipahead_sequence(sub[i], &s);
  for (int k = 0; k < NF; k++) o.skip[k] = curand(&s);
  curand_init(seed[i], sub[i], off[i], &s);
  for (int k = 0; k < NF; k++) o.unifd[k] = curand_uniform_double(&s);
}

static void hex(const char* g, unsigned long long a, unsigned long long b, unsigned long long c,
                const char* kind, const void* p, int n) {
  printf("%s %llu %llu %llu %s", g, a, b, c, kind);
  const unsigned int* w = (const unsigned int*)p;
  for (int k = 0; k < n; k++) printf(" %08x", w[k]);
  printf("\n");
}

template <class S>
void gen(const char* name, int nstate) {
  const unsigned long long seeds[] = {0ULL, 1ULL, 1234ULL, 0xdeadbeefdeadbeefULL, 4294967303ULL, 12345ULL, 0xffffffffffffffffULL};
  const unsigned long long subs[] = {0ULL, 1ULL, 5ULL, 1000ULL, 1099511627779ULL};
  const unsigned long long offs[] = {0ULL, 1ULL, 3ULL, 4ULL, 5ULL, 1000ULL, 8589934593ULL};
  const int ns = 7, nb = 5, no = 7;
  int n = 0;
  unsigned long long hs[ns * nb * no], hb[ns * nb * no], ho[ns * nb * no];
  for (int a = 0; a < ns; a++) for (int b = 0; b < nb; b++) for (int c = 0; c < no; c++) {
    // all seeds with (0,0); all subsequence/offset pairs for seeds 1234 and the 64-bit one
    bool keep = (b == 0 && c == 0) || a == 2 || a == 3 || (b == 0) || (c == 0);
    if (!keep) continue;
    hs[n] = seeds[a]; hb[n] = subs[b]; ho[n] = offs[c]; n++;
  }
  unsigned long long *ds, *db, *dof; Out* dout;
  cudaMalloc(&ds, n * 8); cudaMalloc(&db, n * 8); cudaMalloc(&dof, n * 8);
  cudaMalloc(&dout, n * sizeof(Out));
  cudaMemcpy(ds, hs, n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dof, ho, n * 8, cudaMemcpyHostToDevice);
  run<S><<<(n + 63) / 64, 64>>>(ds, db, dof, dout, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(e)); return; }
  Out* h = new Out[n];
  cudaMemcpy(h, dout, n * sizeof(Out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    hex(name, hs[i], hb[i], ho[i], "state0", h[i].st0, nstate);
    hex(name, hs[i], hb[i], ho[i], "words", h[i].words, NW);
    hex(name, hs[i], hb[i], ho[i], "state1", h[i].st1, nstate);
    hex(name, hs[i], hb[i], ho[i], "uniform", h[i].unif, NF);
    hex(name, hs[i], hb[i], ho[i], "normal", h[i].norm, NF);
    hex(name, hs[i], hb[i], ho[i], "normal2", h[i].norm2, NF);
    hex(name, hs[i], hb[i], ho[i], "skipahead", h[i].skip, NF);
    hex(name, hs[i], hb[i], ho[i], "uniform_double", h[i].unifd, 2 * NF);
  }
  delete[] h;
  fprintf(stderr, "%s: %d cases, sizeof(state) = %zu\n", name, n, sizeof(S));
}

int main() {
  int v = 0; curandGetVersion(&v);
  printf("# cuRAND version %d\n", v);
  gen<curandStatePhilox4_32_10_t>("philox4x32_10", sizeof(curandStatePhilox4_32_10_t) / 4);
  gen<curandStateXORWOW_t>("xorwow", sizeof(curandStateXORWOW_t) / 4);
  gen<curandStateMRG32k3a_t>("mrg32k3a", sizeof(curandStateMRG32k3a_t) / 4);
  return 0;
}
