"""The per-unit diagnosis that scoring a unit includes: where its word errors come from, and who.

``alignment``      word alignments of one unit (meeteval), with each word's speaker and time
``decomposition``  S / I_lex / I_seg / D_lex / D_seg per utterance (E_lex, E_seg)
``speaker_attribution``  who each reference utterance was attributed to (E_attr), C_{i->j}
``regions``        overlap-boundary and overlap-coverage checks, switch neighbourhoods
``unit``           all of the above for one unit: utterance rows, pair rows, unit counts

The condition analyses over a whole benchmark (Table 2) are :mod:`msbench.diagnostics`.
"""
