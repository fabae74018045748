"""Whole HIP programs in the style of ROCm's HIP-Basic examples run and print."""

import math

import numpy as np
import pytest

from gpusim import hip, hipcc
from gpusim.errors import KernelCompileError

VECTOR_ADD = open(__file__.replace("test_programs.py", "vector_add.hip")).read()

REDUCTION_WITH_STREAMS = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

#define CHECK(call) do { hipError_t e = (call); if (e != hipSuccess) { \
  printf("error: %s\n", hipGetErrorString(e)); return 1; } } while (0)

__global__ void sum_chunk(const int* in, unsigned long long* total, int n) {
  __shared__ int partial[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)partial[0]);
}

int main() {
  const int n = 4096;
  const int chunks = 2;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = i % 7;
  int* d_in;
  unsigned long long* d_total;
  CHECK(hipMalloc(&d_in, n * sizeof(int)));
  CHECK(hipMalloc(&d_total, sizeof(unsigned long long)));
  CHECK(hipMemset(d_total, 0, sizeof(unsigned long long)));
  hipStream_t streams[2];
  for (int c = 0; c < chunks; c++) CHECK(hipStreamCreate(&streams[c]));
  int per = n / chunks;
  for (int c = 0; c < chunks; c++) {
    CHECK(hipMemcpyAsync(d_in + c * per, h.data() + c * per, per * sizeof(int),
                         hipMemcpyHostToDevice, streams[c]));
    hipLaunchKernelGGL(sum_chunk, dim3(per / 128), dim3(128), 0, streams[c],
                       d_in + c * per, d_total, per);
  }
  CHECK(hipDeviceSynchronize());
  unsigned long long total = 0;
  CHECK(hipMemcpy(&total, d_total, sizeof(unsigned long long), hipMemcpyDeviceToHost));
  long expected = 0;
  for (int i = 0; i < n; i++) expected += i % 7;
  printf("sum = %llu (expected %ld)\n", total, expected);
  for (int c = 0; c < chunks; c++) CHECK(hipStreamDestroy(streams[c]));
  CHECK(hipFree(d_in));
  CHECK(hipFree(d_total));
  return total == expected ? 0 : 1;
}
"""


def test_vector_add_program(capsys, fresh_system):
    mod = hipcc.compile(VECTOR_ADD)
    assert mod.run() == 0
    assert capsys.readouterr().out == "vector add of 1000 elements: PASSED\n"


def test_reduction_with_streams_program(capsys, fresh_system):
    mod = hipcc.compile(REDUCTION_WITH_STREAMS)
    status = mod.run()
    out = capsys.readouterr().out
    expected = sum(i % 7 for i in range(4096))
    assert out == f"sum = {expected} (expected {expected})\n"
    assert status == 0


def test_error_check_reports_hip_error_and_exit_status(capsys, fresh_system):
    mod = hipcc.compile(r"""
    #include <hip/hip_runtime.h>
    #include <cstdio>
    #include <cstdlib>
    int main() {
      float* d;
      hipError_t err = hipMalloc(&d, (size_t)1 << 62);
      if (err != hipSuccess) {
        printf("hipMalloc failed: %s\n", hipGetErrorString(err));
        exit(EXIT_FAILURE);
      }
      return 0;
    }""")
    assert mod.run() == 1
    assert capsys.readouterr().out == "hipMalloc failed: out of memory\n"


def test_generated_python_points_at_cpp_lines():
    mod = hipcc.compile(VECTOR_ADD)
    lines = mod.python_source.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("def vector_add"))
    cpp = VECTOR_ADD.splitlines()
    assert "vector_add" in cpp[mod.cpp_line(k + 1) - 1]
    assert "# line" in lines[k]


@pytest.mark.parametrize("body, construct, line, col", [
    ("__global__ void k(int* a) {\n  switch (a[0]) { case 0: a[1] = 1; }\n}", "`switch`", 3, 3),
    ("__global__ void k(float* a) {\n  float* p;\n  a[0] = 1.0f;\n}",
     "a pointer declared without a value", 3, 10),
    ("__global__ void k(int* a) {\n  int i = a[0];\n  a[i++] = i;\n}",
     "reading `i` in the expression that changes it with `++`, `--` or `=`", 4, 12),
])
def test_unsupported_constructs_name_line_column_and_alternative(body, construct, line, col):
    mod = hipcc.compile("#include <hip/hip_runtime.h>\n" + body)  # the rest still compiles
    assert mod.errors["k"].construct == construct
    with pytest.raises(hipcc.UnsupportedCpp) as info:
        mod.get_kernel("k")
    err = info.value
    assert (err.construct, err.lineno, err.col) == (construct, line, col)
    assert "Instead:" in str(err)


def test_clang_errors_are_shown_as_clang_shows_them():
    with pytest.raises(hipcc.ClangError) as info:
        hipcc.compile("#include <hip/hip_runtime.h>\n__global__ void k(int* a) { a[0] = b; }")
    text = str(info.value)
    assert "hip_cell.hip:2:36: error: use of undeclared identifier 'b'" in text
    assert text.splitlines()[-1].strip() == "^"


STRUCT_PROGRAM = r"""
struct Params { float scale; int offset; };
__global__ void apply(Params p, const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Params q = p;
  q.offset = q.offset + 1;
  if (i < n) out[i] = in[i] * q.scale + q.offset;
}
int main() {
  Params p = {2.0f, 3};
  float h[4] = {1, 2, 3, 4};
  float *d_in, *d_out;
  hipMalloc(&d_in, sizeof(h)); hipMalloc(&d_out, sizeof(h));
  hipMemcpy(d_in, h, sizeof(h), hipMemcpyHostToDevice);
  apply<<<1, 64>>>(p, d_in, d_out, 4);
  hipMemcpy(h, d_out, sizeof(h), hipMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) printf("%g ", h[i]);
  printf("\n");
  return 0;
}
"""


def test_structs_of_scalars_on_host_and_device(capsys, fresh_system):
    mod = hipcc.compile(STRUCT_PROGRAM)
    assert mod.run() == 0
    assert capsys.readouterr().out == "6 8 10 12 \n"  # in * 2 + (3 + 1)
    x = hip.to_device(np.arange(4, dtype=np.float32))
    out = hip.device_array(4, np.float32)
    mod.get_kernel("apply")[1, 64]({"scale": 3.0, "offset": 1}, x, out, 4)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(4) * 3.0 + 2)


def test_device_printf_prints_each_thread(capfd, fresh_system):
    mod = hipcc.compile(r"""
    __global__ void hello() {
      if (threadIdx.x < 2) printf("Hello from thread %d of block %d\n", threadIdx.x, blockIdx.x);
    }
    int main() { hello<<<2, 64>>>(); hipDeviceSynchronize(); return 0; }""")
    assert mod.run() == 0
    lines = sorted(capfd.readouterr().out.splitlines())  # compiled code writes to fd 1
    assert lines == sorted(f"Hello from thread {t} of block {b}" for b in (0, 1) for t in (0, 1))


def test_gpu_fault_aborts_the_program_at_the_cpp_line(capsys, fresh_system):
    mod = hipcc.compile(r"""
    __global__ void fill(float* out, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = 1.0f;
    }
    int main() {
      float* d; hipMalloc(&d, 100 * sizeof(float));
      fill<<<2, 64>>>(d, 100);
      hipDeviceSynchronize();
      printf("not reached\n");
      return 0;
    }""")
    assert mod.run() == 134  # killed by SIGABRT, as a HIP program with a memory fault is
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "out-of-bounds write of global array 'out'" in captured.err
    assert "hip_cell.hip:4" in captured.err and "hip_" + "cell.hip:4 (" not in captured.err
    assert ".py" not in captured.err  # the generated Python is never named


MATMUL = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int TILE = 16;

__global__ void matmul_lds(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
    As[ty][tx] = (row < n && t * TILE + tx < n) ? A[row * n + t * TILE + tx] : 0.0f;
    Bs[ty][tx] = (col < n && t * TILE + ty < n) ? B[(t * TILE + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

int main() {
  const int n = 40;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; i++) { a[i] = (i % 5) - 2; b[i] = (i % 3) - 1; }
  float *da, *db, *dc;
  hipMalloc(&da, n * n * sizeof(float));
  hipMalloc(&db, n * n * sizeof(float));
  hipMalloc(&dc, n * n * sizeof(float));
  hipMemcpy(da, a.data(), n * n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(db, b.data(), n * n * sizeof(float), hipMemcpyHostToDevice);
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  hipEvent_t start, stop;
  hipEventCreate(&start); hipEventCreate(&stop);
  hipEventRecord(start);
  matmul_lds<<<grid, block>>>(da, db, dc, n);
  hipEventRecord(stop);
  hipEventSynchronize(stop);
  float ms = 0.0f;
  hipEventElapsedTime(&ms, start, stop);
  hipMemcpy(c.data(), dc, n * n * sizeof(float), hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float ref = 0.0f;
      for (int k = 0; k < n; k++) ref += a[i * n + k] * b[k * n + j];
      if (c[i * n + j] != ref) bad++;
    }
  printf("%dx%d matmul with LDS tiles: %s (grid %u x %u)\n", n, n, bad ? "FAILED" : "PASSED",
         grid.x, grid.y);
  printf("time is modeled: %s\n", ms > 0.0f ? "yes" : "no");
  hipFree(da); hipFree(db); hipFree(dc);
  return bad;
}
"""


def test_matrix_multiply_with_lds_and_events(capsys, fresh_system):
    mod = hipcc.compile(MATMUL)
    assert mod.run() == 0
    assert capsys.readouterr().out == ("40x40 matmul with LDS tiles: PASSED (grid 3 x 3)\n"
                                       "time is modeled: yes\n")


def test_device_query_program(capsys, fresh_system):
    mod = hipcc.compile(r"""
    int main() {
      int count = 0;
      hipGetDeviceCount(&count);
      hipDeviceProp_t props;
      hipGetDeviceProperties(&props, 0);
      printf("%d x %s, %d CUs, wave %d, LDS %zu\n", count, props.gcnArchName,
             props.multiProcessorCount, props.warpSize, props.sharedMemPerBlock);
      return 0;
    }""")
    assert mod.run() == 0
    props = hip.hipGetDeviceProperties(0)
    assert capsys.readouterr().out == (
        f"{hip.hipGetDeviceCount()} x {props.gcnArchName}, {props.multiProcessorCount} CUs, "
        f"wave {props.warpSize}, LDS {props.sharedMemPerBlock}\n")


def test_recursive_device_functions_run_and_their_errors_point_at_the_cpp_line(fresh_system):
    src = """
    __device__ int fact(int x) { %s return x <= 1 ? 1 : x * fact(x - 1); }
    __global__ void k(int* out) { out[threadIdx.x] = fact(threadIdx.x); }
    """
    out = hip.device_array(5, np.int32)
    hipcc.compile(src % "").get_kernel("k")[1, 5](out)
    assert out.copy_to_host().tolist() == [math.factorial(max(t, 1)) for t in range(5)]
    with pytest.raises(KernelCompileError) as info:
        hipcc.compile(src % "__syncthreads();").get_kernel("k")[1, 4](
            hip.device_array(4, np.int32))
    assert "hip_cell.hip:2" in str(info.value) and ".py" not in str(info.value)
    assert "recursive device function" in str(info.value)


def test_missing_header_is_named_with_file_line_and_column():
    with pytest.raises(hipcc.ClangError) as info:
        hipcc.compile("#include <thrust/device_vector.h>\nint main() { return 0; }")
    assert "hip_cell.hip:1:10: fatal error: 'thrust/device_vector.h' file not found" \
        in str(info.value)


def test_iostream_stl_and_device_printf_keep_program_order(capsys, fresh_system):
    mod = hipcc.compile(r"""
    #include <iostream>
    #include <vector>
    #include <numeric>
    __global__ void hello() { printf("kernel says %d\n", (int)threadIdx.x); }
    int main(int argc, char** argv) {
      std::vector<int> v(5);
      std::iota(v.begin(), v.end(), 1);
      std::cout << "sum " << std::accumulate(v.begin(), v.end(), 0) << " argc " << argc
                << std::endl;
      hello<<<1, 1>>>();
      hipDeviceSynchronize();
      std::cout << "after " << argv[1] << "\n";
      return 0;
    }""")
    assert mod.run(["x"]) == 0
    assert capsys.readouterr().out == "sum 15 argc 2\nkernel says 0\nafter x\n"
