"""Person names by the US census name lists (shipped in the `names` package) and
`probablepeople`: the checks the recognisers of names, places, handles and labels share."""

from __future__ import annotations

import os
import re
import unicodedata
from functools import cache

import probablepeople
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from redact_agent.local.vocabulary import PROGRAMME, field_share


def _ranks(*files: str) -> dict[str, int]:
    """Census name lists (the `names` package): each name's best frequency rank over `files`."""
    import names

    out: dict[str, int] = {}
    for f in files:
        with open(os.path.join(os.path.dirname(names.__file__), f), encoding="ascii") as fh:
            for parts in (line.split() for line in fh):
                if len(parts) == 4:
                    out[parts[0]] = min(int(parts[3]), out.get(parts[0], int(parts[3])))
    return out


@cache
def _first_name_ranks() -> dict[str, int]:
    return _ranks("dist.male.first", "dist.female.first")


@cache
def _surname_ranks() -> dict[str, int]:
    return _ranks("dist.all.last")


def _alpha(word: str) -> str:
    """A word's letters as the census lists spell them: accents the print or the OCR gave them
    dropped ("José", "Trícia" for "Tricia"), then anything but letters, apostrophes and hyphens."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return re.sub(r"[^A-Za-z'-]", "", folded)


COMMON_SURNAME_RANK = 25_000  # of 88,799 census surnames; the tail holds words ("GENERAL" 43,702)
COMMON_FIRST_RANK = 500  # of about 1,200 male and 4,300 female names; rarer ones are words ("Man", "Sunday")


def _ranked_within(ranks: dict[str, int], word: str, limit: int) -> bool:
    return ranks.get(_alpha(word).upper(), limit + 1) <= limit


def is_first_name(word: str) -> bool:
    """Any of the census's first names, however rare (where the context says a name is printed)."""
    return _alpha(word).upper() in _first_name_ranks()


def is_rather_first_name(word: str) -> bool:
    """A census first name ranked higher among first names than among surnames, if it is one
    ("Tracie", "Brianna"; not "Hunter", 735th first name and 130th surname)."""
    name = _alpha(word).upper()
    rank = _first_name_ranks().get(name)
    return rank is not None and rank < _surname_ranks().get(name, rank + 1)


def is_first_name_only(word: str) -> bool:
    """A census first name that is no census surname, however rare ("Brianna", "Kacie"; not
    "Morgan", nor "Will")."""
    name = _alpha(word).upper()
    return name in _first_name_ranks() and name not in _surname_ranks()


def is_common_first_name(word: str) -> bool:
    """One of the census's 500 most frequent first names (any case)."""
    return _ranked_within(_first_name_ranks(), word, COMMON_FIRST_RANK)


def is_common_surname(word: str, limit: int = COMMON_SURNAME_RANK) -> bool:
    """One of the census's `limit` (25,000) most frequent last names (any case)."""
    return _ranked_within(_surname_ranks(), word, limit)


def unsplit(texts: list[str], field: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """The words of a line as names are looked for in it, each with the places of the words it is
    read from: a common census first name or surname the OCR read in two or three pieces, a
    capitalised one and lowercase ones, joined ("Jam es Q. Morgan", "Sh aw" in small print, "Gon
    zal es"). The capitalised piece is no common name itself, but in a name's field (`field`),
    where the words are a name ("Employee: Robert Sher man")."""
    out: list[tuple[str, tuple[int, ...]]] = []
    k = 0
    while k < len(texts):
        size = next((n for n in (3, 2) if k + n <= len(texts) and _split_name(texts[k : k + n], field)), 1)
        out.append(("".join(texts[k : k + size]), tuple(range(k, k + size))))
        k += size
    return out


def _split_name(pieces: list[str], field: bool) -> bool:
    """`pieces` are one common name the OCR read in pieces (`unsplit`)."""
    head, rest = pieces[0], [p.rstrip(".,;:()") for p in pieces[1:]]
    if not (head[:1].isupper() and head.isalpha()) or rest[:-1] != pieces[1:-1]:
        return False  # a mark ends the name's last piece only
    joined = head + "".join(rest)
    named = is_common_first_name(joined) or is_common_surname(joined)
    lower = all(p.isalpha() and p.islower() for p in rest)
    return lower and named and (field or not (is_common_first_name(head) or is_common_surname(head)))


MISREAD = 4  # the fewest letters of a name read with one letter wrong, lost or added (`is_misread_name`)


@cache
def _common_names(surnames: bool) -> tuple[str, ...]:
    ranks, limit = (_surname_ranks(), COMMON_SURNAME_RANK) if surnames else (_first_name_ranks(), COMMON_FIRST_RANK)
    return tuple(name for name, rank in ranks.items() if rank <= limit)


def is_misread_name(word: str, surname: bool) -> bool:
    """`word`, a capitalised word of `MISREAD` letters or more that is no census name, is a common
    census surname (`surname`) or first name with one letter misread, lost or added ("Henstey"
    for Hensley, "Emly" for Emily)."""
    name = _alpha(word)
    if len(name) < MISREAD or name != word.rstrip(".,;:") or not name[0].isupper():
        return False
    up = name.upper()
    if up in _surname_ranks() or up in _first_name_ranks() or field_share(name) == 1.0:
        return False
    return process.extractOne(up, _common_names(surname), scorer=Levenshtein.distance, score_cutoff=1) is not None


def plausible_name(text: str) -> bool:
    """What no person's name is: mostly form words ("Accounts Payable", "Bill Plan"), two names
    joined by '&' ("Mike & Molly"), or part of a programme title ("Ellen DeGeneres Show")."""
    return field_share(text) <= 0.5 and "&" not in text and not PROGRAMME.search(text)


def is_person_name(text: str) -> bool:
    """Census first and last names in "First [M.] Last" or "Last, First" order (a double-barrelled
    surname of two census ones too)."""
    first, last = _first_name_ranks(), _surname_ranks()
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not 2 <= len(words) <= 4 or any(any(c.isdigit() for c in w) for w in words) or not plausible_name(text):
        return False
    if not all(w[0].isupper() for w in words if w[0].isalpha()):
        return False
    up = [_alpha(w).upper() for w in words]
    plain = up[0] in first and _in_surnames(up[-1], last)
    inverted = "," in text and _in_surnames(up[0], last) and up[1] in first
    if not (plain or inverted):
        return False
    tags, kind = _person_tag(text)
    return kind != "Corporation" or set(tags) == {"CorporationName"}


def _in_surnames(word: str, last: dict[str, int]) -> bool:
    """A census surname, or a double-barrelled one of two ("FITZGERALD-MONTGOMERY")."""
    return word in last or (word.count("-") == 1 and all(p in last for p in word.split("-")))


def is_name_with_rare_surname(text: str) -> bool:
    """ "JOHN ZWIRBLIS": a common first name and a surname the census lists lack, printed alone as
    a name is (both words capitalised alike, the second no form word), which `probablepeople`
    reads as a given name and a surname."""
    words = text.split()
    if len(words) != 2 or not all(w.isalpha() and w[0].isupper() for w in words) or len(words[1]) < 3:
        return False
    if words[0].isupper() != words[1].isupper() or not is_common_first_name(words[0]) or not plausible_name(text):
        return False
    tags, kind = _person_tag(text)
    return kind == "Person" and set(tags) == {"GivenName", "Surname"}


def _person_tag(text: str) -> tuple[dict[str, str], str]:
    """probablepeople's components and kind (Person, Corporation), or none for a string it
    cannot label."""
    try:
        tags, kind = probablepeople.tag(text)
    except probablepeople.RepeatedLabelError:
        return {}, ""
    return dict(tags), str(kind)
