"""Checks of labs 07-12: a right submission is told "solved"; each wrong one "not yet"
with what is wrong (never a crash, never the answer)."""

import pytest
import submissions_labs2 as sub

import gpusim
from gpusim import course
from gpusim.course.feedback import WIDTH

GBS = gpusim.devices.get_spec("mi300x").memory_bandwidth_gbs


@pytest.fixture(autouse=True)
def one_gpu():
    gpusim.set_system("mi300x", ngpus=1)
    yield
    gpusim.set_system()


def told(feedback, *phrases):
    text = str(feedback)
    assert feedback.status == "not yet", text
    assert all(len(line) <= WIDTH + 2 for line in text.splitlines()), text
    flat = " ".join(text.split())
    for phrase in phrases:
        assert phrase in flat, text
    return flat


def solved(feedback):
    assert feedback.status == "solved", str(feedback)
    return " ".join(str(feedback).split())


def test_12_1_roofline():
    def right(rows, cols):
        return 2 * rows * cols * 4 / (GBS * 1e9) * 1e6
    solved(course.check("12.1", right))
    told(course.check("12.1", lambda r, c: right(r, c) / 2), "bytes written")
    told(course.check("12.1", lambda r, c: right(r, c) / 1e6), "in seconds")
    told(course.check("12.1", lambda r, c: right(r, c) * 1e3), "in nanoseconds")
    told(course.check("12.1", lambda r, c: 0.0), "too small")


def test_12_2_block_size():
    assert "faster than block 256" in solved(course.check("12.2", sub.softmax_naive, 64))
    told(course.check("12.2", sub.softmax_naive, 256), "target is 1.5x")
    told(course.check("12.2", sub.softmax_naive, 100), "not a whole number")
    told(course.check("12.2", sub.softmax_naive, "64"), "positive number")


def test_12_3_softmax_wave():
    assert "coalesced" in solved(course.check("12.3", sub.softmax_wave_right))
    told(course.check("12.3", sub.softmax_wave_starter), "which is not right")
    told(course.check("12.3", sub.softmax_wave32), "which is not right")
    told(course.check("12.3", sub.softmax_wave_chunked), "8 cache lines")


def test_12_4_one_launch():
    assert "roofline" in solved(course.check("12.4", sub.softmax_all_right))
    told(course.check("12.4", sub.softmax_all_per_head), "16 launches")
    told(course.check("12.4", sub.softmax_all_first_head), "never written")
