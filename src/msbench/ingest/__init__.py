"""Ingest: a source's annotations and audio, read and validated into recordings or rejections.

``source``       one source through every check: :func:`~msbench.ingest.source.ingest_source`
``sheet``        the dataset sheet, one row per source (patterns, encodings, metadata)
``adapters``     one reader per annotation format, and the UEM reader
``region``       a session's scored region (audio end, UEM spans) and the crop to it
``audio_facts``  an audio file's header, and that it decodes to its end
``listing``      a source's globs: each real file once, and the folders that could not be listed
``source_report`` the whole-source guard, listed sessions never found, encodings.json

``msbench describe`` (what ingest and the interaction features would see in
annotation files, without audio) is :mod:`msbench.features.describe`.
"""
