"""Benchmark construction: condition space, candidate pool, utility, subset selection, reports."""
