"""Which system is better, and where: systems compared on common ground.

* :mod:`.metrics`: the rates compared, as ratios of per-recording sums of unit counts;
* :mod:`.ground`: the leaderboard's three views (``release``, ``common``, ``penalised``);
* :mod:`.paired`: paired cluster-bootstrap differences, the probability of improvement, the
  paired permutation and sign tests over recordings, Holm's correction;
* :mod:`.pairs`: every pair of systems, overall and per condition, and their Table 2 effects;
* :mod:`.rank_groups`: systems not told apart share a group;
* :mod:`.report`: ``compare.md``, ``compare.json``, ``compare.png``.
"""
