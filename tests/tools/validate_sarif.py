"""Validates a SARIF log against the SARIF 2.1.0 JSON schema, formats included.

Usage: python3 validate_sarif.py SCHEMA.json LOG.sarif
The schema is the one the serde-sarif crate ships (located by the Rust test through
`cargo metadata`); validation uses the `jsonschema` package from PyPI with its format checkers
(`jsonschema[format-nongpl]`; .ci/run installs it), so a `helpUri` that is not an absolute URI
(`format: uri`) is a violation. Prints every violation and exits 1 when there is one.
"""
import json
import sys

import jsonschema

with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
with open(sys.argv[2], encoding="utf-8") as f:
    log = json.load(f)

validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
checker = validator_class.FORMAT_CHECKER
# jsonschema checks `uri` only when its optional validator is installed; without it every URI
# would pass unchecked.
if "uri" not in checker.checkers:
    print("jsonschema cannot check `format: uri`: pip install 'jsonschema[format-nongpl]'")
    sys.exit(2)
validator = validator_class(schema, format_checker=checker)
errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
for error in errors:
    print("/".join(str(p) for p in error.absolute_path), ":", error.message)
sys.exit(1 if errors else 0)
