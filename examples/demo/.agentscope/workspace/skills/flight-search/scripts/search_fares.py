#!/usr/bin/env python3
"""Command-line fare search against the flights MCP server's REST twin (for manual checks)."""
import argparse
import json
import os
import urllib.parse
import urllib.request

API = os.environ.get("FLIGHTS_API", "https://flights.northwind.example/v2/search")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--from", dest="origin", required=True)
    parser.add_argument("--to", dest="destination", required=True)
    parser.add_argument("--out", required=True, help="outbound date, YYYY-MM-DD")
    parser.add_argument("--back", help="return date, YYYY-MM-DD")
    parser.add_argument("--cabin", default="economy")
    args = parser.parse_args()

    query = {k: v for k, v in vars(args).items() if v}
    with urllib.request.urlopen(f"{API}?{urllib.parse.urlencode(query)}", timeout=30) as response:
        offers = json.load(response)["offers"]
    for offer in sorted(offers, key=lambda o: o["total"]):
        print(f'{offer["carrier"]:>3} {offer["departure"]} {offer["total"]:>9.2f} {offer["currency"]}')


if __name__ == "__main__":
    main()
