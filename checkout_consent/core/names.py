"""Names people read on a board: one normal form (`shown`), and after Unicode TS #39, names
with invisible characters or mixed scripts refused (`problem`) and look-alikes meeting
(`keys`: `C1aude` and `Cl\u0430ude` meet `Claude`). Pure, stdlib only."""

from __future__ import annotations

import re
import unicodedata

# Latin prototypes of the confusables a Latin name is faked with (confusables.txt subset)
_PROTOTYPES = {
    **dict(
        zip("АВСЕНІЈКМОРЅТХУаеорсхуіјѕԁһԛԝӏɑɡıℓ", "ABCEHIJKMOPSTXYaeopcxyijsdhqwlagil", strict=True)
    ),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοριυνκχϲ", "ABEZHIKMNOPTYXaopiuvkxc", strict=True)),
    **dict(zip("օսոհցՕՏ", "ounhgOS", strict=True)),
    **dict(zip("01I|ǀ", "ollll", strict=True)),
}
_SEQUENCES = (("rn", "m"), ("vv", "w"))
# invisible though not Cf: variation selectors, fillers, the combining grapheme joiner
_INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
_HIDDEN = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
# scripts written together in one name (TS #39 "highly restrictive")
_TOGETHER: tuple[set[str], ...] = (
    {"LATIN", "CJK", "HIRAGANA", "KATAKANA"},
    {"LATIN", "CJK", "BOPOMOFO"},
    {"LATIN", "CJK", "HANGUL"},
)
_FOLDS = {"KATAKANA-HIRAGANA": "KATAKANA", "HALFWIDTH": "KATAKANA", "IDEOGRAPHIC": "CJK"}


def shown(name: str) -> str:
    """The name as stored and shown: NFKC, trimmed, white space runs one space."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def _script(char: str) -> str | None:
    """The script of a letter (its Unicode name's first word); None for what scripts share."""
    if not unicodedata.category(char).startswith("L"):
        return None
    head = unicodedata.name(char, "UNKNOWN").split(" ")[0]
    return _FOLDS.get(head, head)


def problem(name: str) -> str | None:
    """Why `name` (as given) cannot be a name on a board, or None."""
    for char in name:
        if unicodedata.category(char) in _HIDDEN or _INVISIBLE.match(char):
            what = unicodedata.name(char, f"U+{ord(char):04X}")
            return f"holds an invisible or control character ({what}, U+{ord(char):04X})"
    scripts = {s for s in map(_script, shown(name)) if s is not None}
    if len(scripts) <= 1 or any(scripts <= together for together in _TOGETHER):
        return None
    return f"mixes the {' and '.join(sorted(scripts)).lower()} scripts (a look-alike)"


def skeleton(text: str) -> str:
    """TS #39's skeleton, over this module's prototypes."""
    mapped = "".join(_PROTOTYPES.get(c, c) for c in unicodedata.normalize("NFD", text))
    for sequence, prototype in _SEQUENCES:
        mapped = mapped.replace(sequence, prototype)
    return unicodedata.normalize("NFD", mapped)


def keys(name: str) -> tuple[str, str]:
    """What owning `name` compares, both ways round; two names meet when either key is equal."""
    text = shown(name)
    return skeleton(text.casefold()), skeleton(text).casefold()
