"""Condition-wise diagnostics: error decomposition, attribution, the five condition analyses.

``alignment``      word alignments of one unit (meeteval), with each word's speaker and time
``decomposition``  S / I_lex / I_seg / D_lex / D_seg per utterance (E_lex, E_seg)
``attribution``    who each reference utterance was attributed to (E_attr), C_{i->j}
``regions``        overlap-boundary and overlap-coverage checks, switch neighbourhoods
``unit``           all of the above for one unit: utterance rows, pair rows, unit counts
``bootstrap``      the recording-level cluster bootstrap
``analyses``       the five analyses of MS-Bench Table 2, one function each
``report``         condition_results.json, Table 2 (markdown, CSV), figures
"""
