"""Generate gpusim/hipify/data/cuda2hip.json from HIPIFY's public mapping.

The source is ``bin/hipify-perl`` of https://github.com/ROCm/HIPIFY: a script that
hipify-clang itself generates from its C++ tables (src/CUDA2HIP_*.cpp), so it holds the
whole CUDA -> HIP mapping as plain data: ``subst("cudaMalloc", "hipMalloc", "memory");``
lines (name, replacement, HIPIFY's conversion kind) and the lists of names HIPIFY marks
unsupported. Only that data is carried over, with the commit it came from; none of the
script's code is.

    python tools/hipify_table.py --git /path/to/HIPIFY.git [--commit SHA]

NCCL is not in HIPIFY's tables: RCCL keeps NCCL's API names and only the header differs.
That one entry is a hand-written supplement below, with its source, marked as such.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "gpusim" / "hipify" / "data" / "cuda2hip.json"
REPOSITORY = "https://github.com/ROCm/HIPIFY"

SUBST = re.compile(r'^\s*subst\("([^"]+)", "([^"]*)", "(\w+)"\);', re.M)
SUB = re.compile(r"^sub (\w+) \{\n(.*?)^\}", re.M | re.S)
HASH = re.compile(r"^my %(\w+) = \(\n(.*?)^\);", re.M | re.S)
PAIR = re.compile(r'"([^"]+)" => "([^"]+)"')
QUOTED = re.compile(r'"([^"]+)"')
ENTRY = re.compile(r'\{"(\w+)",\s*\{"[^"]*",\s*"[^"]*",\s*(CONV_\w+),')
COUNTER = re.compile(r'"(\w+)", // (CONV_\w+)')
FOREACH = re.compile(r"foreach \$func \((.*?)\)\s*\{(.*?)\n    \}", re.S)

# RCCL installs its header as rccl/rccl.h and exports NCCL's function names unchanged
# (RCCL README, "RCCL ... implements ... NCCL APIs"; https://github.com/ROCm/rccl).
SUPPLEMENT = {
    "nccl.h": ["rccl/rccl.h", "include",
               "hand-written: https://github.com/ROCm/rccl (NCCL API names kept, header moved)"],
}


def _unescape(text: str) -> str:
    return text.replace("\\/", "/")


def _substitutions(body: str) -> dict[str, list[str]]:
    return {_unescape(a): [_unescape(b), kind] for a, b, kind in SUBST.findall(body)}


def _names(body: str) -> list[str]:
    """Every quoted name in the ``foreach $func (...)`` list of a sub."""
    found = FOREACH.search(body)
    return sorted(set(QUOTED.findall(found.group(1)))) if found else []


def _symbol_arguments(body: str) -> dict[str, list]:
    """transformHostFunctions: which argument of which HIP call gets wrapped, and how.

    Each block's replacement wraps one argument in HIP_SYMBOL(...) or
    reinterpret_cast<const void*>(...); its position is the number of commas before the
    wrap in the replacement. Blocks that drop an argument instead are not wraps.
    """
    wraps: dict[str, list] = {}
    for names, block in FOREACH.findall(body):
        replacement = re.search(r"/((?:[^/\\]|\\.)*)/g;", block).group(1)
        wrapped = re.search(r"HIP_SYMBOL|reinterpret_cast<const void\*>", replacement)
        if not wrapped:
            continue
        position = replacement[:wrapped.start()].count(",")
        for name in QUOTED.findall(names):
            wraps[name] = [position, wrapped.group(0)]
    return wraps


SUBST_OP = re.compile(r"s/((?:[^/\\]|\\.)*)/((?:[^/\\]|\\.)*)/g;")
GROUP = re.compile(r"(?<!\\)\(((?:\[(?:[^\]\\]|\\.)*\]|\\.|[^()\\])*)\)")
ARGUMENT = r"[^,\)]+"  # how transformHostFunctions' regexes match one call argument


def _dropped_arguments(body: str) -> dict[str, list[int]]:
    r"""transformHostFunctions: which arguments of which HIP call are dropped.

    hipify-perl drops an argument by matching it with a group its replacement never
    names: ``s/($func)\s*\(([^,\)]+),([^,\)]+),([^,\)]+),([\s]*)([^,\)]+)(,\s*|\))/
    $func\($2,$3,$4$7/g`` leaves out ``$6``, the 4th argument (index 3) of
    cuOccupancyMaxPotentialBlockSize, its CUoccupancyB2DSize callback, which HIP's
    hipModuleOccupancyMaxPotentialBlockSize does not take.
    """
    dropped: dict[str, list[int]] = {}
    for names, block in FOREACH.findall(body):
        pattern, replacement = SUBST_OP.search(block).groups()
        groups = [g for g in GROUP.findall(pattern) if not g.startswith("?")]  # (?<!...)
        arguments = [n for n, g in enumerate(groups, start=1) if g == ARGUMENT]
        named = {int(n) for n in re.findall(r"\$(\d+)", replacement)}
        lost = [arguments.index(n) for n in arguments if n not in named]
        for name in QUOTED.findall(names) if lost else ():
            dropped[name] = lost
    return dropped


def _kinds(sources: dict[str, str], names: set[str]) -> dict[str, str]:
    """HIPIFY's conversion kind (e.g. "graph") of each unsupported name, from the C++
    tables in src/CUDA2HIP_*.cpp; hipify-perl's lists of unsupported names omit it."""
    kind_name = {conv: name for name, conv in COUNTER.findall(sources["src/Statistics.cpp"])}
    kinds = {}
    for path, text in sources.items():
        if path.startswith("src/CUDA2HIP_"):
            for name, conv in ENTRY.findall(text):
                if name in names and conv in kind_name:
                    kinds.setdefault(name, kind_name[conv])
    return dict(sorted(kinds.items()))


def build(perl: str, commit: str, sources: dict[str, str]) -> dict:
    subs = {name: body for name, body in SUB.findall(perl)}
    hashes = {name: dict(PAIR.findall(body)) for name, body in HASH.findall(perl)}
    version = re.search(r"HIP version ([\d.]+)", perl)
    whitelist = re.search(r"@whitelist = \((.*?)\);", perl, re.S)
    unsupported = {name for key in ("warnUnsupportedFunctions", "warnHipOnlyUnsupportedFunctions",
                                    "warnRocOnlyUnsupportedFunctions",
                                    "warnUnsupportedDeviceFunctions")
                   for name in _names(subs[key])}
    return {
        "source": {
            "repository": REPOSITORY,
            "commit": commit,
            "file": "bin/hipify-perl (kinds of unsupported names: src/CUDA2HIP_*.cpp)",
            "hip_version": version.group(1) if version else None,
            "generated_by": "tools/hipify_table.py",
            "note": "HIPIFY is MIT-licensed (LICENSE.txt); only its mapping data is used.",
        },
        "map": _substitutions(subs["simpleSubstitutions"]),
        "roc": _substitutions(subs["rocSubstitutions"]),
        "experimental": _substitutions(subs["experimentalSubstitutions"]),
        "unsupported": _names(subs["warnUnsupportedFunctions"]),
        "unsupported_hip": _names(subs["warnHipOnlyUnsupportedFunctions"]),
        "unsupported_roc": _names(subs["warnRocOnlyUnsupportedFunctions"]),
        "device_functions": _names(subs["countSupportedDeviceFunctions"]),
        "unsupported_device_functions": _names(subs["warnUnsupportedDeviceFunctions"]),
        "unsupported_kinds": _kinds(sources, unsupported),
        "deprecated": hashes["deprecated_funcs"],
        "removed": hashes["removed_funcs"],
        "whitelist": sorted(QUOTED.findall(whitelist.group(1))),
        "symbol_arguments": _symbol_arguments(subs["transformHostFunctions"]),
        "dropped_arguments": _dropped_arguments(subs["transformHostFunctions"]),
        "supplement": SUPPLEMENT,
    }


def _write(table: dict, path: Path) -> None:
    # One entry per line so a regenerated table diffs line by line.
    lines = ["{"]
    items = list(table.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, dict) and key != "source":
            inner = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            lines.append(f"{json.dumps(key)}: {{\n{inner}\n}}{comma}")
        elif isinstance(value, list):
            inner = ",\n".join(f"  {json.dumps(v)}" for v in value)
            lines.append(f"{json.dumps(key)}: [\n{inner}\n]{comma}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git", type=Path, required=True,
                        help="a clone (or bare mirror) of https://github.com/ROCm/HIPIFY")
    parser.add_argument("--commit", help="the commit to read (default: HEAD)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    git = ["git", "-C", str(args.git)]
    commit = subprocess.check_output([*git, "rev-parse", args.commit or "HEAD"], text=True).strip()
    paths = subprocess.check_output([*git, "ls-tree", "--name-only", commit, "src/"],
                                    text=True).split()
    sources = {path: subprocess.check_output([*git, "show", f"{commit}:{path}"], text=True)
               for path in paths if path.endswith(".cpp")}
    perl = subprocess.check_output([*git, "show", f"{commit}:bin/hipify-perl"], text=True)
    table = build(perl, commit, sources)
    _write(table, args.out)
    print(f"{args.out}: {len(table['map'])} mappings, {len(table['roc'])} roc mappings, "
          f"{len(table['unsupported'])} unsupported names, from {REPOSITORY}@{commit[:12]}")


if __name__ == "__main__":
    main()
