// cudaMalloc, cudaMemcpy and <<<grid, block>>> in a comment stay as written.
/* cudaFree(p); cublasSgemm(...); #include <cuda_runtime.h> */
#include <vector>

struct Wrapper { int cudaStream; };

static const char* kHelp = "call cudaMalloc before cudaMemcpy";
static const char kQuote = '"';
static const char* kRaw = R"doc(cudaDeviceSynchronize() "quoted")doc";

int my_cudaMalloc(int n) { return n; }
int cudaMallocWrapper_count = 0;

int use(Wrapper w) {
    std::vector<std::vector<int>> nested;
    return my_cudaMalloc(w.cudaStream) + cudaMallocWrapper_count + (1 >> 2);
}
