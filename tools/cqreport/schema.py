"""The JSON Schemas of every JSON document qualreport reads or writes
(docs/schemas/*.schema.json: the baseline, the baseline set, the box
document, compare --json, history --json), checked with Debian's
python3-jsonschema (Draft 2020-12). A bad document gives one message that
names the file and the key, never a traceback."""

import json
import os

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schemas")
# The documents' "schema" values and the schema file that describes each.
FILES = {
    "cryptoqual-baseline-1": "baseline.schema.json",
    "cryptoqual-baseline-set-1": "baseline-set.schema.json",
    "cryptoqual-qualreport-1": "qualreport.schema.json",
    "cryptoqual-qualreport-1-compare": "compare.schema.json",
    "cryptoqual-qualreport-1-history": "history.schema.json",
}
_cache = {}


class SchemaError(Exception):
    """A document that does not meet its schema: str() is the one message."""


def absolute_refs(node, base):
    """Every "$ref": "#/..." made "BASE#/...": jsonschema 4.10's resolver
    joins a fragment with the scope it came from, which for a schema
    reached from another ($id a urn:) is the other one."""
    if isinstance(node, dict):
        return {k: (base + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else absolute_refs(v, base))
                for k, v in node.items()}
    if isinstance(node, list):
        return [absolute_refs(v, base) for v in node]
    return node


def load(name):
    """The schema for the documents whose "schema" value is name."""
    if name not in _cache:
        with open(os.path.join(SCHEMA_DIR, FILES[name]), encoding="utf-8") as f:
            s = json.load(f)
        _cache[name] = absolute_refs(s, s["$id"])
    return _cache[name]


def validator(name):
    """A Draft 2020-12 validator for name's schema that resolves the
    others' $id (urn:cryptoqual:schema:...) locally, never by fetching."""
    schemas = [load(n) for n in FILES]
    try:
        # jsonschema 4.18 and later resolve references through `referencing`.
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            [(s["$id"], Resource.from_contents(s, default_specification=DRAFT202012)) for s in schemas])
        return Draft202012Validator(load(name), registry=registry, format_checker=FormatChecker())
    except ImportError:
        # Debian 12's jsonschema 4.10: RefResolver with a local store.
        resolver = jsonschema.RefResolver.from_schema(load(name), store={s["$id"]: s for s in schemas})
        return Draft202012Validator(load(name), resolver=resolver, format_checker=FormatChecker())


def key_path(path):
    """A JSON path as a key: require_tests[0].regex; (top level) for the whole."""
    out = ""
    for p in path:
        out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + str(p)
    return out or "(top level)"


def short(value, limit=60):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def message(err):
    """(the key, one sentence) for a validation error: the schema's own
    words for its keyword (x-messages) when it has them, else jsonschema's.
    A missing or unknown key is named itself."""
    path = list(err.absolute_path)
    own = (err.schema.get("x-messages") or {}).get(err.validator) if isinstance(err.schema, dict) else None
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = set((err.schema.get("properties") or {}).keys())
        extra = sorted(k for k in err.instance if k not in allowed)
        return key_path(path + extra[:1]), own or "unknown key"
    if err.validator == "required" and isinstance(err.instance, dict):
        missing = [k for k in err.validator_value if k not in err.instance]
        return key_path(path + missing[:1]), own or "missing"
    if own:
        return key_path(path), "%s: %s" % (short(err.instance), own)
    if err.validator == "const":
        return key_path(path), "%s, wanted %s" % (short(err.instance), short(err.validator_value))
    return key_path(path), err.message


def check(doc, name, source):
    """Raises SchemaError("SOURCE: KEY: what is wrong") when doc does not
    meet the schema of name; the first error by jsonschema's best_match
    (the deepest, most specific)."""
    errs = list(validator(name).iter_errors(doc))
    # A hand edit's own error before the file's missing "schema" key.
    own = [e for e in errs if not (e.validator == "required" and not e.absolute_path
                                   and "schema" in e.validator_value and "schema" not in e.instance)]
    err = jsonschema.exceptions.best_match(own or errs)
    if err is not None:
        raise SchemaError("%s: %s: %s" % ((source,) + message(err)))


def errors(doc, name):
    """Every error as "KEY: what is wrong" (the tests' view)."""
    return ["%s: %s" % message(e) for e in validator(name).iter_errors(doc)]
