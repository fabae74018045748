"""Properties: tokenising loses nothing, non-CUDA text is unchanged, hipify is idempotent."""

from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.hipify import hipify_cpp, load_table
from gpusim.hipify.cpp import CUDA_LOOKING
from gpusim.hipify.lexer import tokenize

TABLE = load_table()
CUDA_NAMES = sorted(TABLE.names)[::7]  # a spread of HIPIFY's names, every kind
PLAIN_WORDS = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda w: w not in TABLE.names and w not in TABLE.device_functions
    and not CUDA_LOOKING.match(w) and w not in ("cub", "__global__", "__shared__"))
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
