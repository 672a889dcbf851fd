"""Per-recording features: interaction (from annotations) and acoustic (from audio)."""
