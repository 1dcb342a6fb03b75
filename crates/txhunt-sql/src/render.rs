//! Rendering the AST as SQL text of one dialect. Compound expressions are fully parenthesized,
//! so no dialect's operator precedence can change their meaning.

use crate::ast::{
    Agg, BinOp, Column, Conflict, Expr, Func, Index, Insert, Select, SelectItem, Stmt, Table,
};
use crate::dialect::{Dialect, Feature};

/// `stmt` as SQL text of `dialect` (without a trailing `;`).
pub fn render(stmt: &Stmt, dialect: &dyn Dialect) -> String {
    match stmt {
        Stmt::CreateTable(table) => create_table(table, dialect),
        Stmt::CreateIndex(index) => create_index(index),
        Stmt::Select(select) => render_select(select, dialect),
        Stmt::Insert(insert) => render_insert(insert, dialect),
        Stmt::Update(update) => {
            let mut sql = format!(
                "UPDATE {} SET {}",
                update.table,
                assignments(&update.set, dialect)
            );
            push_filter(&mut sql, update.filter.as_ref(), dialect);
            sql
        }
        Stmt::Delete(delete) => {
            let mut sql = format!("DELETE FROM {}", delete.table);
            push_filter(&mut sql, delete.filter.as_ref(), dialect);
            sql
        }
        Stmt::Begin => "BEGIN".into(),
        Stmt::Commit => "COMMIT".into(),
        Stmt::Rollback => "ROLLBACK".into(),
        Stmt::Savepoint(name) => format!("SAVEPOINT {name}"),
        Stmt::RollbackTo(name) => format!("ROLLBACK TO SAVEPOINT {name}"),
    }
}

fn create_table(table: &Table, dialect: &dyn Dialect) -> String {
    let mut parts: Vec<String> = table.columns.iter().map(|c| column(c, dialect)).collect();
    if !table.primary_key.is_empty() {
        parts.push(format!("PRIMARY KEY ({})", table.primary_key.join(", ")));
    }
    if let Some(fk) = &table.foreign_key {
        parts.push(format!(
            "FOREIGN KEY ({}) REFERENCES {} ({})",
            fk.columns.join(", "),
            fk.table,
            fk.references.join(", ")
        ));
    }
    format!("CREATE TABLE {} ({})", table.name, parts.join(", "))
}

fn column(c: &Column, dialect: &dyn Dialect) -> String {
    let mut sql = format!("{} {}", c.name, dialect.type_name(c.ty));
    if c.not_null {
        sql.push_str(" NOT NULL");
    }
    if c.unique {
        sql.push_str(" UNIQUE");
    }
    if let Some(default) = &c.default {
        sql.push_str(&format!(" DEFAULT {}", dialect.literal(default)));
    }
    if let Some(check) = c
        .check
        .as_ref()
        .filter(|_| dialect.supports(Feature::Check))
    {
        sql.push_str(&format!(" CHECK ({})", expr(check, dialect)));
    }
    sql
}

fn create_index(index: &Index) -> String {
    format!(
        "CREATE {}INDEX {} ON {} ({})",
        if index.unique { "UNIQUE " } else { "" },
        index.name,
        index.table,
        index.columns.join(", ")
    )
}

/// A SELECT as SQL text.
pub fn render_select(select: &Select, dialect: &dyn Dialect) -> String {
    let items: Vec<String> = select
        .items
        .iter()
        .map(|item| match item {
            SelectItem::Star => "*".to_string(),
            SelectItem::Expr(e) => expr(e, dialect),
            SelectItem::CountStar => "COUNT(*)".to_string(),
            SelectItem::Agg(agg, e) => format!("{}({})", agg_name(*agg), expr(e, dialect)),
        })
        .collect();
    let mut sql = format!("SELECT {} FROM {}", items.join(", "), select.from);
    if let Some(join) = &select.join {
        sql.push_str(&format!(
            " JOIN {} ON {}",
            join.table,
            expr(&join.on, dialect)
        ));
    }
    push_filter(&mut sql, select.filter.as_ref(), dialect);
    if !select.group_by.is_empty() {
        let keys: Vec<String> = select.group_by.iter().map(|e| expr(e, dialect)).collect();
        sql.push_str(&format!(" GROUP BY {}", keys.join(", ")));
    }
    if let Some(lock) = select.lock {
        sql.push(' ');
        sql.push_str(dialect.lock_clause(lock));
    }
    sql
}

fn render_insert(insert: &Insert, dialect: &dyn Dialect) -> String {
    let rows: Vec<String> = insert
        .rows
        .iter()
        .map(|row| {
            let values: Vec<String> = row.iter().map(|e| expr(e, dialect)).collect();
            format!("({})", values.join(", "))
        })
        .collect();
    let set = match &insert.conflict {
        Conflict::Update { set, .. } => assignments(set, dialect),
        _ => String::new(),
    };
    format!(
        "{} {} ({}) VALUES {}{}",
        dialect.insert_verb(&insert.conflict),
        insert.table,
        insert.columns.join(", "),
        rows.join(", "),
        dialect.conflict_clause(&insert.conflict, &set)
    )
}

fn assignments(set: &[(String, Expr)], dialect: &dyn Dialect) -> String {
    set.iter()
        .map(|(column, value)| format!("{column} = {}", expr(value, dialect)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn push_filter(sql: &mut String, filter: Option<&Expr>, dialect: &dyn Dialect) {
    if let Some(filter) = filter {
        sql.push_str(" WHERE ");
        sql.push_str(&expr(filter, dialect));
    }
}

/// An expression as SQL text.
pub fn expr(e: &Expr, dialect: &dyn Dialect) -> String {
    match e {
        Expr::Column {
            table: Some(t),
            name,
        } => format!("{t}.{name}"),
        Expr::Column { table: None, name } => name.clone(),
        Expr::Literal(v) => dialect.literal(v),
        Expr::Binary { op, left, right } => format!(
            "({} {} {})",
            expr(left, dialect),
            op_text(*op),
            expr(right, dialect)
        ),
        Expr::Not(inner) => format!("(NOT {})", expr(inner, dialect)),
        Expr::IsNull {
            expr: inner,
            negated,
        } => format!(
            "({} IS {}NULL)",
            expr(inner, dialect),
            if *negated { "NOT " } else { "" }
        ),
        Expr::Between {
            expr: inner,
            low,
            high,
        } => format!(
            "({} BETWEEN {} AND {})",
            expr(inner, dialect),
            expr(low, dialect),
            expr(high, dialect)
        ),
        Expr::InList { expr: inner, list } => {
            let items: Vec<String> = list.iter().map(|i| expr(i, dialect)).collect();
            format!("({} IN ({}))", expr(inner, dialect), items.join(", "))
        }
        Expr::InSubquery { expr: inner, query } => {
            format!(
                "({} IN ({}))",
                expr(inner, dialect),
                render_select(query, dialect)
            )
        }
        Expr::Func { func, args } => {
            let args: Vec<String> = args.iter().map(|a| expr(a, dialect)).collect();
            format!("{}({})", func_name(*func), args.join(", "))
        }
    }
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Eq => "=",
        BinOp::Ne => "<>",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::And => "AND",
        BinOp::Or => "OR",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
    }
}

fn func_name(func: Func) -> &'static str {
    match func {
        Func::Abs => "ABS",
        Func::Coalesce => "COALESCE",
        Func::Length => "LENGTH",
        Func::Lower => "LOWER",
        Func::Upper => "UPPER",
    }
}

fn agg_name(agg: Agg) -> &'static str {
    match agg {
        Agg::Count => "COUNT",
        Agg::Sum => "SUM",
        Agg::Min => "MIN",
        Agg::Max => "MAX",
    }
}
