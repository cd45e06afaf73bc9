//! [`Dialect::Cql`]: one Cassandra CQL `SELECT` on a clustering column,
//! keys as string or blob literals, names quoted by CQL's rules.

use std::fmt::Write as _;

use super::{
    hex_into, ident_into, name, qualified_into, text_key, Bounds, Dialect, Refuse, RenderError,
    RenderOptions,
};

/// CQL keywords (reserved and non-reserved, Cassandra 3–5): a name equal to
/// one of these is quoted. Quoting a lowercase name never changes it.
const CQL_KEYWORDS: &[&str] = &[
    "add",
    "aggregate",
    "all",
    "allow",
    "alter",
    "and",
    "any",
    "apply",
    "as",
    "asc",
    "ascii",
    "authorize",
    "batch",
    "begin",
    "bigint",
    "blob",
    "boolean",
    "by",
    "called",
    "cast",
    "clustering",
    "columnfamily",
    "compact",
    "contains",
    "count",
    "counter",
    "create",
    "custom",
    "date",
    "decimal",
    "default",
    "delete",
    "desc",
    "describe",
    "distinct",
    "double",
    "drop",
    "duration",
    "each_quorum",
    "entries",
    "execute",
    "exists",
    "filtering",
    "finalfunc",
    "float",
    "for",
    "from",
    "frozen",
    "full",
    "function",
    "functions",
    "grant",
    "if",
    "in",
    "index",
    "inet",
    "infinity",
    "initcond",
    "input",
    "insert",
    "int",
    "into",
    "is",
    "json",
    "key",
    "keys",
    "keyspace",
    "keyspaces",
    "language",
    "level",
    "like",
    "limit",
    "list",
    "local_one",
    "local_quorum",
    "login",
    "map",
    "materialized",
    "mbean",
    "mbeans",
    "modify",
    "nan",
    "nologin",
    "norecursive",
    "nosuperuser",
    "not",
    "null",
    "of",
    "on",
    "one",
    "options",
    "or",
    "order",
    "partition",
    "password",
    "per",
    "permission",
    "permissions",
    "primary",
    "quorum",
    "rename",
    "replace",
    "returns",
    "revoke",
    "role",
    "roles",
    "schema",
    "select",
    "set",
    "sfunc",
    "smallint",
    "static",
    "storage",
    "stype",
    "superuser",
    "table",
    "text",
    "time",
    "timestamp",
    "timeuuid",
    "tinyint",
    "to",
    "token",
    "trigger",
    "truncate",
    "ttl",
    "tuple",
    "type",
    "unlogged",
    "unset",
    "update",
    "use",
    "user",
    "users",
    "using",
    "uuid",
    "values",
    "varchar",
    "varint",
    "view",
    "where",
    "with",
    "writetime",
];

fn cql_ident(name: &str, out: &mut String) {
    ident_into(name, CQL_KEYWORDS, |b| b.is_ascii_lowercase(), out);
}

pub(super) fn cql(b: &Bounds<'_>, o: &RenderOptions, out: &mut String) -> Result<(), RenderError> {
    let table = name(&o.table, "t", "table")?;
    let pk = name(&o.partition_key, "pk", "partition key")?;
    let ck = name(&o.column, "ck", "column")?;
    out.push_str("SELECT * FROM ");
    qualified_into(table, cql_ident, out);
    out.push_str(" WHERE ");
    cql_ident(pk, out);
    out.push_str(" = ?");
    for ((side, key), op) in b.sides().into_iter().zip([" >= ", " < "]) {
        let Some(key) = key else { continue };
        out.push_str(" AND ");
        cql_ident(ck, out);
        out.push_str(op);
        if o.text {
            let s = text_key(Dialect::Cql, side, key, Refuse::Hidden)?;
            out.push('\'');
            out.push_str(&s.replace('\'', "''"));
            out.push('\'');
        } else {
            out.push_str("0x");
            hex_into(key, out);
        }
    }
    if o.reversed {
        out.push_str(" ORDER BY ");
        cql_ident(ck, out);
        out.push_str(" DESC");
    }
    if let Some(limit) = o.limit {
        let _ = write!(out, " LIMIT {limit}");
    }
    out.push_str(";\n");
    Ok(())
}
