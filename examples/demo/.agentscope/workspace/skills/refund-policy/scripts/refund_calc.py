#!/usr/bin/env python3
"""Estimate a refund from the fare family (the ticket's fare rules always win)."""
import argparse

RULES = {
    "Economy Light": lambda fare, taxes: taxes,
    "Economy Classic": lambda fare, taxes: 0.0,
    "Economy Flex": lambda fare, taxes: fare + taxes,
    "Business Saver": lambda fare, taxes: max(fare + taxes - 300.0, 0.0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fare", type=float, required=True)
    parser.add_argument("--taxes", type=float, required=True)
    parser.add_argument("--family", choices=sorted(RULES), required=True)
    parser.add_argument("--days-before", type=int, required=True)
    args = parser.parse_args()
    if args.days_before < 0:
        raise SystemExit("the flight has departed: only taxes of unused segments can be refunded")
    print(f"estimated refund: {RULES[args.family](args.fare, args.taxes):.2f} EUR")


if __name__ == "__main__":
    main()
