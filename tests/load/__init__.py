"""The live table's load benchmark: ``python -m tests.load --help``.

N tables, each with four real WebSocket clients that speak exactly what the page's htmx sends,
play whole hands against one or more daphne processes. It reports throughput, the latency from a
move's send until the last of the table's four screens has it (the answering screen alone, for
an answer in a claim window still waiting on another seat), push sizes, server CPU and memory
per socket. It is a benchmark, not a test: nothing here asserts a speed.
"""
