// hipMalloc, hipMemcpy and <<<grid, block>>> in a comment stay as written.
/* hipFree(p); hipblasSgemm(...); #include <hip/hip_runtime.h> */
#include <vector>

struct Wrapper { int cudaStream; };

static const char* kHelp = "call hipMalloc before hipMemcpy";
static const char kQuote = '"';
static const char* kRaw = R"doc(hipDeviceSynchronize() "quoted")doc";

int my_cudaMalloc(int n) { return n; }
int cudaMallocWrapper_count = 0;

int use(Wrapper w) {
    std::vector<std::vector<int>> nested;
    return my_cudaMalloc(w.cudaStream) + cudaMallocWrapper_count + (1 >> 2);
}
