"""``GraphBuilder``: Python code calls ops on ``onnx_ir`` values and the graph grows.

Each op call becomes one node, appended to the graph at once: arguments are sorted into
inputs and attributes by the op's schema (``language.binding``, the compiler's rule),
Python numbers become shared constants of the type the schema binds, the outputs get
their element type and shape (``inference.infer``), and a node whose inputs are all
constants is computed instead of recorded (``inference.evaluate``), so shape arithmetic on
static shapes leaves constants, not nodes.

The builder is also an evaluator (``with builder:``), so ``opset18.Add(x, 1)`` and script
functions called on its values are recorded the same way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript import defaults
from onnxscript.builder import constants, nodes
from onnxscript.builder.calls import call_function, inline_function
from onnxscript.builder.diagnostics import BuilderArgumentError, BuilderError, op_error
from onnxscript.builder.naming import Names
from onnxscript.builder.op_builder import OpBuilder
from onnxscript.builder.protocol import Outputs
from onnxscript.builder.subgraphs import build_subgraph
from onnxscript.builder.types import typed_value
from onnxscript.errors import BindingError
from onnxscript.evaluator.context import default_as
from onnxscript.evaluator.protocol import Evaluator, FunctionRef, OpRef
from onnxscript.inference import InferenceError
from onnxscript.inference.evaluate import evaluate_node
from onnxscript.inference.infer import infer_node
from onnxscript.language import binding


class _Shared:
    """What a root builder and its subgraph builders share."""

    def __init__(self, graph: ir.Graph | ir.Function, constants_as_nodes: bool) -> None:
        self.names = Names(used=_names_in(graph))
        self.constants: dict[Any, ir.Value] = {}
        self.functions: dict[tuple[str, str, str], ir.Function] = {}
        self.literal_types: dict[tuple[int, int], tuple[int | None, list[int]]] = {}
        """Where a literal input's type comes from, per (id of signature, slot); the
        signatures are kept alive by their caches."""
        self.constants_as_nodes = constants_as_nodes


class GraphBuilder(Evaluator):
    """Builds into ``graph`` (an ``onnx_ir.Graph``, or a function's graph).

    ``infer_shapes``: give every output its element type and shape. ``fold_constants``:
    compute nodes whose inputs are all constants (inputs up to ``fold_size_limit``
    elements) instead of recording them. ``constants_as_nodes``: constants are ``Constant``
    nodes instead of initializers (function bodies cannot hold initializers).
    """

    _shared: _Shared
    infer_shapes: bool
    fold_constants: bool
    fold_size_limit: int

    def __init__(
        self,
        graph: ir.Graph,
        *,
        parent: GraphBuilder | None = None,
        infer_shapes: bool = True,
        fold_constants: bool = True,
        fold_size_limit: int = 8192,
        constants_as_nodes: bool = False,
    ) -> None:
        self._graph = graph
        self._parent = parent
        self._root: GraphBuilder = parent._root if parent is not None else self
        self._shared = parent._shared if parent is not None else _Shared(graph, constants_as_nodes)
        self.infer_shapes = parent.infer_shapes if parent is not None else infer_shapes
        self.fold_constants = parent.fold_constants if parent is not None else fold_constants
        self.fold_size_limit = parent.fold_size_limit if parent is not None else fold_size_limit
        self._opsets: dict[tuple[str, int], OpBuilder] = {}
        self._op: OpBuilder | None = None

    # -- what the builder holds -------------------------------------------------------------
    @property
    def graph(self) -> ir.Graph:
        return self._graph

    @property
    def op(self) -> OpBuilder:
        """The ``OpBuilder`` of the default domain at the graph's version (the default
        opset version when the graph imports none): ``op.Add(x, y)``."""
        if self._op is None:
            imports = self._root._graph.opset_imports
            self._op = self.opset("", imports.get("") or defaults.default_opset_version())
        return self._op

    @property
    def parent(self) -> GraphBuilder | None:
        return self._parent

    @property
    def root(self) -> GraphBuilder:
        return self._root

    @property
    def functions(self) -> dict[tuple[str, str, str], ir.Function]:
        """Functions called (not inlined), by (domain, name, overload): add them to the
        model (``ir.Model(graph, functions=builder.functions.values())``)."""
        return self._shared.functions

    @property
    def names(self) -> Names:
        """The names used in the graph and its subgraphs, and the module scopes."""
        return self._shared.names

    def child(self, graph: ir.Graph) -> GraphBuilder:
        """A builder of ``graph``, a subgraph of this one (names, constants and functions
        shared)."""
        return GraphBuilder(graph, parent=self)

    def opset(self, domain: str, version: int = 1) -> OpBuilder:
        """An ``OpBuilder`` for ``domain`` at ``version`` (recorded in the opset imports)."""
        key = (domain, version)
        found = self._opsets.get(key)
        if found is None:
            self.use_opset(domain, version)
            found = self._opsets[key] = OpBuilder(self, domain, version)
        return found

    # -- naming scopes ----------------------------------------------------------------------
    def push_module(self, module: str, class_name: str = "") -> None:
        """Prefix names made from now on with ``module.`` (until :meth:`pop_module`)."""
        self._shared.names.push(module, class_name)

    def pop_module(self) -> None:
        self._shared.names.pop()

    @contextlib.contextmanager
    def module(self, module: str, class_name: str = "") -> Iterator[GraphBuilder]:
        """``with builder.module("layer1"): ...``: push_module/pop_module as a block."""
        self.push_module(module, class_name)
        try:
            yield self
        finally:
            self.pop_module()

    # -- graph inputs, outputs, initializers ------------------------------------------------
    def input(
        self,
        name: str,
        dtype: ir.DataType | None = None,
        shape: ir.Shape | Sequence[int | str | None] | None = None,
        *,
        type: ir.TypeProtocol | None = None,
        const_value: ir.TensorProtocol | None = None,
        metadata_props: dict[str, str] | None = None,
    ) -> ir.Value:
        """A new graph input (appended to the graph's inputs)."""
        if type is None and dtype is not None:
            type = ir.TensorType(dtype)
        if shape is not None and not isinstance(shape, ir.Shape):
            shape = ir.Shape(list(shape))
        value = ir.Value(
            name=self._shared.names.claim(name),
            type=type,
            shape=shape,
            const_value=const_value,
            metadata_props=metadata_props,
        )
        self._graph.inputs.append(value)
        return value

    def add_output(self, value: ir.Value, name: str | None = None) -> ir.Value:
        """Make ``value`` a graph output (named ``name``). A graph input, an initializer,
        a value of another graph or an output already listed is passed through an
        ``Identity``, so that every output is a distinct value made in this graph."""
        if _needs_identity(value, self._graph):
            (value,) = self.record("Identity", "", None, [value], {}, None)
        if name is not None and value.name != name:
            self._shared.names.used.discard(value.name or "")
            value.name = self._shared.names.claim(name)
        self._graph.outputs.append(value)
        return value

    def initializer(
        self, tensor: ir.TensorProtocol, name: str | None = None, *, qualify: bool = True
    ) -> ir.Value:
        """``tensor`` as a constant value of the graph, named ``name`` (else the tensor's
        name), prefixed with the module scope when ``qualify``."""
        base = name or tensor.name or "initializer"
        full = self._shared.names.prefix + base if qualify else base
        return self._constant_value(tensor, self._shared.names.fresh(full))

    def register_initializer(self, value: ir.Value, *, qualify: bool = True) -> ir.Value:
        """Make ``value`` itself (a weight the caller holds, such as an ``nn.Parameter``)
        an initializer of the root graph, renamed with the module scope when ``qualify``.
        Its data may come later (``value.const_value``), as when weights are loaded after
        the graph is built."""
        base = value.name or "initializer"
        full = self._shared.names.prefix + base if qualify else base
        try:
            value.name = self._shared.names.claim(full)
        except ValueError:
            raise BuilderError(
                f"cannot add the initializer {full!r}: the name is already used in this graph "
                "(two parameters or values with one qualified name)"
            ) from None
        self._root._graph.initializers[value.name] = value
        value.meta[nodes.WEIGHT] = True
        return value

    def add_node(self, node: ir.Node) -> ir.Node:
        """Append a node made elsewhere (its outputs are inferred like any other)."""
        self._graph.append(node)
        if self.infer_shapes:
            self._infer(node)
        if node.op_type == "Constant" and not node.domain:
            nodes.keep_constant_value(node)
        return node

    # -- op calls ---------------------------------------------------------------------------
    def call_op(
        self,
        op_type: str,
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
        /,
        domain: str = "",
        version: int | None = None,
        outputs: Outputs = None,
        name: str | None = None,
    ) -> ir.Value | tuple[ir.Value, ...]:
        """Record ``domain::op_type(*args, **kwargs)``; one value or a tuple of values.
        Without ``outputs``, the op's required outputs (as ``op.X(...)``)."""
        results = self.record(
            op_type, domain, version, args, kwargs, outputs, name, all_outputs=False
        )
        return results[0] if len(results) == 1 else results

    def record(
        self,
        op_type: str,
        domain: str,
        version: int | None,
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
        outputs: Outputs,
        node_name: str | None = None,
        *,
        signature: binding.Signature | None = None,
        all_outputs: bool = True,
    ) -> tuple[ir.Value, ...]:
        """Record one node (``call_op`` without unpacking): inputs and attributes bound by
        ``signature`` (else the op's schema), the outputs as a tuple; a node whose inputs
        are all constants may be folded into constants instead.

        Without ``outputs``, the node has every output the spec declares for the call
        (``all_outputs``, as eager calls and torch.onnx's recorder give), or only its
        required ones (at least one: ``op.X(...)`` of an ``OpBuilder``, as 0.7 does; such
        calls also keep the trailing omitted inputs they name).
        """
        import_version = self.use_opset(domain, version)
        if version is not None and version != import_version:
            try:
                nodes.check_op_version(domain, op_type, import_version, version)
            except BuilderError as error:
                raise op_error(op_type, domain, str(error), []) from None
        sig = signature or nodes.signature(domain, op_type, import_version)
        try:
            bound = binding.bind(sig, args, kwargs)
        except BindingError as error:
            raise op_error(op_type, domain, str(error), [], BuilderArgumentError) from None
        try:
            inputs = [
                self.as_input(sig, i, v, bound.inputs, op_type) for i, v in enumerate(bound.inputs)
            ]
        except BuilderError as error:
            raise op_error(op_type, domain, str(error), []) from None
        if not all_outputs:
            # 0.7's builder keeps the omitted inputs a call names: Attention(q, k, v, None).
            inputs.extend([None] * (nodes.named_input_count(sig, args, kwargs) - len(inputs)))
        try:
            attrs = [nodes.attribute(sig, n, v) for n, v in bound.attributes.items()]
            count = _output_count(
                sig, domain, import_version, outputs, bound, all_outputs, signature is None
            )
        except (TypeError, ValueError) as error:
            raise op_error(op_type, domain, str(error), inputs, BuilderArgumentError) from None
        out_values = self._output_values(op_type, outputs, count)
        names = self._shared.names
        node = ir.Node(
            domain,
            op_type,
            inputs,
            attrs,
            outputs=out_values,
            version=version,
            name=node_name or f"{names.node_prefix}{op_type}_node_{names.next_id()}",
        )
        if names.scopes:
            node.metadata_props["namespace"] = names.namespace()
        if self.fold_constants and outputs_are_new(outputs):
            folded = self._fold(node, import_version)
            if folded is not None:
                return folded
        self._graph.append(node)
        if self.infer_shapes:
            self._infer(node, import_version)
        nodes.type_from_schema(sig, node)
        if op_type == "Constant" and not domain:
            nodes.keep_constant_value(node)
        return tuple(node.outputs)

    def _output_values(self, op_type: str, outputs: Outputs, count: int) -> list[ir.Value]:
        """The output values of a node: new ones named ``v_<scope><op>_<n>``, or the
        names or values ``outputs`` gives (names prefixed like 0.7's: ``v_<scope><name>``)."""
        names = self._shared.names
        if outputs is None or isinstance(outputs, int):
            base = f"{names.value_prefix}{op_type}_{names.counter}"
            if count == 1:
                return [ir.Value(name=names.fresh(base))]
            return [ir.Value(name=names.fresh(f"{base}_{i}")) for i in range(count)]
        values: list[ir.Value] = []
        for item in outputs:
            if isinstance(item, ir.Value):
                if item.name is None:
                    item.name = names.fresh(f"{names.value_prefix}{op_type}_{names.counter}")
                values.append(item)
            else:
                values.append(ir.Value(name=names.claim(names.value_prefix + item)))
        return values

    def _adapt_outputs(
        self, outputs: int | Sequence[str | ir.Value], op_type: str = ""
    ) -> list[ir.Value]:
        """0.7's helper, which clients call: ``outputs`` as a node's output values (a
        count gives new values named like an op's outputs, names give ``v_<scope><name>``
        values, values are returned as they are)."""
        count = outputs if isinstance(outputs, int) else len(outputs)
        return self._output_values(op_type, outputs, count)

    def as_input(
        self, sig: binding.Signature, slot: int, value: Any, values: Sequence[Any], op: str
    ) -> ir.Value | None:
        """An input as an ``ir.Value``: Python numbers, lists and arrays become constants of
        the element type the schema binds (``CastLike`` when that type is not known)."""
        if value is None or isinstance(value, ir.Value):
            return value
        key = (id(sig), slot)
        found = self._shared.literal_types.get(key)
        if found is None:
            found = self._shared.literal_types[key] = binding.literal_input_type(sig, slot)
        fixed, partners = found
        like = next(
            (values[i] for i in partners if i < len(values) and isinstance(values[i], ir.Value)),
            None,
        )
        dtype = fixed
        if dtype is None and like is not None and like.dtype is not None:
            dtype = int(like.dtype)
        const = self.constant(value, dtype, where=f"input {slot} of {op}")
        if dtype is None and like is not None:
            (const,) = self.record("CastLike", "", None, [const, like], {}, None)
        return const

    def constant(self, value: Any, dtype: int | None = None, *, where: str = "") -> ir.Value:
        """``value`` (a number, list or array) as a constant of element type ``dtype``
        (its own default type when None); equal constants are made once and shared."""
        key = constants.cache_key(value, dtype)
        cache = self._shared.constants
        graph_key = (id(self._graph), key) if self._shared.constants_as_nodes else key
        if key is not None and graph_key in cache:
            return cache[graph_key]
        array = constants.as_array(value, dtype, where or "constant")
        name = self._shared.names.fresh(constants.constant_name(value, array))
        result = self._constant_value(ir.tensor(array, name=name), name)
        if key is not None:
            cache[graph_key] = result
        return result

    def _constant_value(self, tensor: ir.TensorProtocol, name: str) -> ir.Value:
        """A value holding ``tensor``: an initializer of the root graph, or a Constant
        node in this graph when building a function body."""
        if self._shared.constants_as_nodes:
            node = ir.Node("", "Constant", [], [ir.AttrTensor("value", tensor)], name=name)
            out = node.outputs[0]
            out.name = name
            self._graph.append(node)
            out.const_value = tensor
        else:
            out = ir.Value(name=name, const_value=tensor)
            self._root._graph.register_initializer(out)
        out.dtype = tensor.dtype
        out.shape = ir.Shape(tensor.shape.numpy())
        return out

    # -- inference and folding --------------------------------------------------------------
    def _infer(self, node: ir.Node, version: int | None = None) -> None:
        if version is None:
            version = self._root._graph.opset_imports.get(node.domain, 1)
        try:
            infer_node(node, version)
        except InferenceError as error:
            self._graph.remove(node, safe=False)
            raise op_error(node.op_type, node.domain, str(error), list(node.inputs)) from None

    def _fold(self, node: ir.Node, version: int) -> tuple[ir.Value, ...] | None:
        """Compute ``node`` if its inputs are constants: constant values named like its
        outputs (the node is dropped), or None when it cannot be folded."""
        if not nodes.foldable(node, self.fold_size_limit):
            return None
        results = evaluate_node(node, version, input_size_limit=self.fold_size_limit)
        if results is None:
            return None
        node.resize_inputs(0)
        return tuple(
            self._constant_value(tensor, out.name or "")
            for out, tensor in zip(node.outputs, results)
        )

    # -- opsets -----------------------------------------------------------------------------
    def use_opset(self, domain: str, version: int | None) -> int:
        """The version of ``domain`` the graph imports (``version`` is recorded if the
        domain is new)."""
        imports = self._root._graph.opset_imports
        known = imports.get(domain)
        if known is None:
            imports[domain] = known = version if version is not None else 1
        return known

    # -- subgraphs and functions ------------------------------------------------------------
    def subgraph(
        self,
        trace_function: Callable[..., Any],
        inputs: Sequence[Any] = (),
        outputs: Sequence[Any] | None = None,
        *,
        name: str = "subgraph",
        input_types: Sequence[Any] | None = None,
        output_types: Sequence[Any] | None = None,
    ) -> ir.Graph:
        """A graph for a graph attribute (If/Loop/Scan bodies): ``trace_function(op,
        *inputs)`` builds it with its own ``op``; ``inputs``/``outputs`` give the types
        (``FLOAT[4]``, ``INT64[...]``, ``ir.TypeAndShape`` or an ``ir.Value`` to copy)."""
        in_types = input_types if input_types is not None else inputs
        out_types = output_types if output_types is not None else outputs
        return build_subgraph(self, trace_function, in_types, out_types, name)

    def call(self, function: Any, *args: Any, _outputs: Outputs = None, **kwargs: Any) -> Any:
        """Call a script function (``@script()``) or an ``ir.Function`` as one node; the
        function is added to :attr:`functions`. A traced function runs its body here."""
        return call_function(self, function, args, kwargs, _outputs)

    def call_inline(
        self,
        function: Any,
        *args: Any,
        _outputs: Sequence[str] | None = None,
        _prefix: str = "",
        **kwargs: Any,
    ) -> Any:
        """Copy a function's body into the graph (names prefixed with ``_prefix``)."""
        return inline_function(self, function, args, kwargs, _outputs, _prefix)

    # -- the evaluator protocol -------------------------------------------------------------
    def __enter__(self) -> GraphBuilder:
        """``with builder:``: ops of ``opsetN`` objects and script functions called in the
        block are recorded here."""
        context = default_as(self)
        context.__enter__()
        self._contexts = [*getattr(self, "_contexts", []), context]
        return self

    def __exit__(self, *exc: object) -> None:
        self._contexts.pop().__exit__(*exc)

    def eval_op(self, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        kwargs = dict(kwargs)
        outputs = kwargs.pop("_outputs", None)
        results = self.record(op.name, op.domain, op.version, args, kwargs, outputs)
        single = len(results) == 1 and not isinstance(outputs, (int, list, tuple))
        return results[0] if single else results

    def eval_function(
        self, function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        kwargs = dict(kwargs)
        outputs = kwargs.pop("_outputs", None)
        return self.call(function, *args, _outputs=outputs, **kwargs)


def _output_count(
    sig: binding.Signature,
    domain: str,
    version: int,
    outputs: Outputs,
    bound: binding.BoundArguments,
    all_outputs: bool,
    schema_signature: bool,
) -> int:
    """How many outputs a recorded node gets (see :meth:`GraphBuilder.record`)."""
    if outputs is not None:
        return nodes.checked_output_count(sig, outputs)
    if not all_outputs:
        return nodes.required_output_count(sig, domain, bound)
    if schema_signature and not bound.attributes:
        present = tuple(v is not None for v in bound.inputs)
        return nodes.plain_output_count(domain, sig.name, version, present)
    return nodes.output_count(sig, domain, None, bound)


def outputs_are_new(outputs: Outputs) -> bool:
    """Whether the call leaves the output values to the builder (none given as values)."""
    return outputs is None or isinstance(outputs, int) or all(isinstance(o, str) for o in outputs)


def _names_in(graph: ir.Graph | ir.Function) -> set[str]:
    """Names already defined in ``graph`` (inputs, initializers, node outputs)."""
    used = {v.name for v in graph.inputs if v.name}
    if isinstance(graph, ir.Graph):
        used.update(graph.initializers)
    for node in ir.traversal.RecursiveGraphIterator(graph):
        used.update(v.name for v in node.outputs if v.name)
    return used


def _needs_identity(value: ir.Value, graph: ir.Graph) -> bool:
    producer = value.producer()
    return (
        producer is None
        or producer.graph is not graph
        or value.is_graph_output()
        or any(value is o for o in graph.outputs)
    )


__all__ = ["BuilderError", "GraphBuilder", "Outputs", "typed_value"]
