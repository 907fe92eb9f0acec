"""onnxscript 0.7's ``onnxscript.tools``: helpers for benchmarks and tests of exported
models. ``memory_peak`` measures a process's memory while code runs;
``transformers_models`` builds small transformers language models (random weights,
nothing downloaded) with inputs for them, and exports them. torch and transformers are
imported by the functions that need them, never by ``import onnxscript``."""
