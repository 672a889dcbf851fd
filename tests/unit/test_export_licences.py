"""Licences as an allow-list (issue 48, root 6): audio is exported only under a licence known to
permit redistribution; every other spelling, however it is written, keeps it out."""

from __future__ import annotations

import pytest

from msbench.export.licences import licence_lines, redistributable, spdx_of


@pytest.mark.parametrize(
    "licence",
    ["CC BY 4.0", "CC-BY-4.0", "cc by-sa 4.0", "CC BY-SA 3.0", "Apache 2.0", "Apache License, Version 2.0",
     "MIT", "MIT License", "MIT (pyannote-audio sample)", "CC0", "CC0 1.0", "CDLA-Permissive-1.0",
     "Creative Commons Attribution 4.0 International"],
)  # fmt: skip
def test_known_permissive_spellings_are_allowed(licence: str):
    assert redistributable(licence), spdx_of(licence)


@pytest.mark.parametrize(
    "licence",
    ["LDC User Agreement for Non-Members", "Proprietary - all rights reserved", "research use only",
     "CC BY-NC4.0", "CC BY-NC-ND 4.0", "CC BY-NC-SA 4.0", "CC BY-ND 4.0", "", "   ",
     "check https://www.openslr.org/159/ before sharing", "CC BY", "GPL-3.0", "custom licence"],
)  # fmt: skip
def test_everything_else_is_withheld(licence: str):
    assert not redistributable(licence), spdx_of(licence)


def test_the_ledger_says_which_rule_applied():
    lines = licence_lines(["a", "b"], {"a": ("CC BY-SA 4.0", ""), "b": ("research use only", "")})
    assert lines[0].endswith(
        "Audio exported: CC-BY-SA-4.0 is on the allow-list of licences that permit redistribution."
    )
    assert "**Its audio is not redistributed**: its licence is not on the allow-list" in lines[1]


@pytest.mark.parametrize(
    "licence",
    [
        "CC BY 4.0 (non-commercial use only)",  # the case (round five, root 7)
        "CC BY-SA 4.0 (for research purposes only)",  # AISHELL-4 / AliMeeting's OpenSLR pages
        "Apache-2.0 (academic research use)",
        "CC BY 4.0 (except the Mixer 6 portion, distributed by the LDC)",  # CHiME-6 / DiPCo notes
        "MIT (no redistribution of the audio)",
        "CC BY 4.0 [NOTSOFAR-1: use subject to the Microsoft data terms]",
        "CDLA-Permissive-2.0 (evaluation only)",
        "CC BY 4.0 (registered users)",
    ],
)
def test_a_restricting_remark_in_parentheses_keeps_the_audio_out(licence: str):
    """A licence is allowed only if its whole text says so: the remark counts (issue 59)."""
    assert not redistributable(licence)
    (line,) = licence_lines(["c"], {"c": (licence, "")})
    assert "**Its audio is not redistributed**: the remark" in line and "restricts what" in line
