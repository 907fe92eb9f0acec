"""The tracing front end: Python code calling ops on symbolic values records a graph.

``recorder.GraphRecorder`` is the evaluator that records; ``trace.trace_function`` runs a
traced function's body on symbolic inputs made from its annotations.
"""
