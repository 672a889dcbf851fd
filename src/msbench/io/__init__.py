"""Every file format msbench reads and writes, one module each, one floor below everything that
reads a file (ingest, scoring, the review site, the exports).

==================  =======================================================================
module              format
==================  =======================================================================
``rttm``            NIST RTTM speaker turns (reads, detects, writes)
``stm``             NIST STM utterances (reads, detects, writes)
``seglst``          meeteval SegLST JSON (reads, detects, writes)
``textgrid``        Praat TextGrid, one tier per speaker
``ctm``             CTM words with a speaker column
``text``            timestamped text as speech LLMs write it
``srt``, ``webvtt`` subtitles naming their speakers (:mod:`~msbench.io.cues`); WebVTT written
``vibevoice``       VibeVoice-ASR's three real forms
``whisperx``, ``assemblyai``, ``deepgram``, ``aws_transcribe``, ``speechmatics``,
``google_stt``      the JSON these systems and services write
``chime``, ``notsofar``, ``magicdata``, ``lhotse_manifest``, ``uem``: corpus annotation files
==================  =======================================================================

:mod:`msbench.io.registry` lists them (the one list of formats), :mod:`msbench.io.read` reads
any of them (:func:`~msbench.io.read.read_output`), :mod:`msbench.io.collector` and
:mod:`msbench.io.json_outputs` hold what the readers share.
"""
