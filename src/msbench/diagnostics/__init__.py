"""Condition-wise diagnostics of a system over the benchmark: the five analyses of MS-Bench Table 2.

``analysis_inputs`` what the analyses read: a system's rows, the benchmark's conditions
``bootstrap``     the recording-level cluster bootstrap (weights), Spearman
``analyses``      overlap and turn analyses (within-unit differences)
``correlations``  similarity, acoustic and speaker analyses (Spearman)
``system``        the five analyses of one system: conditions.json
``report``        condition_results.json (release layout), Table 2 (markdown, CSV)
``figures``       error_decomposition.png, conditions.png

Each unit's own diagnosis (decomposition, attribution) is part of scoring it:
:mod:`msbench.scoring.diagnosis`.
"""
