"""Properties: tokenising loses nothing, non-CUDA text is unchanged, hipify is idempotent."""

from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.hipify import hipify_cpp, hipify_python, load_table
from gpusim.hipify.cpp import CUDA_IDENTIFIER
from gpusim.hipify.lexer import tokenize

TABLE = load_table()
CUDA_NAMES = sorted(TABLE.names)[::7]  # a spread of HIPIFY's names, every kind
PLAIN_WORDS = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda w: w not in TABLE.names and w not in TABLE.device_functions
    and not CUDA_IDENTIFIER.match(w) and w not in ("cub", "__global__", "__shared__"))
CUDA_IN_TEXT = st.sampled_from(["cudaMalloc", "cublasSgemm", "cudaMemcpyHostToDevice"])
QUOTED = CUDA_IN_TEXT.map(lambda n: f'"{n}(x)"') | CUDA_IN_TEXT.map(lambda n: f"// {n}\n") | \
    CUDA_IN_TEXT.map(lambda n: f"/* {n} */")
PUNCT = st.sampled_from([" ", "\n", "(", ")", ";", ",", "+", "*", "->", ".", "{", "}", "= ",
                         "1", "0x20", "'c'"])


@given(st.text(max_size=200))
@settings(max_examples=200, deadline=None)
def test_tokens_join_back_to_any_text(text):
    assert "".join(t.text for t in tokenize(text)) == text


@given(st.lists(PLAIN_WORDS | QUOTED | PUNCT, max_size=40))
@settings(max_examples=150, deadline=None)
def test_text_without_cuda_identifiers_is_unchanged(pieces):
    text = " ".join(pieces)
    assert hipify_cpp(text).text == text


STATEMENT = st.tuples(st.sampled_from(CUDA_NAMES), PLAIN_WORDS).map(
    lambda p: f"{p[0]}({p[1]});\n") | st.tuples(st.sampled_from(CUDA_NAMES), PLAIN_WORDS).map(
    lambda p: f"k<<<{p[1]}, 64>>>({p[0]});\n") | QUOTED | st.just("__global__ void k() {}\n")


@given(st.lists(STATEMENT, min_size=1, max_size=12), st.booleans(), st.booleans())
@settings(max_examples=150, deadline=None)
def test_hipifying_hip_output_changes_nothing(statements, launch, roc):
    once = hipify_cpp("".join(statements), hip_kernel_syntax=launch, roc=roc).text
    assert hipify_cpp(once, hip_kernel_syntax=launch, roc=roc).text == once


PY_LINES = st.sampled_from([
    "i = cuda.grid(1)\n", "cuda.syncthreads()\n", "v = cuda.shfl_down_sync(0xffffffff, v, 16)\n",
    "m = cuda.ballot_sync(cuda.activemask(), p)\n", "t = cuda.shared.array(64, float32)\n",
    "cuda.atomic.add(a, 0, 1)\n", "d = cuda.to_device(x)\n", "s = 'cuda.grid(1)'  # cuda.x\n",
    "w = cuda.blockDim.x // cuda.warpsize\n", "cuda.select_device(0)\n", "n = other.cuda.grid\n",
])
PY_HEADER = st.sampled_from(["from numba import cuda, float32\n", "import numba.cuda as cuda\n",
                             "from gpusim import cuda\nfrom numba import float32\n"])


@given(PY_HEADER, st.lists(PY_LINES, max_size=10))
@settings(max_examples=100, deadline=None)
def test_python_hipify_is_idempotent_and_leaves_no_cuda_reference(header, lines):
    once = hipify_python(header + "".join(lines)).text
    assert hipify_python(once).text == once
    code_only = [line.split("#")[0] for line in once.splitlines() if "'" not in line]
    assert not any("cuda." in line and "other.cuda" not in line for line in code_only)


@given(st.lists(PY_LINES, max_size=10))
@settings(max_examples=100, deadline=None)
def test_python_without_a_cuda_import_is_unchanged(lines):
    text = "import numpy as np\n" + "".join(lines)
    assert hipify_python(text).text == text
