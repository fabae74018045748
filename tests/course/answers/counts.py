"""Print the checks' accuracy on the answer corpus, per exercise and in all, as the
Markdown table of docs/course_checks.md.

    python tests/course/answers/counts.py
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from answers import all_answers, judge  # noqa: E402


def table() -> str:
    rows: dict[str, list[int]] = defaultdict(lambda: [0] * 5)
    for answer in all_answers():
        v = judge(answer)
        r = rows[answer.exercise]
        if answer.correct:
            r[0] += v.judged_right
            r[1] += 1
        else:
            r[2] += v.judged_right
            r[3] += 1
            r[4] += v.judged_right and v.names_mistake
    total = [sum(col) for col in zip(*rows.values(), strict=True)]
    lines = ["| exercise | right answers accepted | wrong answers refused "
             "| refusals naming the mistake |", "|---|---|---|---|"]
    for ex, (a, na, w, nw, m) in sorted(rows.items()) + [("all", total)]:
        name = f"**{ex}**" if ex == "all" else ex
        lines.append(f"| {name} | {a} of {na} | {w} of {nw} | {m} of {w} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
