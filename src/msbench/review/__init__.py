"""The review site (msbench review): quality control and reading systems' errors in a browser."""
