"""NVIDIA's CUDA samples (cuda_samples/) hipify as hipify-perl would, and warn only with cause.

cuda_samples/ holds 30 cuda-samples programs copied unchanged (SOURCES.md says from which
commit, under which licence, and by which rule); manifest.toml says how to build, run and
check each. Each source, with the headers it includes from the corpus, goes through the
gpusim-hipify command (its ``main``, in this process). Running the hipified programs is
gpusim.hipcc's part and is not done here.
"""

import contextlib
import hashlib
import io
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from gpusim.hipify import load_table
from gpusim.hipify.cli import main
from gpusim.hipify.lexer import tokenize

CORPUS = Path(__file__).with_name("cuda_samples")
PROGRAMS = tomllib.loads((CORPUS / "manifest.toml").read_text())["program"]
FIELDS = {"name": str, "sources": list, "include": list, "args": list, "expect_status": int,
          "expect_stdout": str, "needs": list, "note": str}
# why it does not run, and whether ROCm cannot run it either (cuda_run.py)
OPTIONAL = {"known_failure": str, "by_design": bool, "flags": list}
TABLE = load_table()
MIRROR = Path("/work/.mirror/ROCm+HIPIFY/repo")  # a clone of ROCm/HIPIFY, if there is one
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
UNKNOWN = re.compile(r"warning: unknown CUDA identifier: (\w+)")
# Reported, and rightly: HIP 6.3 has no <cooperative_groups/reduce.h> (nor cg::reduce).
EXPECTED_UNKNOWN = {
    "Samples/3_CUDA_Features/warpAggregatedAtomicsCG/warpAggregatedAtomicsCG.cu":
        ["cooperative_groups/reduce.h"],
    "Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu":
        ["cooperative_groups/reduce.h"],
    "Samples/2_Concepts_and_Techniques/reductionMultiBlockCG/reductionMultiBlockCG.cu":
        ["cooperative_groups/reduce.h"],
}


def _files(program: dict) -> list[Path]:
    """The program's sources and every corpus header they include, transitively."""
    dirs = [CORPUS / d for d in program["include"]]
    todo, found = [CORPUS / s for s in program["sources"]], []
    while todo:
        path = todo.pop(0)
        if path in found:
            continue
        found.append(path)
        for quote, name in INCLUDE.findall(path.read_text()):
            for where in ([path.parent] if quote == '"' else []) + dirs:
                if (where / name).is_file():
                    todo.append(where / name)
                    break
    return found


def _hipify(path: Path, tmp_path: Path) -> tuple[int, str, str]:
    """gpusim-hipify PATH -o OUT: exit status, HIP text, stderr."""
    out, err = tmp_path / (path.name + ".hip"), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main([str(path), "-o", str(out)])
    return status, out.read_text() if out.exists() else "", err.getvalue()


def _code_identifiers(text: str) -> list[tuple[str, int]]:
    """Identifiers outside comments and strings, but for members (``s.x``, ``p->x``)."""
    tokens = [t for t in tokenize(text) if t.kind not in ("space", "comment")]
    return [(t.text, t.line) for k, t in enumerate(tokens)
            if t.kind == "ident" and (k == 0 or tokens[k - 1].text not in (".", "->"))]


DEFINED = re.compile(
    r"#[ \t]*define[ \t]+(\w+)"                                   # macros
    r"|\b(?:struct|class|union|enum|typedef[^;{]*?)[ \t]+(\w+)"   # types
    r"|\b(?!return\b|case\b|else\b|throw\b|new\b|delete\b|goto\b)\w+[ \t*&]+(\w+)[ \t]*"
    r"(?:[=;,)\[]|\([^;]*\)[ \t\n]*\{|\([^;{}]*\)[ \t]*;)"      # variables, functions,
)                                                                 # dim3 cudaBlockSize(256);


def _defined_here(text: str) -> set[str]:
    """Names the file defines, by a plain regex (a check independent of hipify's own)."""
    return {name for match in DEFINED.finditer(text) for name in match.groups() if name}


def test_manifest_is_complete_and_names_files_that_exist():
    assert len(PROGRAMS) >= 20
    assert len({p["name"] for p in PROGRAMS}) == len(PROGRAMS)
    for program in PROGRAMS:
        fields = {k: type(v) for k, v in program.items() if k not in OPTIONAL}
        assert fields == FIELDS, program["name"]
        assert all(isinstance(program[k], t) for k, t in OPTIONAL.items() if k in program)
        for source in program["sources"]:
            assert (CORPUS / source).is_file() and source.endswith((".cu", ".cpp")), source
            assert f"/{program['name']}/" in source
        assert all((CORPUS / d).is_dir() for d in program["include"])
        assert all(isinstance(a, str) for a in program["args"] + program["needs"])
        re.compile(program["expect_stdout"])
        assert program["note"].strip()


def test_every_file_is_an_unchanged_copy():
    """SOURCES.md lists each file's git blob id at the cuda-samples commit it came from."""
    listed = dict(line.split()[::-1] for line in
                  (CORPUS / "SOURCES.md").read_text().split("```")[1].strip().splitlines())
    present = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.is_file()}
    assert present - set(listed) == {"manifest.toml", "SOURCES.md"}
    for path, blob in listed.items():
        data = (CORPUS / path).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, path
    used = {str(f.relative_to(CORPUS)) for p in PROGRAMS for f in _files(p)}
    assert set(listed) - used == {"LICENSE"}  # nothing copied that no sample uses


@pytest.mark.parametrize("program", PROGRAMS, ids=[p["name"] for p in PROGRAMS])
def test_sample_hipifies_with_status_0_and_only_warranted_warnings(program, tmp_path):
    for path in _files(program):
        relative = str(path.relative_to(CORPUS))
        source = path.read_text()
        status, text, stderr = _hipify(path, tmp_path)
        assert status == 0, f"{relative}: {stderr}"
        unknown = [m.group(1) for m in UNKNOWN.finditer(stderr)]
        defined = _defined_here(source)
        assert not set(unknown) & defined, relative  # the file's own names are not CUDA's
        headers = re.findall(r"CUDA header with no HIP counterpart: (\S+)", stderr)
        assert unknown + headers == EXPECTED_UNKNOWN.get(relative, []), relative
        reported = set(re.findall(r"identifier: (\w+)|function \"(\w+)\"", stderr))
        reported = {name for pair in reported for name in pair if name}
        for name, line in _code_identifiers(text):
            found = TABLE.lookup(name)
            # nothing left that HIPIFY's table (hipify-perl's substitutions) renames
            assert not found or found[0] == name, f"{relative}:{line}: {name}"
            if re.fullmatch(r"cuda[A-Z]\w+", name):  # hipify-perl's "looks like CUDA"
                assert name in reported or name in defined, f"{relative}:{line}: {name}"


def _perl_script(tmp_path: Path) -> Path:
    script = tmp_path / "hipify-perl"
    script.write_text(subprocess.check_output(
        ["git", "-C", str(MIRROR), "show", f"{TABLE.source['commit']}:bin/hipify-perl"],
        text=True))
    return script


@pytest.mark.skipif(not (MIRROR.exists() and shutil.which("perl")),
                    reason="needs perl and a local clone of ROCm/HIPIFY")
@pytest.mark.parametrize("program", PROGRAMS, ids=[p["name"] for p in PROGRAMS])
def test_same_code_as_hipify_perl(program, tmp_path):
    """hipify-perl itself (the table's commit) on the same file: the same code, token by
    token, outside comments and strings (which hipify-perl rewrites and we keep), but for
    the one difference cpp.py lists that shows here: hipify-perl adds
    ``#include "hip/hip_runtime.h"`` also where the file already includes it."""
    script = _perl_script(tmp_path)
    for path in _files(program):
        perl = subprocess.run(["perl", str(script), "-quiet-warnings", str(path)],
                              capture_output=True, text=True, check=True).stdout
        status, ours, _ = _hipify(path, tmp_path)
        added = '#include "hip/hip_runtime.h"\n'
        if perl.startswith(added) and not ours.startswith(added) and \
                "<hip/hip_runtime.h>" in ours:
            perl = perl[len(added):]
        # hipify-perl casts a kernel argument only when it has no parenthesis (its regex is
        # ``\(([^,\)]+),``), so ``hipLaunchCooperativeKernel((void *)k, ...)`` keeps its
        # argument bare there (reductionMultiBlockCG.cu:160); gpusim-hipify wraps it in
        # ``reinterpret_cast<const void*>(...)`` as it does every other argument.
        ours = re.sub(r"reinterpret_cast<const void\*>\((\([^()]*\)\s*\w+)\)", r"\1", ours) \
            if "reinterpret_cast<const void*>((" not in perl else ours

        def code(text):
            return [t.text for t in tokenize(text)
                    if t.kind not in ("space", "comment", "string", "char")]

        assert status == 0 and code(ours) == code(perl), path.relative_to(CORPUS)
