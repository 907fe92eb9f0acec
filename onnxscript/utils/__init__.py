"""onnxscript 0.7's ``onnxscript.utils``: helpers for scripts that load, time, compare and
rewrite models.

- ``utils.utils``: facts about one ``NodeProto`` (``onnxscript.proto_nodes``);
- ``utils.metadata_merger``: configurable merging of nodes' ``metadata_props``;
- ``utils.evaluation_utils``: a backend-test folder's data, random inputs for a model;
- ``utils.replace``: calls of custom ops replaced by given functions' bodies;
- ``utils.timing_utils``: loading, saving, inference and optimizer steps that print their
  time.
"""
