"""msbench: build and use condition-stratified multi-speaker speech benchmarks."""

__version__ = "0.2.0"
