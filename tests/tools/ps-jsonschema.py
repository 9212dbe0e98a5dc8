#!/usr/bin/python3
# ps-jsonschema.py SCHEMA FILE...: each FILE (JSON; NaN and Infinity are
# not JSON) valid against the draft-07 SCHEMA, with python3-jsonschema
# (Debian's). Exit 0 when all are, 1 with each error on stderr, 77 when
# jsonschema is missing.
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.stderr.write("python3-jsonschema is not installed\n")
    sys.exit(77)


def no_constant(name):
    raise ValueError("%s is not JSON" % name)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.loads(f.read(), parse_constant=no_constant)


schema = load(sys.argv[1])
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
bad = 0
for path in sys.argv[2:]:
    try:
        doc = load(path)
    except (OSError, ValueError) as ex:
        sys.stderr.write("%s: %s\n" % (path, ex))
        bad += 1
        continue
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        sys.stderr.write("%s: %s: %s\n" % (path, where, err.message[:300]))
        bad += 1
sys.exit(1 if bad else 0)
