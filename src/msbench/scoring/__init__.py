"""Scoring systems on a benchmark: DER, cpWER, tcpWER, speaker-agnostic WER, per unit and in sum.

``tokenizer``     the versioned text normalisation both sides go through
``formats``       reading references and hypotheses (STM, SegLST, RTTM, CTM, TextGrid, LLM text)
``der``           diarization error rate with pyannote.metrics (collar as a half-width)
``wer``           cpWER, tcpWER, WER and ORC-WER with meeteval
``pair``          one reference against one hypothesis: the JSON of ``msbench score``
``units``         inference units: which reference belongs to which unit
``checks``        exclusion and soft-degradation rules for a unit's output
``aggregate``     ratios of sums over units: system, recording and condition tables
``leaderboard``   the leaderboard in the official release's field layout, and its figure
"""
