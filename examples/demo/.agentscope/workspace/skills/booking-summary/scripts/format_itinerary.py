#!/usr/bin/env python3
"""Render a selected offer (JSON from search_flights) as a Markdown itinerary."""
import json
import sys


def segment_line(segment: dict) -> str:
    return (
        f'- {segment["date"]} {segment["flight"]} {segment["from"]} {segment["departure"]}'
        f' → {segment["to"]} {segment["arrival"]} ({segment["cabin"]}, {segment["fareFamily"]})'
    )


def main(path: str) -> None:
    with open(path, encoding="utf-8") as handle:
        offer = json.load(handle)
    print(f'## Trip: {offer["purpose"]}\n')
    print("### Flights\n")
    for segment in offer["segments"]:
        print(segment_line(segment))
    print(f'\n**Total:** {offer["total"]:.2f} {offer["currency"]}')


if __name__ == "__main__":
    main(sys.argv[1])
