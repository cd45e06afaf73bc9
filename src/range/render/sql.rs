//! [`Dialect::Sql`]: one PostgreSQL `SELECT`, keys as text literals
//! (plain or `E'…'`) or `decode('…', 'hex')`, names quoted by
//! PostgreSQL's rules.

use crate::bytes::push_x_escape;
use std::fmt::Write as _;

use super::{
    hex_into, ident_into, is_hidden, name, qualified_into, text_key, Bounds, Dialect, Refuse,
    RenderError, RenderOptions,
};

/// PostgreSQL keywords that cannot be a bare table or column name
/// (`pg_get_keywords()` categories R, T and C, PostgreSQL 15, plus
/// `system_user` from 16).
const SQL_KEYWORDS: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "authorization",
    "between",
    "bigint",
    "binary",
    "bit",
    "boolean",
    "both",
    "case",
    "cast",
    "char",
    "character",
    "check",
    "coalesce",
    "collate",
    "collation",
    "column",
    "concurrently",
    "constraint",
    "create",
    "cross",
    "current_catalog",
    "current_date",
    "current_role",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "dec",
    "decimal",
    "default",
    "deferrable",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "exists",
    "extract",
    "false",
    "fetch",
    "float",
    "for",
    "foreign",
    "freeze",
    "from",
    "full",
    "grant",
    "greatest",
    "group",
    "grouping",
    "having",
    "ilike",
    "in",
    "initially",
    "inner",
    "inout",
    "int",
    "integer",
    "intersect",
    "interval",
    "into",
    "is",
    "isnull",
    "join",
    "lateral",
    "leading",
    "least",
    "left",
    "like",
    "limit",
    "localtime",
    "localtimestamp",
    "national",
    "natural",
    "nchar",
    "none",
    "normalize",
    "not",
    "notnull",
    "null",
    "nullif",
    "numeric",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "out",
    "outer",
    "overlaps",
    "overlay",
    "placing",
    "position",
    "precision",
    "primary",
    "real",
    "references",
    "returning",
    "right",
    "row",
    "select",
    "session_user",
    "setof",
    "similar",
    "smallint",
    "some",
    "substring",
    "symmetric",
    "system_user",
    "table",
    "tablesample",
    "then",
    "time",
    "timestamp",
    "to",
    "trailing",
    "treat",
    "trim",
    "true",
    "union",
    "unique",
    "user",
    "using",
    "values",
    "varchar",
    "variadic",
    "verbose",
    "when",
    "where",
    "window",
    "with",
    "xmlattributes",
    "xmlconcat",
    "xmlelement",
    "xmlexists",
    "xmlforest",
    "xmlnamespaces",
    "xmlparse",
    "xmlpi",
    "xmlroot",
    "xmlserialize",
    "xmltable",
];

fn sql_ident(name: &str, out: &mut String) {
    ident_into(
        name,
        SQL_KEYWORDS,
        |b| b.is_ascii_lowercase() || b == b'_',
        out,
    );
}

pub(super) fn sql(b: &Bounds<'_>, o: &RenderOptions, out: &mut String) -> Result<(), RenderError> {
    let table = name(&o.table, "t", "table")?;
    let k = name(&o.column, "k", "column")?;
    out.push_str("SELECT ");
    sql_ident(k, out);
    out.push_str(" FROM ");
    qualified_into(table, sql_ident, out);
    let mut first = true;
    for ((side, key), op) in b.sides().into_iter().zip([" >= ", " < "]) {
        let Some(key) = key else { continue };
        out.push_str(if first { " WHERE " } else { " AND " });
        first = false;
        sql_ident(k, out);
        out.push_str(op);
        if o.text {
            let s = text_key(Dialect::Sql, side, key, Refuse::Nul)?;
            sql_text_literal(s, out);
        } else {
            // Not `'\x…'::bytea`: with standard_conforming_strings off the
            // backslash starts a string escape. `decode` reads plain hex
            // digits, the same under either setting.
            out.push_str("decode('");
            hex_into(key, out);
            out.push_str("', 'hex')");
        }
    }
    out.push_str(" ORDER BY ");
    sql_ident(k, out);
    if o.reversed {
        out.push_str(" DESC");
    }
    if let Some(limit) = o.limit {
        let _ = write!(out, " LIMIT {limit}");
    }
    out.push_str(";\n");
    Ok(())
}

/// A PostgreSQL text literal. Plain `'…'` (with `''`) when the text has no
/// backslash and no character of [`is_hidden`]; otherwise an escape string
/// `E'…'` with `\\`, `''`, `\xNN` for ASCII control characters and
/// `\uXXXX` for the others (C1 controls, bidirectional formatting
/// characters), which keeps the statement on one line, shows every such
/// character, and means the same whatever `standard_conforming_strings`
/// says (`E'…'` always reads escapes; `U&'…'` would be refused with the
/// setting off).
fn sql_text_literal(s: &str, out: &mut String) {
    let escape = s.chars().any(|c| c == '\\' || is_hidden(c));
    out.push_str(if escape { "E'" } else { "'" });
    for c in s.chars() {
        match c {
            '\'' => out.push_str("''"),
            '\\' if escape => out.push_str("\\\\"),
            _ if c.is_ascii() && is_hidden(c) => push_x_escape(c as u8, out),
            // Only in escape strings: hidden characters force `E'…'`.
            _ if is_hidden(c) => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            _ => out.push(c),
        }
    }
    out.push('\'');
}
