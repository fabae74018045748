"""Every answer of the corpus (tests/course/answers): a right one is told "solved", a
wrong one "not yet" with words that name its mistake. An answer marked ``misjudged`` is
a known fault of its check, counted in docs/course_checks.md; it must still be misjudged
(strict), so fixing the check means updating the corpus."""

import pytest
from answers import all_answers, judge

ANSWERS = all_answers()


@pytest.mark.parametrize("answer", ANSWERS, ids=[a.id for a in ANSWERS])
def test_answer_is_judged_right(answer):
    verdict = judge(answer)
    if answer.misjudged:
        assert not verdict.ok, f"{answer.id} is judged right now: drop `misjudged`"
        pytest.xfail(answer.misjudged)
    want = "solved" if answer.correct else "not yet"
    assert verdict.status == want, verdict.text
    assert verdict.names_mistake, f"the feedback should say {answer.says}: {verdict.text}"
