"""The rules of the script language, shared by every front end.

A program means the same whether it is compiled (``converter``), run eagerly
(``evaluator``) or traced (a graph builder): these modules say what its constructs mean, and
the front ends only carry them out.

* ``binding``: how call arguments map onto an op's or function's inputs and attributes, and
  how many outputs a call has;
* ``attributes``: which Python values an attribute of each kind accepts;
* ``literals``: the element types Python literals take;
* ``operators``: which ops Python operators stand for, and how their operands are typed;
* ``indexing``: how ``x[...]`` becomes ``Slice``/``Gather``/``Unsqueeze``;
* ``target``: the interface through which a front end carries out these rules.
"""
