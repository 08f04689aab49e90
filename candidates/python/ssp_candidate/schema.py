"""The server schema (SSP2 §2.4, §3.1): its JSON form (docs/storage.md "Schema JSON"), the
compile rules (docs/storage.md "Schema IR", design notes storage.md §1.1) and the stored
layouts text (design notes storage.md §1.2), which must be byte-identical to upstream's
``layoutsOf`` because it is compared with what another server wrote into the marker.
"""

import json
import re

from .errors import CandidateError
from .jsontext import MAX_SAFE_INTEGER, quote
from .row_codec import TYPES, Column
from .wire import BadRequest, text


class SchemaError(CandidateError):
    """A schema that does not parse or compile; the message names the table and column, or
    the JSON field path."""

    code = "ssp.schema_error"


class Table:
    __slots__ = ("name", "columns", "primary_key", "scopes", "indexes", "materialize", "bindings")

    def column(self, name):
        for column in self.columns:
            if column.name == name:
                return column
        return None

    def layout(self):
        """The codec columns, in declaration order (the row codec's positional order)."""
        return [Column(c.name, c.type, c.nullable) for c in self.columns]

    def scope_variables(self):
        """The declared variables, each once (two patterns may bind one variable)."""
        out = []
        for variable, _ in self.bindings:
            if variable not in out:
                out.append(variable)
        return out


class SchemaColumn(Column):
    __slots__ = ("crdt_type", "encrypted", "declared_type")


class Schema:
    __slots__ = ("version", "tables")

    def find(self, name):
        for table in self.tables:
            if table.name == name:
                return table
        return None


# --- the JSON form -----------------------------------------------------------------

_TABLE_KEYS = {"name", "columns", "primaryKey", "scopes", "indexes", "materialize"}
_COLUMN_KEYS = {"name", "type", "nullable", "crdtType", "encrypted", "declaredType"}
_INDEX_KEYS = {"name", "columns", "unique"}
_SCOPE_KEYS = {"pattern", "column"}


class _Pairs(list):
    """An object as its key/value pairs, so a repeated key can be refused."""


def parse_schema_text(source: str) -> Schema:
    """Parse the schema JSON text; SchemaError naming the JSON path of the first problem."""
    try:
        document = json.loads(source, object_pairs_hook=_Pairs, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        raise SchemaError("schema JSON: not JSON (%s)" % error) from None
    return schema_from_json(document)


def _refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def _object(value, path, allowed):
    """``value`` as a dict, refusing a non-object, a repeated key and an unknown key."""
    if isinstance(value, _Pairs):
        seen = {}
        for key, item in value:
            if key in seen:
                raise SchemaError("schema JSON: %s: field given twice" % _join(path, key))
            seen[key] = item
        value = seen
    if not isinstance(value, dict):
        raise SchemaError("schema JSON: %s: expected an object" % (path or "top level"))
    for key in value:
        if key not in allowed:
            raise SchemaError("schema JSON: %s: unknown field" % _join(path, key))
    return value


def _join(path, key):
    return "%s.%s" % (path, key) if path else key


def _required(obj, key, path):
    if key not in obj:
        raise SchemaError("schema JSON: %s: missing" % _join(path, key))
    return obj[key]


def _text(value, path):
    try:
        if isinstance(value, _Pairs):
            value = dict(value)
        return text(value, path)
    except BadRequest:
        raise SchemaError("schema JSON: %s: expected a string" % path) from None


def _bool(value, path):
    if not isinstance(value, bool):
        raise SchemaError("schema JSON: %s: expected true or false" % path)
    return value


def _list(value, path):
    if not isinstance(value, list) or isinstance(value, _Pairs):
        raise SchemaError("schema JSON: %s: expected an array" % path)
    return value


def schema_from_json(document) -> Schema:
    """A Schema from the parsed JSON form (keys checked, nothing compiled)."""
    top = _object(document, "", {"version", "tables"})
    version = _required(top, "version", "")
    if isinstance(version, bool) or not isinstance(version, int) or abs(version) > MAX_SAFE_INTEGER:
        raise SchemaError("schema JSON: version: expected an integer within ±(2^53−1)")
    schema = Schema()
    schema.version = version
    schema.tables = []
    for t_index, raw_table in enumerate(_list(_required(top, "tables", ""), "tables")):
        path = "tables[%d]" % t_index
        obj = _object(raw_table, path, _TABLE_KEYS)
        table = Table()
        table.name = _text(_required(obj, "name", path), path + ".name")
        table.columns = []
        for c_index, raw_column in enumerate(_list(_required(obj, "columns", path), path + ".columns")):
            c_path = "%s.columns[%d]" % (path, c_index)
            c_obj = _object(raw_column, c_path, _COLUMN_KEYS)
            kind = _required(c_obj, "type", c_path)
            if kind not in TYPES:
                raise SchemaError("schema JSON: %s.type: expected one of %s" % (c_path, " ".join(TYPES)))
            column = SchemaColumn(_text(_required(c_obj, "name", c_path), c_path + ".name"), kind,
                                  _bool(_required(c_obj, "nullable", c_path), c_path + ".nullable"))
            column.crdt_type = (_text(c_obj["crdtType"], c_path + ".crdtType") if "crdtType" in c_obj else None)
            column.encrypted = _bool(c_obj["encrypted"], c_path + ".encrypted") if "encrypted" in c_obj else None
            column.declared_type = (_text(c_obj["declaredType"], c_path + ".declaredType")
                                    if "declaredType" in c_obj else None)
            table.columns.append(column)
        table.primary_key = _text(_required(obj, "primaryKey", path), path + ".primaryKey")
        table.scopes = []
        for s_index, raw_scope in enumerate(_list(_required(obj, "scopes", path), path + ".scopes")):
            s_path = "%s.scopes[%d]" % (path, s_index)
            if isinstance(raw_scope, (_Pairs, dict)) and not (isinstance(raw_scope, dict) and set(raw_scope) == {"$raw"}):
                s_obj = _object(raw_scope, s_path, _SCOPE_KEYS)
                pattern = _text(_required(s_obj, "pattern", s_path), s_path + ".pattern")
                column_name = _text(s_obj["column"], s_path + ".column") if "column" in s_obj else None
                table.scopes.append((pattern, column_name))
            else:
                table.scopes.append((_text(raw_scope, s_path), None))
        table.indexes = None
        if "indexes" in obj:
            table.indexes = []
            for i_index, raw_index in enumerate(_list(obj["indexes"], path + ".indexes")):
                i_path = "%s.indexes[%d]" % (path, i_index)
                i_obj = _object(raw_index, i_path, _INDEX_KEYS)
                columns = [_text(c, "%s.columns[%d]" % (i_path, n))
                           for n, c in enumerate(_list(_required(i_obj, "columns", i_path), i_path + ".columns"))]
                unique = _bool(i_obj["unique"], i_path + ".unique") if "unique" in i_obj else None
                table.indexes.append((_text(_required(i_obj, "name", i_path), i_path + ".name"), columns, unique))
        table.materialize = _bool(obj["materialize"], path + ".materialize") if "materialize" in obj else None
        table.bindings = []
        schema.tables.append(table)
    return schema


def _out(value):
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        import base64
        return {"$raw": base64.b64encode(value.encode("utf-8", "surrogateescape")).decode("ascii")}


def schema_to_json(schema: Schema) -> dict:
    """The JSON form, optional fields only when set (docs/driver-protocol.md, schema.parse)."""
    tables = []
    for table in schema.tables:
        columns = []
        for c in table.columns:
            out = {"name": _out(c.name), "type": c.type, "nullable": c.nullable}
            if c.crdt_type is not None:
                out["crdtType"] = _out(c.crdt_type)
            if c.encrypted is not None:
                out["encrypted"] = c.encrypted
            if c.declared_type is not None:
                out["declaredType"] = _out(c.declared_type)
            columns.append(out)
        scopes = [_out(p) if col is None else {"pattern": _out(p), "column": _out(col)} for p, col in table.scopes]
        out = {"name": _out(table.name), "columns": columns, "primaryKey": _out(table.primary_key), "scopes": scopes}
        if table.indexes is not None:
            indexes = []
            for name, cols, unique in table.indexes:
                index = {"name": _out(name), "columns": [_out(c) for c in cols]}
                if unique is not None:
                    index["unique"] = unique
                indexes.append(index)
            out["indexes"] = indexes
        if table.materialize is not None:
            out["materialize"] = table.materialize
        tables.append(out)
    return {"version": schema.version, "tables": tables}


# --- compile -------------------------------------------------------------------------

_PATTERN = re.compile(r"[^{}]*\{([^{}]+)\}[^{}]*\Z", re.S)


def _identifier_problem(name):
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError:
        return "is not well-formed UTF-8"
    if not name:
        return "is empty"
    if len(encoded) > 63:
        return "is longer than 63 bytes"
    lowered = name.lower()
    if lowered.startswith("sync_") or lowered.startswith("_sync"):
        return "uses the reserved sync_/_sync prefix"
    return None


def _q(name):
    return quote(name)


def compile_schema(schema: Schema) -> Schema:
    """Check the compile rules in the order docs/storage.md lists them and resolve
    ``materialize`` and the scope bindings; SchemaError naming table and column/index/pattern."""
    seen_tables = set()
    for table in schema.tables:
        problem = _identifier_problem(table.name)
        if problem:
            raise SchemaError("table %s: name %s" % (_q(table.name), problem))
        if table.name in seen_tables:
            raise SchemaError("table %s: declared twice" % _q(table.name))
        seen_tables.add(table.name)
        seen_columns = set()
        for column in table.columns:
            problem = _identifier_problem(column.name)
            if problem:
                raise SchemaError("table %s column %s: name %s" % (_q(table.name), _q(column.name), problem))
            if column.name in seen_columns:
                raise SchemaError("table %s column %s: declared twice" % (_q(table.name), _q(column.name)))
            seen_columns.add(column.name)
        for name, _, _ in table.indexes or []:
            problem = _identifier_problem(name)
            if problem:
                raise SchemaError("table %s index %s: name %s" % (_q(table.name), _q(name), problem))
        if not table.columns:
            raise SchemaError("table %s: has no columns" % _q(table.name))
        if table.column(table.primary_key) is None:
            raise SchemaError("table %s: primary key %s names no column" % (_q(table.name), _q(table.primary_key)))
        if not table.scopes:
            raise SchemaError("table %s: needs at least one scope pattern" % _q(table.name))
        bindings = []
        for pattern, column_name in table.scopes:
            match = _PATTERN.match(pattern)
            if not match:
                raise SchemaError("table %s scope pattern %s: needs exactly one {variable}" % (_q(table.name), _q(pattern)))
            variable = match.group(1)
            bound = column_name if column_name is not None else variable
            if table.column(bound) is None:
                raise SchemaError("table %s scope pattern %s: variable %s is bound to column %s, which does not exist"
                                  % (_q(table.name), _q(pattern), _q(variable), _q(bound)))
            for other_variable, other_column in bindings:
                if other_variable == variable and other_column != bound:
                    raise SchemaError("table %s scope pattern %s: variable %s is bound to two columns (%s and %s)"
                                      % (_q(table.name), _q(pattern), _q(variable), _q(other_column), _q(bound)))
            bindings.append((variable, bound))
        for column in table.columns:
            if column.type == "crdt" and not column.crdt_type:
                raise SchemaError("table %s column %s: a crdt column needs a crdtType" % (_q(table.name), _q(column.name)))
            if column.encrypted and column.type != "bytes":
                raise SchemaError("table %s column %s: an encrypted column has type bytes" % (_q(table.name), _q(column.name)))
        index_names = set()
        for name, columns, _ in table.indexes or []:
            if name in index_names:
                raise SchemaError("table %s index %s: declared twice" % (_q(table.name), _q(name)))
            index_names.add(name)
            if not columns:
                raise SchemaError("table %s index %s: has no columns" % (_q(table.name), _q(name)))
            for column_name in columns:
                if table.column(column_name) is None:
                    raise SchemaError("table %s index %s column %s: no such column"
                                      % (_q(table.name), _q(name), _q(column_name)))
        table.bindings = bindings
        if table.materialize is None:
            key_and_scopes = {table.primary_key} | {column for _, column in bindings}
            others = [c for c in table.columns if c.name not in key_and_scopes]
            table.materialize = not (others and all(c.encrypted for c in others))
    return schema


def scopes_json(schema: Schema) -> dict:
    return {table.name: [{"variable": v, "column": c} for v, c in table.bindings] for table in schema.tables}


def layouts_json(schema: Schema) -> str:
    """The marker's layouts text: what upstream ``layoutsOf`` writes through JSON.stringify."""
    return "{" + ",".join(
        quote(table.name) + ":[" + ",".join(
            '{"name":%s,"type":%s,"nullable":%s}' % (quote(c.name), quote(c.type), "true" if c.nullable else "false")
            for c in table.columns) + "]"
        for table in schema.tables) + "}"
