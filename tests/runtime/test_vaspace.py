"""The device address allocator: alignment, no overlap, merging, quarantine."""

from hypothesis import given, settings
from hypothesis import strategies as st

from gpusim.runtime.vaspace import LARGE_PAGE_BYTES, PAGE_BYTES, AddressSpace

BASE = 0x7F00_0000_0000


def test_small_allocations_are_page_aligned_and_consecutive():
    vas = AddressSpace(BASE, 1 << 30)
    a, b, c = (vas.allocate(n) for n in (1, 4096, 4097))
    assert (a, b, c) == (BASE, BASE + PAGE_BYTES, BASE + 2 * PAGE_BYTES)
    assert vas.allocate(0) == BASE + 4 * PAGE_BYTES  # zero bytes still gets a page


def test_large_allocations_are_2mib_aligned():
    vas = AddressSpace(BASE, 1 << 30)
    vas.allocate(100)
    big = vas.allocate(3 << 20)
    assert big % LARGE_PAGE_BYTES == 0 and big == BASE + LARGE_PAGE_BYTES
    # the gap left by alignment is reused by the next small allocation
    assert vas.allocate(100) == BASE + PAGE_BYTES


def test_freed_ranges_are_quarantined_then_reused_and_merged():
    vas = AddressSpace(BASE, 1 << 30, quarantine=1)
    a = vas.allocate(PAGE_BYTES)
    b = vas.allocate(PAGE_BYTES)
    vas.release(a)  # held in quarantine: not handed out again yet
    assert vas.allocate(PAGE_BYTES) == BASE + 2 * PAGE_BYTES
    vas.release(b)  # pushes a out of quarantine
    assert (a, PAGE_BYTES) in vas.free_ranges()


def test_full_space_returns_none():
    vas = AddressSpace(BASE, LARGE_PAGE_BYTES)
    assert vas.allocate(LARGE_PAGE_BYTES) == BASE
    assert vas.allocate(1) is None


ops = st.lists(
    st.one_of(
        st.tuples(st.just("alloc"), st.integers(0, 5 << 20)),
        st.tuples(st.just("free"), st.integers(0, 1000)),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(ops, st.integers(0, 4))
def test_random_sequences_keep_invariants(sequence, quarantine):
    size = 64 << 20
    vas = AddressSpace(BASE, size, quarantine=quarantine)
    live: dict[int, int] = {}
    for op, n in sequence:
        if op == "alloc":
            addr = vas.allocate(n)
            if addr is None:
                continue
            need = -(-max(n, 1) // PAGE_BYTES) * PAGE_BYTES
            assert addr % (LARGE_PAGE_BYTES if need >= LARGE_PAGE_BYTES else PAGE_BYTES) == 0
            assert BASE <= addr and addr + need <= BASE + size
            live[addr] = need
        elif live:
            victim = sorted(live)[n % len(live)]
            assert vas.release(victim) == live.pop(victim)
        # live ranges never overlap each other or a free range
        ranges = sorted(list(live.items()) + vas.free_ranges())
        for (s1, n1), (s2, _) in zip(ranges, ranges[1:], strict=False):
            assert s1 + n1 <= s2
        assert vas.live_ranges() == sorted(live.items())
        # free ranges are merged: no two touch
        free = vas.free_ranges()
        for (s1, n1), (s2, _) in zip(free, free[1:], strict=False):
            assert s1 + n1 < s2
        # nothing is lost: live + free + quarantined covers the whole space
        quarantined = sum(n for _, n in vas._quarantine)
        assert sum(live.values()) + sum(n for _, n in free) + quarantined == size
