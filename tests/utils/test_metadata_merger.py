"""``onnxscript.utils.metadata_merger``: merging nodes' metadata by key, with the results
onnxscript 0.7.2 gives on the same calls."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.ir_utils.metadata import carry_metadata
from onnxscript.utils import metadata_merger as mm


def _node(**props: str) -> ir.Node:
    node = ir.Node("", "Add", [])
    node.metadata_props.update(props)
    return node


def test_string_mergers():
    assert mm.overwrite("a", "b") == "b"
    assert mm.comma_separator_merger("a", "b") == "a, b"
    assert mm.comma_separator_merger("", "b") == ", b"
    assert mm.join("|")("a", "b") == "a|b"
    assert mm.join("|")("a", "") == "a|"


def test_update_dict_merges_keys_present_in_both_and_adds_the_others():
    merger = mm.MetadataMerger({"a": mm.comma_separator_merger, "b": mm.join("|")})
    updated = {"a": "1", "c": "x"}
    merger.update_dict(updated, {"a": "2", "b": "3", "c": "y", "e": "z"})
    assert updated == {"a": "1, 2", "c": "x", "b": "3", "e": "z"}
    overwriting = mm.MetadataMerger({}, default=mm.overwrite)
    updated = {"a": "1", "c": "x"}
    overwriting.update_dict(updated, {"a": "2", "b": "3"})
    assert updated == {"a": "2", "c": "x", "b": "3"}


def test_copy_merged_metadata_merges_the_sources_then_into_each_target():
    merger = mm.MetadataMerger({"a": mm.comma_separator_merger, "b": mm.join("|")})
    sources = [_node(a="1", c="x"), _node(a="2", b="3", c="y"), _node(b="4")]
    target = _node(z="keep", a="0")
    merger.copy_merged_metadata(sources, target)
    assert dict(target.metadata_props) == {"z": "keep", "a": "0, 1, 2", "c": "x", "b": "3|4"}
    first, second = _node(z="k"), _node(q="k")
    merger.copy_merged_metadata(sources[:2], [first, second])
    assert dict(first.metadata_props) == {"z": "k", "a": "1, 2", "c": "x", "b": "3"}
    assert dict(second.metadata_props) == {"q": "k", "a": "1, 2", "c": "x", "b": "3"}
    assert dict(sources[0].metadata_props) == {"a": "1", "c": "x"}  # sources untouched
    itself = _node(a="t")
    merger.copy_merged_metadata([itself, sources[1]], itself)
    assert dict(itself.metadata_props) == {"a": "t, t, 2", "b": "3", "c": "y"}


def test_without_mergers_it_is_the_packages_own_rule():
    sources = [_node(a="1", c="x"), _node(a="2", b="3")]
    merged, carried = _node(a="0"), _node(a="0")
    mm.MetadataMerger({}).copy_merged_metadata(sources, merged)
    carry_metadata(carried, *sources)
    assert (
        dict(merged.metadata_props)
        == dict(carried.metadata_props)
        == {"a": "0", "c": "x", "b": "3"}
    )
