"""Every 1 s-hop DNSMOS window at a fraction of the cost: the overlapping windows share their FLOPs.

``sig_bak_ovr.onnx`` is: framing (320-sample frames, hop 160; a 9.01 s window
is 900 frames), a log-power spectrogram (the model's own STFT kernels), four
full-resolution 3x3 convolutions (zero padding 1, ReLU; 97 % of the model's
38.8 GFLOP), then pooling, three smaller convolutions, a global max and dense
layers. Nothing is normalised per window, so when windows start on the
160-sample frame grid (a 1 s hop is 100 frames):

1. the spectrogram is computed once for the whole recording, by the model's
   own spectrogram sub-graph on consecutive 900-frame pieces (frames do not
   interact, so this is exact);
2. the four full-resolution convolutions run once over the whole recording,
   in chunks of ``chunk_frames`` overlapping by ``EDGE`` frames on each side
   (so every kept output frame equals the whole recording's), keeping only the
   frames the next windows need;
3. each window takes its 900 frames of that output; only its first and last
   ``EDGE`` = 4 frames differ from a window scored alone (the convolutions'
   zero padding reaches 4 frames in), so those are recomputed from the
   window's own first and last 8 spectrogram frames, zero-padded;
4. the rest of the model (the tail) runs per window.

Per audio hour this does the full-resolution work of 360,000 frames plus
2 x 8 edge frames per window, instead of 900 frames per window (3,600 windows):
the result equals per-window scoring to float rounding (tested to 1e-5 on real
audio, ``tests/models/test_dnsmos_shared.py``).
"""

from __future__ import annotations

import importlib.resources
from typing import Any

import numpy as np

FEATURES = "mos_estimator_logpow/truediv:0"  # log10 power, (N, frames, 161)
MIDDLE = "mos_estimator_logpow/conv2d_3/Relu:0"  # after the 4th full-resolution conv
OUTPUT = "Identity:0"
FRAME_HOP = 160
WINDOW_FRAMES = 900
PIECE_SAMPLES = 144160  # what the spectrogram sub-graph takes: 900 frames
EDGE = 4  # frames reached by the zero padding of four 3x3 convolutions


def subgraph(model: Any, input_name: str, input_shape: list[Any], output_name: str) -> bytes:
    """The nodes of ``model`` between ``input_name`` and ``output_name``, as a model."""
    from onnx import TensorProto, helper

    producers = {out: node for node in model.graph.node for out in node.output}
    initializers = {i.name: i for i in model.graph.initializer}
    needed, stack = set(), [output_name]
    while stack:
        name = stack.pop()
        if name == input_name or name in initializers or name not in producers:
            continue
        node = producers[name]
        if id(node) not in needed:
            needed.add(id(node))
            stack.extend(node.input)
    nodes = [n for n in model.graph.node if id(n) in needed]
    used = sorted({i for n in nodes for i in n.input if i in initializers})
    graph = helper.make_graph(
        nodes,
        "part",
        [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, input_shape)],
        [helper.make_tensor_value_info(output_name, TensorProto.FLOAT, None)],
        [initializers[name] for name in used],
    )
    made = helper.make_model(graph, opset_imports=model.opset_import, ir_version=model.ir_version)
    return made.SerializeToString()


class SharedPrimary:
    """The three parts of ``sig_bak_ovr.onnx`` as onnxruntime sessions."""

    def __init__(
        self, options: Any, providers: list[str], block_windows: int = 8, chunk_frames: int = 1600
    ) -> None:
        import onnx
        import onnxruntime as ort

        path = importlib.resources.files("speechmos") / "dnsmos_models" / "sig_bak_ovr.onnx"
        model = onnx.load(str(path))

        def session(*part: Any) -> Any:
            return ort.InferenceSession(subgraph(model, *part), options, providers=providers)

        self.spectrogram = session("input_1", ["N", PIECE_SAMPLES], FEATURES)
        self.front = session(FEATURES, ["N", "T", 161], MIDDLE)
        self.tail = session(MIDDLE, ["N", 32, WINDOW_FRAMES, 161], OUTPUT)
        self.block_windows = block_windows  # windows per tail call
        self.chunk_frames = chunk_frames  # frames per call of the full-resolution part

    def piece(self, audio: np.ndarray, index: int) -> np.ndarray:
        """Spectrogram frames ``[900 k, 900 k + 900)`` of ``audio``, (900, 161), k = ``index``."""
        start = index * WINDOW_FRAMES * FRAME_HOP
        piece = np.zeros(PIECE_SAMPLES, dtype=np.float32)
        chunk = audio[start : start + PIECE_SAMPLES]
        piece[: len(chunk)] = chunk
        return self.spectrogram.run(None, {"input_1": piece[None]})[0][0]

    def features(self, audio: np.ndarray, frames: int) -> np.ndarray:
        """The first ``frames`` spectrogram frames of ``audio``, (frames, 161)."""
        count = -(-frames // WINDOW_FRAMES)
        return np.concatenate([self.piece(audio, k) for k in range(count)])[:frames]

    def middle(self, features: np.ndarray) -> np.ndarray:
        return self.front.run(None, {FEATURES: features})[0]

    def raw_scores(self, audio: np.ndarray, hop_frames: int, count: int) -> np.ndarray:
        """``(count, 3)`` raw SIG, BAK, OVRL of the windows starting at ``k * hop_frames`` frames."""
        total = (count - 1) * hop_frames + WINDOW_FRAMES
        spec = _SpectrogramStream(self, audio, total)
        stream = _MiddleStream(self, spec, self.chunk_frames)
        # one buffer for a batch of windows, reused: allocating ~300 MB per batch cost 17 %
        windows = np.empty((self.block_windows, 32, WINDOW_FRAMES, spec.bins), np.float32)
        out, starts = [], []
        for k in range(count):
            starts.append(k * hop_frames)
            stream.frames(starts[-1], starts[-1] + WINDOW_FRAMES, windows[len(starts) - 1])
            if len(starts) == self.block_windows or k == count - 1:
                batch = windows[: len(starts)]
                self._patch_edges(batch, spec, starts, 0, total)
                out.append(self.tail.run(None, {MIDDLE: batch})[0])
                spec.forget_before((k + 1) * hop_frames)  # the next window's first frame
                starts = []
        return np.concatenate(out)

    def _patch_edges(
        self, windows: np.ndarray, spec: _SpectrogramStream, starts: list[int], low: int, high: int
    ) -> None:
        """Recompute the edge frames of windows whose edges are not the block's edges."""
        side = 2 * EDGE
        jobs = [(i, s, "left") for i, s in enumerate(starts) if s != low]
        jobs += [(i, s, "right") for i, s in enumerate(starts) if s + WINDOW_FRAMES != high]
        if not jobs:
            return
        pieces = np.stack(
            [
                spec.frames(s, s + side)
                if where == "left"
                else spec.frames(s + WINDOW_FRAMES - side, s + WINDOW_FRAMES)
                for _, s, where in jobs
            ]
        )
        edges = self.middle(pieces)
        for (i, _, where), edge in zip(jobs, edges, strict=True):
            if where == "left":
                windows[i][:, :EDGE] = edge[:, :EDGE]
            else:
                windows[i][:, -EDGE:] = edge[:, -EDGE:]


class _MiddleStream:
    """The full-resolution output of the whole recording, computed once, chunk by chunk.

    A chunk's outputs ``[a, b)`` are computed from spectrogram frames
    ``[a - EDGE, b + EDGE)``, so they equal the whole recording's; only the
    frames the next windows need are kept.
    """

    def __init__(self, model: SharedPrimary, spec: _SpectrogramStream, chunk: int) -> None:
        self.model, self.spec, self.chunk = model, spec, chunk
        self.start = 0  # recording frame of the buffer's first frame
        self.buffer = np.zeros((32, 0, spec.bins), dtype=np.float32)

    def frames(self, low: int, high: int, out: np.ndarray) -> None:
        """Write output frames ``[low, high)`` into ``out``; earlier frames are let go."""
        self.buffer = self.buffer[:, low - self.start :]
        self.start = low
        while self.start + self.buffer.shape[1] < high:
            a = self.start + self.buffer.shape[1]
            b = min(len(self.spec), a + self.chunk)
            first, last = max(0, a - EDGE), min(len(self.spec), b + EDGE)
            computed = self.model.middle(self.spec.frames(first, last)[None])[0]
            self.buffer = np.concatenate([self.buffer, computed[:, a - first : b - first]], axis=1)
        np.copyto(out, self.buffer[:, : high - low])


class _SpectrogramStream:
    """The recording's spectrogram, computed 900-frame piece by piece as the windows need it.

    The pieces are the ones :meth:`SharedPrimary.features` concatenates (the
    same sub-graph calls on the same samples, so the same numbers); pieces
    before the frame the next window starts at are let go, so memory is a few
    pieces (580 KB each), not the whole recording's 64 KB per second.
    """

    bins = 161

    def __init__(self, model: SharedPrimary, audio: np.ndarray, total: int) -> None:
        self.model, self.audio, self.total = model, audio, total
        self.pieces: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return self.total

    def frames(self, low: int, high: int) -> np.ndarray:
        """Frames ``[low, high)`` (``high`` at most the total), (frames, 161)."""
        high = min(high, self.total)
        first, last = low // WINDOW_FRAMES, (high - 1) // WINDOW_FRAMES
        for k in range(first, last + 1):
            if k not in self.pieces:
                self.pieces[k] = self.model.piece(self.audio, k)
        joined = np.concatenate([self.pieces[k] for k in range(first, last + 1)])
        offset = first * WINDOW_FRAMES
        return joined[low - offset : high - offset]

    def forget_before(self, frame: int) -> None:
        """Let go of the pieces that end at or before ``frame``."""
        for k in [k for k in self.pieces if (k + 1) * WINDOW_FRAMES <= frame]:
            del self.pieces[k]
