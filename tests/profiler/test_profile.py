"""gpusim.profile(): records of copies/memsets, stats, and rocprofv3-style CSV."""

import csv

import numpy as np
import pytest

import gpusim
from gpusim import hip
from gpusim.profiler import KernelRecord, Profile
from gpusim.profiler.session import COPY_COLUMNS, KERNEL_COLUMNS

pytestmark = pytest.mark.usefixtures("fresh_system")


def test_records_every_copy_and_memset_with_modeled_times(tmp_path):
    x = np.arange(1 << 20, dtype=np.float32)
    with gpusim.profile() as prof:
        d = hip.hipMalloc(x.nbytes)
        hip.hipMemcpy(d, x, x.nbytes, hip.hipMemcpyHostToDevice)
        hip.hipMemset(d, 0, x.nbytes)
        pinned = hip.pinned_array(x.shape, x.dtype)
        hip.hipMemcpy(pinned, d, x.nbytes, hip.hipMemcpyDeviceToHost)
    up, down = prof.copies
    assert (up.direction, up.nbytes, up.pinned, up.dst_device) == ("HtoD", x.nbytes, False, 0)
    assert (down.direction, down.pinned, down.src_device) == ("DtoH", True, 0)
    (fill,) = prof.memsets
    assert up.end_ns <= fill.start_ns <= fill.end_ns <= down.start_ns  # null-stream order
    assert all(r.done and r.duration_ns > 0 for r in prof.records)
    assert down.duration_ns < up.duration_ns  # pinned beats pageable

    path = prof.to_csv(tmp_path / "copies.csv", kind="memory_copy")
    rows = list(csv.DictReader(path.open()))
    assert list(rows[0]) == COPY_COLUMNS
    assert rows[0]["Direction"] == "MEMORY_COPY_HOST_TO_DEVICE"
    assert rows[1]["Source_Agent_Id"] == "0" and rows[1]["Destination_Agent_Id"] == "host"
    assert int(rows[0]["End_Timestamp"]) - int(rows[0]["Start_Timestamp"]) == up.duration_ns


def test_work_outside_the_block_is_not_recorded():
    with gpusim.profile() as prof:
        pass
    hip.to_device(np.zeros(4))
    assert prof.records == []


def test_kernel_csv_from_canned_records(tmp_path):
    prof = Profile()
    prof.records.append(KernelRecord(name="saxpy", device=2, stream=1, correlation_id=7,
                                     start_ns=100, end_ns=350, grid=(4, 2, 1),
                                     block=(256, 1, 1), lds_bytes=1024, vgprs=12, sgprs=16,
                                     done=True))
    rows = list(csv.DictReader(prof.to_csv(tmp_path / "k.csv").open()))
    assert list(rows[0]) == KERNEL_COLUMNS
    row = rows[0]
    assert row["Kernel_Name"] == "saxpy" and row["Agent_Id"] == "2"
    assert (row["Grid_Size_X"], row["Grid_Size_Y"], row["Workgroup_Size_X"]) == \
        ("1024", "2", "256")
    assert (row["VGPR_Count"], row["SGPR_Count"], row["LDS_Block_Size"]) == ("12", "16", "1024")
    assert (row["Start_Timestamp"], row["End_Timestamp"]) == ("100", "350")
    with pytest.raises(ValueError, match="kind"):
        prof.to_csv(tmp_path / "x.csv", kind="kernels")


def test_stats_and_summary(capsys):
    with gpusim.profile() as prof:
        d = hip.hipMalloc(1 << 20)
        for _ in range(3):
            hip.hipMemset(d, 1, 1 << 20)
        hip.hipMemcpy(np.zeros(1 << 18, np.float32), d, 1 << 20, hip.hipMemcpyDeviceToHost)
    stats = {row["name"]: row for row in prof.stats()}
    assert stats["hipMemset"]["calls"] == 3
    assert stats["hipMemset"]["total_ns"] == sum(r.duration_ns for r in prof.memsets)
    assert sum(row["percent"] for row in stats.values()) == pytest.approx(100)
    prof.summary()
    out = capsys.readouterr().out
    assert "hipMemset" in out and "hipMemcpy" in out and "calls" in out
