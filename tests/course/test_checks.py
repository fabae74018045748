"""Each exercise check: a right submission is told "solved"; each wrong one is told
"not yet" with what is wrong (never a crash, never the answer)."""

import json

import numpy as np
import pytest
import submissions as sub

import gpusim
from gpusim import course
from gpusim.exercises.feedback import WIDTH


@pytest.fixture(autouse=True)
def one_gpu():
    gpusim.set_system("mi300x", ngpus=1)
    yield
    gpusim.set_system()


def told(feedback, *phrases):
    """The feedback is "not yet", fits the page, and says each phrase."""
    text = str(feedback)
    assert feedback.status == "not yet", text
    assert all(len(line) <= WIDTH + 2 for line in text.splitlines()), text
    flat = " ".join(text.split())  # phrases may be wrapped across lines
    for phrase in phrases:
        assert phrase in flat, text
    return flat


def solved(feedback):
    assert feedback.status == "solved", str(feedback)
    assert "solved." in str(feedback).splitlines()[0]
    return " ".join(str(feedback).split())


def test_00_1_resident_work_items():
    spec = gpusim.devices.get_spec("mi300x")
    right = spec.cu_count * spec.simds_per_cu * spec.max_waves_per_simd * spec.wave_size
    assert "622,592" in solved(course.check("00.1", right))
    told(course.check("00.1", 0), "too small")
    told(course.check("00.1", right // spec.wave_size), "counts wavefronts")
    told(course.check("00.1", 2 * right), "too large")
    told(course.check("00.1", "lots"), "should be a number")
    assert "622" not in str(course.check("00.1", 1))  # the answer is never shown


def test_00_2_bytes():
    x = np.zeros(1000, np.float32)
    solved(course.check("00.2", 4000, x))
    told(course.check("00.2", 1000, x), "number of elements")
    told(course.check("00.2", 8000, x), "too large")


@pytest.mark.parametrize("kernel, phrases", [
    (sub.scale_no_loop, ["out[16384] was never written", "32,845 of 49,229"]),
    (sub.scale_stride_64, ["each was written about", "times: threads are repeating"]),
    (sub.scale_skips, ["was never written"]),
    (sub.scale_past_end, ["hipErrorIllegalAddress", "out-of-bounds"]),
    (sub.scale_wrong_factor, ["out[0] is", "which is not right"]),
])
def test_01_1_grid_stride_mistakes(kernel, phrases):
    told(course.check("01.1", kernel), *phrases)


def test_01_1_right():
    assert "each written once" in solved(course.check("01.1", sub.scale_right))


def test_02_1_wave_sums():
    solved(course.check("02.1", sub.wave_sums_right))
    told(course.check("02.1", sub.wave_sums_cuda), "sums[0] is", "8 of 8")
    told(course.check("02.1", sub.wave_sums_no_store), "never written")


def test_03_1_histogram():
    solved(course.check("03.1", sub.histogram_right))
    told(course.check("03.1", sub.histogram_uninitialised), "sanitizer", "uninitialised", "h")
    told(course.check("03.1", sub.histogram_no_barrier), "sanitizer", "race")


def test_03_2_one_atomic_per_block():
    assert "8 atomics for 8 blocks" in solved(course.check("03.2", sub.total_atomic_per_block))
    told(course.check("03.2", sub.total_racy), "sanitizer", "global race", "total")
    told(course.check("03.2", sub.total_atomic_per_element), "2,048 atomics",
         "atomic per element")


def test_04_1_streams():
    one = sub.make_pipeline(lambda c, streams: streams[0])
    told(course.check("04.1", *one), "on one of them", "1.00x")
    spread = sub.make_pipeline(lambda c, streams: streams[c % len(streams)])
    assert "4 streams" in solved(course.check("04.1", *spread))
    broken = sub.make_pipeline(lambda c, streams: streams[c % len(streams)], broken=True)
    told(course.check("04.1", *broken), "h_out[1835008] was never written")
    two = sub.make_pipeline(lambda c, streams: streams[c % 2 % len(streams)])
    told(course.check("04.1", *two), "ran on 2 of them")
    waits = sub.make_pipeline(lambda c, streams: streams[c % len(streams)], wait=True)
    told(course.check("04.1", *waits), "only 1.00x faster", "target is 1.5x")


def test_05_1_mi100_occupancy():
    solved(course.check("05.1", gpusim.occupancy(block_size=256, vgprs=119, device="mi100")))
    told(course.check("05.1", gpusim.occupancy(block_size=256, vgprs=119, device="mi300x")),
         "is for the mi300x")
    told(course.check("05.1", gpusim.occupancy(block_size=128, vgprs=119, device="mi100")),
         "blocks of 256")
    told(course.check("05.1", 2), "Pass the result of occupancy")


def test_05_2_fp32_ops():
    solved(course.check("05.2", ["v_mul_f32_e32"]))
    told(course.check("05.2", ["v_cvt_f64_f32_e32", "v_mul_f64", "v_cvt_f32_f64_e32"]),
         "v_mul_f64", "double precision")
    told(course.check("05.2", []), "no FP32 instruction")


def test_06_1_transpose():
    solved(course.check("06.1", sub.transpose_padded))
    told(course.check("06.1", sub.transpose_unpadded), "32-way bank conflicts")
    told(course.check("06.1", sub.transpose_pad_two), "2-way bank conflicts")
    told(course.check("06.1", sub.transpose_forgot_transpose), "not its transpose")


def test_hints_come_one_at_a_time_and_bad_ids_say_what_exists():
    first, second = course.hint("06.1"), course.hint("06.1")
    assert (first.number, second.number) == (1, 2) and first.text != second.text
    assert course.hint("06.1", 1).text == first.text
    with pytest.raises(ValueError, match="06.1"):
        course.check("06.7", None)
    with pytest.raises(ValueError, match="must look like"):
        course.check("6.1", None)
    with pytest.raises(TypeError, match=r'check\("04.1", ...\) takes pipeline, h_in, h_out'):
        course.check("04.1", print)
    with pytest.raises(ValueError, match="hints 1 to 3"):
        course.hint("06.1", 9)


def test_feedback_renders_as_html_and_logs(tmp_path, monkeypatch):
    log = tmp_path / "log.jsonl"
    monkeypatch.setenv("GPUSIM_COURSE_LOG", str(log))
    fb = course.check("00.1", 0)
    assert "not yet" in fb._repr_html_() and "<li>" in fb._repr_html_()
    course.check("00.1", 622592)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["exercise"], r["status"]) for r in rows] == [("00.1", "not yet"),
                                                             ("00.1", "solved")]


def test_02_2_compaction():
    assert "with 64 atomics for 64" in solved(course.check("02.2", sub.compact_per_wave))
    told(course.check("02.2", sub.compact_per_value), "atomic per kept value")
    told(course.check("02.2", sub.compact_no_shfl), "global race on out")


def test_nbgrader_autograde_fails_an_unsolved_check(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    with pytest.raises(AssertionError, match="resident is 0"):
        course.check("00.1", 0)
    assert course.check("00.1", 622592) is None  # printed: nbgrader reads values as scores
