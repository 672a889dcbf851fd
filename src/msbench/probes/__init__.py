"""HEAR-style speaker-attribution probes generated from annotations (msbench probes)."""
