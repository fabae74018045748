"""Corrupt profile files are rejected with DeviceProfileError naming the file and the field."""

from __future__ import annotations

import copy
import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusim.devices import get_spec, list_devices, load_profile, spec_from_dict
from gpusim.devices.spec import field_group, field_type
from gpusim.devices.validate import ZERO_ALLOWED, type_problem
from gpusim.errors import DeviceProfileError

FIELDS = [
    (key, name)
    for key in list_devices()
    for name in get_spec(key).sources  # every profile field
]
NUMERIC = [(k, n) for k, n in FIELDS if field_type(n) in (int, float) and n not in ZERO_ALLOWED]


def _load_error(path) -> str:
    with pytest.raises(DeviceProfileError) as info:
        load_profile(path)
    return str(info.value)


def _dict_error(data, origin="under-test") -> str:
    with pytest.raises(DeviceProfileError) as info:
        spec_from_dict(data, origin=origin)
    return str(info.value)


def _names_field(message: str, name: str) -> bool:
    return f"'{name}'" in message


# ---- files on disk (the ways an instructor's edited profile can break) ----------------


def test_round_trip_through_toml(write_profile, raw_profile, device_key):
    path = write_profile(raw_profile(device_key))
    assert load_profile(path) == get_spec(device_key)


def test_missing_field(write_profile, raw_profile):
    data = raw_profile("mi300x")
    del data["compute"]["cu_count"]
    path = write_profile(data)
    message = _load_error(path)
    assert str(path) in message and _names_field(message, "cu_count") and "[compute]" in message


def test_missing_fields_are_all_listed(write_profile, raw_profile):
    data = raw_profile("mi100")
    del data["caches"]
    message = _load_error(write_profile(data))
    for name in ("l1_bytes", "l2_ways", "infinity_cache_line_bytes"):
        assert _names_field(message, name)


@pytest.mark.parametrize(
    ("group", "name", "bad", "expected"),
    [
        ("compute", "cu_count", 304.0, "integer"),
        ("compute", "cu_count", "304", "integer"),
        ("compute", "fp32_tflops", 163, "float"),
        ("registers", "unified_agprs", 1, "boolean"),
        ("identity", "gfx_target", 942, "string"),
        ("launch", "max_block_dims", [1024, 1024], "list of 3 integers"),
        ("launch", "max_grid_dims", [1, 2, 3.5], "list of 3 integers"),
        ("identity", "compute_capability", 9.4, "list of 2 integers"),
        ("caches", "l2_bytes", True, "integer"),
    ],
)
def test_wrong_type(write_profile, raw_profile, group, name, bad, expected):
    data = raw_profile("mi300x")
    data[group][name]["value"] = bad
    path = write_profile(data)
    message = _load_error(path)
    assert str(path) in message and _names_field(message, name)
    assert f"expected a{'n' if expected[0] in 'aeiou' else ''} {expected}" in message


def test_bad_toml(write_profile, raw_profile, to_toml):
    text = to_toml(raw_profile("mi250x")).replace(
        "cu_count = { value = 110,", "cu_count = { value = ,"
    )
    path = write_profile(text)
    message = _load_error(path)
    assert str(path) in message and "not valid TOML" in message
    assert re.search(r"line \d+", message)  # tomllib says where


def test_unknown_field_with_suggestion(write_profile, raw_profile):
    data = raw_profile("mi300x")
    data["compute"]["cu_cont"] = {"value": 1, "source": "typo"}
    path = write_profile(data)
    message = _load_error(path)
    assert str(path) in message and _names_field(message, "cu_cont")
    assert "unknown field" in message and "did you mean 'cu_count'" in message


def test_unknown_table(write_profile, raw_profile):
    data = raw_profile("mi300x")
    data["cache"] = data.pop("caches")
    message = _load_error(write_profile(data))
    assert "'cache'" in message and "did you mean 'caches'" in message


def test_field_in_wrong_table(write_profile, raw_profile):
    data = raw_profile("mi300x")
    data["memory"]["cu_count"] = data["compute"].pop("cu_count")
    message = _load_error(write_profile(data))
    assert _names_field(message, "cu_count") and "belongs in [compute]" in message


def test_missing_source(write_profile, raw_profile):
    data = raw_profile("rx7900xtx")
    del data["lds"]["lds_banks"]["source"]
    path = write_profile(data)
    message = _load_error(path)
    assert str(path) in message and _names_field(message, "lds_banks")
    assert "missing 'source'" in message


@pytest.mark.parametrize("source", ["", "   "])
def test_empty_source(write_profile, raw_profile, source):
    data = raw_profile("mi100")
    data["memory"]["memory_bytes"]["source"] = source
    message = _load_error(write_profile(data))
    assert _names_field(message, "memory_bytes") and "non-empty" in message


def test_bare_value_without_table(write_profile, raw_profile):
    data = raw_profile("mi100")
    data["compute"]["cu_count"] = 120
    message = _load_error(write_profile(data))
    assert _names_field(message, "cu_count") and "value = ..., source" in message


def test_extra_key_in_entry(write_profile, raw_profile):
    data = raw_profile("mi100")
    data["compute"]["cu_count"]["unit"] = "CUs"
    message = _load_error(write_profile(data))
    assert _names_field(message, "cu_count") and "'unit'" in message


@pytest.mark.parametrize("bad", [0, -4])
def test_non_positive_size(write_profile, raw_profile, bad):
    data = raw_profile("mi300x")
    data["caches"]["l2_bytes"]["value"] = bad
    path = write_profile(data)
    message = _load_error(path)
    assert str(path) in message and _names_field(message, "l2_bytes") and "> 0" in message


@pytest.mark.parametrize(
    ("group", "name", "bad", "phrase"),
    [
        ("caches", "l1_line_bytes", 96, "power of two"),
        ("compute", "wave_size", 16, "32 or 64"),
        ("identity", "compute_capability", [9, 0], "(9, 4)"),
        ("identity", "gfx_target", "gfx9000x", "LLVM AMDGPU processor name"),
        ("identity", "family", "Vega", "must be one of"),
        ("compute", "xcd_count", 7, "split evenly"),
        ("registers", "vgpr_alloc_granule", 7, "must divide"),
        ("links", "host_link_pageable_gbs", 99.0, "cannot exceed"),
        ("caches", "infinity_cache_line_bytes", 0, "0 exactly when"),
        ("identity", "key", "", "must not be empty"),
    ],
)
def test_inconsistent_values(write_profile, raw_profile, group, name, bad, phrase):
    data = raw_profile("mi300x")
    data[group][name]["value"] = bad
    message = _load_error(write_profile(data))
    assert _names_field(message, name) and phrase in message


def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    message = _load_error(path)
    assert str(path) in message and "not found" in message


def test_shipped_key_must_match_file_name(monkeypatch, tmp_path, raw_profile, to_toml):
    import gpusim.devices.loader as loader

    (tmp_path / "mi300x.toml").write_text(to_toml(raw_profile("mi100")))
    monkeypatch.setattr(loader, "PROFILES_DIR", tmp_path)
    loader._load_shipped.cache_clear()
    try:
        with pytest.raises(DeviceProfileError, match=r"field 'key'.*mi300x\.toml"):
            loader.get_spec("mi300x")
    finally:
        loader._load_shipped.cache_clear()


# ---- variants: a base plus overrides --------------------------------------------------


def test_variant_extends_a_shipped_profile(write_profile):
    path = write_profile(
        'extends = "mi300x"\n'
        "[identity]\n"
        'key = { value = "mi300x-cpx", source = "test variant" }\n'
        "[compute]\n"
        'cu_count = { value = 38, source = "one XCD in CPX mode" }\n'
        'xcd_count = { value = 1, source = "one XCD in CPX mode" }\n',
        name="mi300x-cpx.toml",
    )
    spec = load_profile(path)
    base = get_spec("mi300x")
    assert (spec.key, spec.cu_count, spec.xcd_count) == ("mi300x-cpx", 38, 1)
    assert spec.sources["cu_count"] == "one XCD in CPX mode"
    assert spec.l2_bytes == base.l2_bytes and spec.sources["l2_bytes"] == base.sources["l2_bytes"]


def test_variant_extends_a_relative_path(write_profile, raw_profile):
    write_profile(raw_profile("mi100"), name="base.toml")
    path = write_profile(
        'extends = "base.toml"\n[compute]\nclock_mhz = { value = 1000, source = "downclocked" }\n',
        name="slow.toml",
    )
    assert load_profile(path).clock_mhz == 1000


def test_variant_errors_name_the_variant_file(write_profile):
    path = write_profile(
        'extends = "mi300x"\n[compute]\ncu_count = { value = 300, source = "odd" }\n',
        name="odd.toml",
    )
    message = _load_error(path)
    assert str(path) in message and _names_field(message, "cu_count")


def test_variant_unknown_base(write_profile):
    message = _load_error(write_profile('extends = "mi999"\n'))
    assert "mi999" in message and "mi300x" in message


def test_variant_cycle(write_profile):
    write_profile('extends = "b.toml"\n', name="a.toml")
    path = write_profile('extends = "a.toml"\n', name="b.toml")
    assert "cycle" in _load_error(path)


# ---- property tests: any single corruption is caught and named ------------------------


def _wrong_values(tp):
    anything = st.one_of(
        st.integers(-(2**40), 2**40),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.booleans(),
        st.lists(st.integers(0, 4096), max_size=4),
        st.lists(st.floats(allow_nan=False), min_size=1, max_size=3),
    )
    return anything.filter(lambda v: type_problem(v, tp) is not None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIELDS), st.data())
def test_any_retyped_field_is_named(raw_profile, key_field, data):
    key, name = key_field
    profile = raw_profile(key)
    bad = data.draw(_wrong_values(field_type(name)), label="bad value")
    profile[field_group(name)][name]["value"] = bad
    message = _dict_error(profile, origin=f"{key}-retyped.toml")
    assert f"{key}-retyped.toml" in message and _names_field(message, name)
    assert "expected" in message


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(FIELDS), st.sampled_from(["field", "value", "source"]))
def test_any_deleted_field_value_or_source_is_named(raw_profile, key_field, part):
    key, name = key_field
    profile = raw_profile(key)
    table = profile[field_group(name)]
    if part == "field":
        del table[name]
    else:
        del table[name][part]
    message = _dict_error(profile, origin=f"{key}-cut.toml")
    assert f"{key}-cut.toml" in message and _names_field(message, name)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NUMERIC), st.floats(min_value=-1e6, max_value=0.0))
def test_any_non_positive_number_is_named(raw_profile, key_field, x):
    key, name = key_field
    profile = raw_profile(key)
    bad = math.floor(x) if field_type(name) is int else x
    profile[field_group(name)][name]["value"] = bad
    message = _dict_error(profile)
    assert _names_field(message, name) and "> 0" in message


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(list_devices()),
    st.sampled_from(
        ["identity", "compute", "registers", "lds", "launch", "caches", "memory", "links"]
    ),
    st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True),
)
def test_any_unknown_field_is_named(raw_profile, key, group, name):
    profile = raw_profile(key)
    if name in get_spec(key).sources:
        return  # a real field, not an unknown one
    profile[group][name] = {"value": 1, "source": "made up"}
    message = _dict_error(profile)
    assert _names_field(message, name) and "unknown field" in message


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(list_devices()), st.randoms(use_true_random=False))
def test_field_order_and_table_order_do_not_matter(raw_profile, key, rnd):
    profile = raw_profile(key)
    groups = list(profile.items())
    rnd.shuffle(groups)
    shuffled = {}
    for group, table in groups:
        items = list(table.items())
        rnd.shuffle(items)
        shuffled[group] = dict(items)
    assert spec_from_dict(copy.deepcopy(shuffled)) == get_spec(key)
