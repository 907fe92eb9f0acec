"""The converter: Python function source -> AST -> program IR (see
``function.compile_function``)."""
