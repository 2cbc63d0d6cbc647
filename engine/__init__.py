"""tractor-referee rules engine: a pure library (no web framework, no I/O).

docs/rules.md is the specification; each module cites the section it implements.
"""
