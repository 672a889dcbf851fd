"""The benchmark handed to the tools people already use, each export read back by its library.

``bundle``         what every export reads: the selected recordings, their utterances, the units
``lhotse_export``  lhotse recordings, supervisions and one cut per inference unit (JSONL.gz)
``kaldi_export``   a Kaldi / ESPnet data directory (wav.scp, segments, utt2spk, ..., rttm)
``seglst_export``  meeteval's SegLST references per unit and their UEM

Every export writes a ``README.md`` beside its files: where they came from, the
licence of each source corpus (the sheet's), and how to load them.
"""
