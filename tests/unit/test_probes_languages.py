"""Probe items from conversations in the release's other languages: English questions, quoted
lines in the recording's language, exactly one true option.

Seeded simulated conversations (the same builder as ``test_probes_simulated``)
take lines in Mandarin, Japanese, Portuguese and Thai; a line lasts 0.25 s a
token (a character in the scripts written without spaces) + 0.4 s. Words are
counted as the scoring tokenizer counts them (:func:`msbench.probes.text.normalise`),
so a Chinese line is not one long "word" and its items are not all dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from msbench.probes.text import normalise
from tests.helpers.probe_truth import ClipFacts, true_options
from tests.helpers.simulated import Conversation, conversation, simulated_items

POOLS = {
    "zh": [
        "我们今天开会讨论新的产品设计", "好的我觉得颜色应该更鲜艳一点", "那我们下周再决定预算吧",
        "遥控器的按钮实在太多了", "用户喜欢简单大方的外观", "我同意你刚才的看法",
        "价格不能超过二十五欧元", "我们需要做更多的市场调查", "这个形状拿在手里很舒服",
        "电池可以用很长时间", "我们先看看竞争对手的产品", "下次会议我来准备报告",
    ],
    "ja": [
        "今日は新しい製品について話します", "色はもっと明るい方がいいと思います", "では来週予算を決めましょう",
        "リモコンのボタンが多すぎます", "ユーザーはシンプルな見た目が好きです", "あなたの意見に賛成です",
        "値段は二十五ユーロ以下にしましょう", "もっと市場調査が必要です", "この形は手に持ちやすいです",
        "電池は長く使えます", "まず競合の製品を見ましょう", "次の会議では私が報告します",
    ],
    "pt": [
        "hoje vamos falar sobre o novo produto", "acho que a cor deve ser mais viva",
        "então vamos decidir o orçamento na próxima semana", "o controle remoto tem botões demais",
        "os usuários gostam de um visual simples", "concordo com a sua opinião sobre isso",
        "o preço não pode passar de vinte e cinco euros", "precisamos de mais pesquisa de mercado",
        "esse formato é confortável na mão", "a bateria dura bastante tempo",
        "primeiro vamos olhar os produtos da concorrência", "na próxima reunião eu trago o relatório",
    ],
    "th": [
        "วันนี้เราจะคุยเรื่องสินค้าใหม่", "ผมคิดว่าสีควรสดใสกว่านี้", "งั้นเราตัดสินใจงบประมาณสัปดาห์หน้า",
        "ปุ่มบนรีโมทเยอะเกินไป", "ผู้ใช้ชอบรูปแบบที่เรียบง่าย", "ผมเห็นด้วยกับความคิดของคุณ",
        "ราคาไม่ควรเกินยี่สิบห้ายูโร", "เราต้องสำรวจตลาดเพิ่มเติม", "รูปทรงนี้ถือแล้วสบายมือ",
        "แบตเตอรี่ใช้งานได้นาน", "ดูสินค้าของคู่แข่งก่อน", "ประชุมครั้งหน้าผมจะเตรียมรายงาน",
    ],
}  # fmt: skip
SCRIPT = {
    "zh": r"[\u4e00-\u9fff]", "ja": r"[\u3040-\u30ff\u4e00-\u9fff]", "pt": r"[a-zãçéêóô]",
    "th": r"[\u0e00-\u0e7f]",
}  # fmt: skip


def timed(k: int, pool: Sequence[str]) -> Conversation:
    rows, laughs = conversation(k, pool)
    for row in rows:
        tokens = len(normalise(row["words"]).split())
        row["end_time"] = round(row["start_time"] + 0.25 * tokens + 0.4, 3)
    return rows, laughs


@pytest.mark.parametrize("language", sorted(POOLS))
def test_items_quote_the_recording_language_and_have_one_true_option(language):
    items, utterances, activity = simulated_items(8, POOLS[language], timed)
    assert len(items) >= 5, language
    quoting = [i for i in items if '"' in i["question"]]
    assert quoting, {i["subtaxonomy"] for i in items}
    for item in quoting:
        quoted = item["question"].split('"')[1]
        assert re.search(SCRIPT[language], quoted), item["question"]
        assert re.match(r"[A-Z][a-z]", item["question"])  # the template stays English
    for item in items:
        truth = true_options(item, ClipFacts(item, utterances, activity))
        assert truth == [item["answer_idx"]], (item["question_id"], truth)
