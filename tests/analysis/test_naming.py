"""SSA naming of IR values: unique, readable, deterministic."""

from __future__ import annotations

from onnxscript.analysis.naming import NameAllocator, assign_names
from onnxscript.program import Attr, Graph, Node, Value


def test_allocator_suffixes_and_avoids_reserved():
    alloc = NameAllocator(["x", "x_1"])
    assert [alloc.take("x"), alloc.take("x"), alloc.take("y"), alloc.take("y")] == [
        "x_2",
        "x_3",
        "y",
        "y_1",
    ]
    assert alloc.take("a b") == "a_b"


def test_nested_graph_names_are_unique_across_scopes():
    x = Value("x")
    inner_out = Value("y")
    sub = Graph("then", nodes=[Node("Identity", "", [x], [inner_out])], outputs=[inner_out])
    outer_out = Value("y")
    node = Node("If", "", [x], [outer_out], [Attr("then_branch", 5, sub)])
    g = Graph("main", inputs=[x], nodes=[node], outputs=[outer_out])
    assign_names(g, fixed=[x])
    assert (x.name, outer_out.name, inner_out.name) == ("x", "y", "y_1")


def test_user_name_like_generated_name_does_not_clash():
    a, b, c = Value("T"), Value("T"), Value("T_1")
    g = Graph(
        "g",
        nodes=[Node("A", "", [], [a]), Node("B", "", [], [b]), Node("C", "", [], [c])],
        outputs=[c],
    )
    assign_names(g)
    assert len({a.name, b.name, c.name}) == 3
