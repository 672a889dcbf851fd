"""Real models on real speech: CAM++ separates speakers, quality falls with noise, references agree."""

from __future__ import annotations

import glob
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.features.quality_rank import add_noise_difficulty
from msbench.models.dnsmos import WINDOW, window_starts
from tests.helpers.paths import SHARED_DATA, require_shared

pytestmark = pytest.mark.models


def librispeech(split: str) -> list[tuple[str, np.ndarray]]:
    files = sorted(
        glob.glob(
            str(require_shared(SHARED_DATA) / "librispeech-speakers" / split / "*" / "*.flac")
        )
    )
    return [(Path(f).parent.name, soundfile.read(f, dtype="float32")[0]) for f in files]


def equal_error_rate(same: np.ndarray, different: np.ndarray) -> float:
    thresholds = np.sort(np.concatenate([same, different]))
    miss = np.array([(same < t).mean() for t in thresholds])
    false_alarm = np.array([(different >= t).mean() for t in thresholds])
    k = int(np.argmin(np.abs(miss - false_alarm)))
    return float((miss[k] + false_alarm[k]) / 2)


def test_campplus_same_speaker_scores_higher(embedder, capsys):
    utterances = [(s, a[: 6 * 16000]) for s, a in librispeech("test-other")]
    utterances += [(s, a[: 6 * 16000]) for s, a in librispeech("train-clean-100")[:40]]
    speakers = np.array([s for s, _ in utterances])
    vectors = embedder.embed([a for _, a in utterances])
    scores = vectors @ vectors.T
    upper = np.triu_indices(len(speakers), 1)
    same_mask = (speakers[:, None] == speakers[None, :])[upper]
    same, different = scores[upper][same_mask], scores[upper][~same_mask]
    eer = equal_error_rate(same, different)
    with capsys.disabled():
        print(
            f"\nCAM++ cosine, same speaker: mean {same.mean():.3f} sd {same.std():.3f} (n={same.size}); "
            f"different: mean {different.mean():.3f} sd {different.std():.3f} (n={different.size}); "
            f"EER {eer:.2%}"
        )
    assert same.mean() > different.mean() + 0.4
    assert eer < 0.05


def test_quality_falls_monotonically_with_noise(dnsmos, nisqa, capsys):
    rng = np.random.default_rng(0)
    clean = [a[: 8 * 16000] for _, a in librispeech("test-other")[::20]]
    levels = [None, 20, 10, 5, 0]
    rows = []
    for level in levels:
        for index, speech in enumerate(clean):
            audio = speech
            if level is not None:
                noise = rng.standard_normal(speech.size).astype(np.float32)
                gain = np.sqrt(np.mean(speech**2) / (np.mean(noise**2) * 10 ** (level / 10)))
                audio = np.clip(speech + gain * noise, -1, 1)
            rows.append(
                {
                    "snr": level,
                    "utterance": index,
                    "dnsmos_ovrl": dnsmos.score(audio).ovrl,
                    "nisqa_mos": nisqa.score(audio).mos,
                }
            )
    ranked = add_noise_difficulty(rows)
    means = {
        key: [np.mean([r[key] for r in ranked if r["snr"] == level]) for level in levels]
        for key in ("dnsmos_ovrl", "nisqa_mos", "noise_difficulty")
    }
    with capsys.disabled():
        print(
            "\nSNR (clean, 20, 10, 5, 0 dB): "
            + "; ".join(
                f"{key} " + " ".join(f"{v:.2f}" for v in values) for key, values in means.items()
            )
        )
    assert all(np.diff(means["dnsmos_ovrl"]) < 0)
    assert all(np.diff(means["nisqa_mos"]) < 0)
    assert all(np.diff(means["noise_difficulty"]) > 0)


def test_every_window_start_is_scored_and_budgets_spread_evenly():
    thirty_seconds = 30 * 16000
    assert len(window_starts(thirty_seconds, 16000, None)) == 21  # floor((30 - 9.01) / 1) + 1
    assert window_starts(thirty_seconds, 16000, None)[-1] + WINDOW <= thirty_seconds
    budget = window_starts(30 * 60 * 16000, 16000, 24)
    assert (
        len(budget) == 24
        and budget[0] == 0
        and budget[-1] == (30 * 60 * 16000 - WINDOW) // 16000 * 16000
    )
    assert len(window_starts(3 * 16000, 16000, 24)) == 1


def test_dnsmos_matches_reference_computation_on_a_window(dnsmos):
    from speechmos import dnsmos as reference_module

    _, audio = librispeech("test-other")[0]
    window = audio[:WINDOW]
    folder = Path(reference_module.__file__).parent / "dnsmos_models"
    reference = reference_module.DNSMOS(
        str(folder / "sig_bak_ovr.onnx"), str(folder / "model_v8.onnx")
    )
    raw = reference.onnx_sess.run(None, {"input_1": window[None, :]})[0][0]
    _, _, ovrl = reference.get_polyfit_val(*raw, False)
    p808 = reference.p808_onnx_sess.run(
        None, {"input_1": reference.audio_melspec(window[:-160])[None].astype(np.float32)}
    )[0][0][0]
    ours = dnsmos.score(window)
    assert ours.windows == 1
    assert ours.ovrl == pytest.approx(float(ovrl), abs=1e-4)
    assert ours.p808 == pytest.approx(float(p808), abs=1e-4)


def test_nisqa_matches_reference_predictor_on_a_chunk(nisqa, tmp_path: Path):
    import torch
    from nisqa import NISQA_lib

    _, audio = librispeech("test-other")[1]
    chunk = audio[: 10 * 16000]
    path = tmp_path / "chunk.wav"
    soundfile.write(path, chunk, 16000)
    a = nisqa.args
    spec = NISQA_lib.get_librosa_melspec(
        str(path),
        sr=a["ms_sr"],
        n_fft=a["ms_n_fft"],
        hop_length=a["ms_hop_length"],
        win_length=a["ms_win_length"],
        n_mels=a["ms_n_mels"],
        fmax=a["ms_fmax"],
    )
    x, n_wins = NISQA_lib.segment_specs(
        str(path), spec, a["ms_seg_length"], a["ms_seg_hop_length"], a["ms_max_segments"]
    )
    with torch.no_grad():
        reference = nisqa.model(x.unsqueeze(0).float(), torch.tensor([int(n_wins)]))[0].numpy()
    ours = nisqa.score(chunk)
    assert [ours.mos, ours.noi, ours.dis, ours.col, ours.loud] == pytest.approx(
        reference.tolist(), abs=1e-4
    )
