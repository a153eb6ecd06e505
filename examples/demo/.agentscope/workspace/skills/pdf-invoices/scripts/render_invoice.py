#!/usr/bin/env python3
"""Render a booking record as a PDF invoice (needs reportlab)."""
import argparse
import json

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas


def render(record: dict, out: str) -> None:
    if not record.get("costCentre"):
        raise SystemExit("booking record has no cost centre; finance will reject the invoice")
    pdf = canvas.Canvas(out, pagesize=A4)
    pdf.drawString(72, 800, f'Invoice NW-{record["year"]}-{record["id"]}')
    y = 760
    for line in record["lines"]:
        gross = line["net"] * (1 + line["vatRate"])
        pdf.drawString(72, y, f'{line["description"]:<40} {gross:>10.2f} {record["currency"]}')
        y -= 18
    pdf.save()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("record")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.record, encoding="utf-8") as handle:
        render(json.load(handle), args.out)
