"""A rebuild checked against a published release, per axis.

``compare``           the rebuilt features joined to the release's: differences, agreement, Spearman
``report``            audit.md
``figure``            rebuilt vs published per axis, with the range edges
``similarity_study``  S recomputed under named variants (``audit.similarity_variants``)
"""
