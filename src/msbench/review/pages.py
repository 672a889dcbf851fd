"""The site's HTML: two small skeletons; everything else is drawn by ``assets/review.js``.

Data travels as ``data/*.js`` files that set a global (``window.MSBENCH_INDEX``,
``window.MSBENCH_RECORDING``): a page opened from the file system may load
scripts but not fetch JSON, so this works with no server and no network.
"""

from __future__ import annotations

from html import escape

_HEAD = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{root}assets/review.css">
</head>
"""

INDEX = (
    _HEAD
    + """<body data-page="index">
<header>
<h1>msbench review</h1>
<p id="summary"></p>
</header>
<main>
<section id="controls" aria-label="filters"></section>
<table id="recordings"><thead></thead><tbody></tbody></table>
<section id="export">
<h2>Quality control</h2>
<p id="progress"></p>
<p>
<button id="export-benchmark" type="button">Export benchmark.csv (accepted)</button>
<button id="export-rejected" type="button">Export qc_rejected.tsv</button>
<button id="export-progress" type="button">Save progress (review.json)</button>
<label class="file">Load progress <input id="import-progress" type="file" accept=".json"></label>
</p>
<p class="note">Put the two exported files in config/ and set <code>selection.keep</code>
and <code>selection.qc_rejected</code>; the next run keeps the accepted recordings and
replaces the failed ones by their closest-profile candidates.</p>
</section>
<section id="figures"><h2>Coverage</h2></section>
</main>
<script src="data/index.js" charset="utf-8"></script>
<script src="assets/review.js" charset="utf-8"></script>
</body>
</html>
"""
)

RECORDING = (
    _HEAD
    + """<body data-page="recording">
<nav><a id="back" href="../index.html">&larr; all recordings</a></nav>
<header><h1 id="title">{heading}</h1><p id="facts"></p></header>
<main>
<section id="listen">
{audio}
<p class="controls">
<label>System <select id="system"><option value="">reference only</option></select></label>
<button id="zoom-out" type="button">&minus;</button><button id="zoom-in" type="button">+</button>
<span id="clock"></span>
</p>
<div id="timeline-wrap"><svg id="timeline" xmlns="http://www.w3.org/2000/svg"></svg></div>
<p id="legend"></p>
<div id="words" aria-live="polite"></div>
<div id="scores"></div>
</section>
<section id="word-view" hidden>
<h2>Words</h2>
<p class="controls" id="word-controls"></p>
<div id="word-counts"></div>
<div id="word-minimaps"></div>
<div id="word-lanes-wrap"><div id="word-lanes"></div></div>
<p class="note" id="word-legend"><span class="w w-correct">correct</span> <span class="w w-substitution">substitution</span>
<span class="w w-insertion">insertion</span> <span class="w w-deletion">deletion</span>
<span class="w w-deletion w-speaker">right word, wrong speaker</span>: classes under the chosen
assignment, from the evaluation's alignments (alignments/&lt;system&gt;/&lt;unit&gt;.json); click a
word to play from it. The same view in meeteval's visualisation:
<code>meeteval-viz html -r results/export/seglst/normalised/references.seglst.json
-h results/export/seglst/normalised/&lt;system&gt;.seglst.json --alignment tcp
--regex '^[A-Za-z0-9_.-]+$' -o results/meeteval-viz</code> on the run's export (docs/review.md).</p>
<p class="note" id="word-note"></p>
</section>
<section id="review"><h2>Review</h2><form id="checks"></form><p id="status"></p></section>
<section id="features"><h2>Features and ranges</h2><table><tbody></tbody></table></section>
<section id="candidates"><h2>Closest-profile candidates</h2><p class="note"></p><ol></ol></section>
</main>
<script src="../data/{slug}.js" charset="utf-8"></script>
<script src="../assets/words.js" charset="utf-8"></script>
<script src="../assets/review.js" charset="utf-8"></script>
</body>
</html>
"""
)


def page_head(title: str, root: str) -> str:
    """The HTML head every page shares."""
    return _HEAD.format(title=escape(title), root=root)


def index_page(probes: bool = False, results: bool = False) -> str:
    """The index; with ``probes``, links to the probe items and their quality page; with
    ``results``, to the results page."""
    page = INDEX.format(title="msbench review", root="")
    links = []
    if results:
        links.append(
            '<a id="results-link" href="results.html">Results: leaderboard, comparison, '
            "Table 2, by condition</a>"
        )
    if probes:
        links.append('<a id="probe-items" href="probes.html">Probe items</a>')
        links.append('<a id="probe-quality" href="probe_quality.html">Probe quality</a>')
    if links:
        page = page.replace(
            "</header>", f'<p id="site-links">{" · ".join(links)}</p>\n</header>', 1
        )
    return page


def recording_page(recording_id: str, slug: str, audio_file: str | None) -> str:
    audio = (
        f'<audio id="player" controls preload="auto" src="../audio/{escape(audio_file)}"></audio>'
        if audio_file
        else '<p class="note">No audio on this site (review.audio_format: none).</p>'
    )
    return RECORDING.format(
        title=escape(f"{recording_id} - msbench review"),
        root="../",
        heading=escape(recording_id),
        audio=audio,
        slug=escape(slug),
    )
