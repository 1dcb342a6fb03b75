//! One-step simplifications of a step statement: clauses cut, expression nodes replaced by
//! simpler ones, rows and assignments dropped.

use super::rows::values_mut;
use super::{parse, parse_rewritable, tokens};
use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr,
    JoinConstraint, JoinOperator, Select, SelectItem, SetExpr, Statement, TableWithJoins,
    UnaryOperator, WildcardAdditionalOptions,
};
use sqlparser::tokenizer::Token;
use std::collections::HashSet;
use txhunt_model::SqlFamily;

/// Aggregate (and window) functions: a projection naming one is not replaced by `*`, a call
/// of one is not replaced by its argument.
const AGGREGATES: &[&str] = &[
    "AVG",
    "BIT_AND",
    "BIT_OR",
    "BIT_XOR",
    "BOOL_AND",
    "BOOL_OR",
    "COUNT",
    "EVERY",
    "GROUP_CONCAT",
    "JSON_AGG",
    "JSON_ARRAYAGG",
    "JSON_OBJECTAGG",
    "MAX",
    "MIN",
    "STDDEV",
    "STRING_AGG",
    "SUM",
    "TOTAL",
    "VARIANCE",
];

/// One-step simplifications of the step statement `sql`, simplest first, each a full
/// statement text different from `sql` that parses in the dialect of `family`:
///
/// - for SELECT, UPDATE and DELETE: the WHERE clause removed; for a SELECT then the
///   projection replaced by `*` (when it has no aggregate and there is no GROUP BY or
///   HAVING), GROUP BY, HAVING, ORDER BY and LIMIT removed (ORDER BY and LIMIT of MySQL's
///   UPDATE and DELETE too);
/// - for every node of the WHERE, join ON, HAVING and SET-value expression trees, outermost
///   first: an AND/OR replaced by either operand, a NOT, parenthesised expression or CAST by
///   its operand, a BETWEEN by one of its two comparisons (`x >= lo`, `x <= hi`; `x < lo`,
///   `x > hi` for NOT BETWEEN), an IN list shortened to its first element, an arithmetic
///   `x + 2` by `x` (`2 + x` by `x`), a call of a non-aggregate function with one argument
///   (`ABS(x)`) by its argument;
/// - for an INSERT … VALUES with several rows, each row dropped; for an UPDATE with several
///   assignments, each assignment dropped.
///
/// No duplicates. Empty when nothing applies or `sql` does not parse (or round-trip) in the
/// dialect.
pub fn expression_variants(sql: &str, family: SqlFamily) -> Vec<String> {
    let Some(parsed) = parse_rewritable(sql, family) else {
        return Vec::new();
    };
    let statement = &parsed.statement;
    let mut candidates = clause_cuts(statement);
    let mut probe = statement.clone();
    let roots: Vec<Expr> = roots(&mut probe).into_iter().map(|e| e.clone()).collect();
    for (r, root) in roots.iter().enumerate() {
        for variant in variants(root) {
            let mut candidate = statement.clone();
            if let Some(slot) = roots_of(&mut candidate, r) {
                *slot = variant;
                candidates.push(candidate);
            }
        }
    }
    candidates.extend(list_cuts(statement));
    let mut seen = HashSet::new();
    candidates
        .iter()
        .map(|candidate| parsed.render(candidate))
        .filter(|text| text != sql && parse(text, family).is_some() && seen.insert(text.clone()))
        .collect()
}

/// The statement without a whole clause, one clause at a time.
fn clause_cuts(statement: &Statement) -> Vec<Statement> {
    let mut cuts = Vec::new();
    let mut cut = |change: &dyn Fn(&mut Statement) -> bool| {
        let mut candidate = statement.clone();
        if change(&mut candidate) {
            cuts.push(candidate);
        }
    };
    cut(&|s| match s {
        Statement::Update(update) => update.selection.take().is_some(),
        Statement::Delete(delete) => delete.selection.take().is_some(),
        _ => select_mut(s).is_some_and(|select| select.selection.take().is_some()),
    });
    cut(&|s| {
        select_mut(s).is_some_and(|select| {
            let plain = !has_group_by(select)
                && select.having.is_none()
                && !matches!(select.projection.as_slice(), [SelectItem::Wildcard(_)])
                && !aggregates(&select.projection);
            if plain {
                select.projection =
                    vec![SelectItem::Wildcard(WildcardAdditionalOptions::default())];
            }
            plain
        })
    });
    cut(&|s| {
        select_mut(s).is_some_and(|select| {
            let grouped = has_group_by(select);
            select.group_by = GroupByExpr::Expressions(Vec::new(), Vec::new());
            grouped
        })
    });
    cut(&|s| select_mut(s).is_some_and(|select| select.having.take().is_some()));
    cut(&|s| match s {
        Statement::Query(query) => query.order_by.take().is_some(),
        Statement::Update(update) => !std::mem::take(&mut update.order_by).is_empty(),
        Statement::Delete(delete) => !std::mem::take(&mut delete.order_by).is_empty(),
        _ => false,
    });
    cut(&|s| match s {
        Statement::Query(query) => query.limit_clause.take().is_some(),
        Statement::Update(update) => update.limit.take().is_some(),
        Statement::Delete(delete) => delete.limit.take().is_some(),
        _ => false,
    });
    cuts
}

/// The statement with one VALUES row or one SET assignment dropped, for each when there are
/// several.
fn list_cuts(statement: &Statement) -> Vec<Statement> {
    let mut cuts = Vec::new();
    let mut probe = statement.clone();
    let rows = values_mut(&mut probe).map_or(0, |values| values.rows.len());
    let assignments = match statement {
        Statement::Update(update) => update.assignments.len(),
        _ => 0,
    };
    for i in 0..rows {
        let mut candidate = statement.clone();
        if let Some(values) = values_mut(&mut candidate).filter(|_| rows > 1) {
            values.rows.remove(i);
            cuts.push(candidate);
        }
    }
    for i in 0..assignments {
        let mut candidate = statement.clone();
        if let Statement::Update(update) = &mut candidate {
            if assignments > 1 {
                update.assignments.remove(i);
                cuts.push(candidate);
            }
        }
    }
    cuts
}

/// The SELECT of a query statement whose body is a plain SELECT.
fn select_mut(statement: &mut Statement) -> Option<&mut Select> {
    let Statement::Query(query) = statement else {
        return None;
    };
    match query.body.as_mut() {
        SetExpr::Select(select) => Some(select),
        _ => None,
    }
}

/// Whether `select` has a GROUP BY clause.
fn has_group_by(select: &Select) -> bool {
    match &select.group_by {
        GroupByExpr::All(_) => true,
        GroupByExpr::Expressions(exprs, modifiers) => !exprs.is_empty() || !modifiers.is_empty(),
    }
}

/// Whether `projection` calls an aggregate or window function.
fn aggregates(projection: &[SelectItem]) -> bool {
    let text: Vec<String> = projection.iter().map(ToString::to_string).collect();
    // The rendering is dialect-neutral enough for the generic tokenizer rules of SQLite.
    let Some(tokens) = tokens(&text.join(", "), SqlFamily::Sqlite) else {
        return true;
    };
    let significant: Vec<&Token> = tokens
        .iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    significant.iter().enumerate().any(|(i, token)| {
        let Token::Word(word) = token else {
            return false;
        };
        let called = matches!(significant.get(i + 1), Some(Token::LParen));
        word.value.eq_ignore_ascii_case("OVER") || (called && is_aggregate(&word.value))
    })
}

/// Whether `name` is an aggregate function.
fn is_aggregate(name: &str) -> bool {
    AGGREGATES.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// The roots of the expression trees that are simplified, in order: WHERE, join ON, HAVING,
/// SET values.
fn roots(statement: &mut Statement) -> Vec<&mut Expr> {
    let mut roots: Vec<&mut Expr> = Vec::new();
    match statement {
        Statement::Update(update) => {
            roots.extend(update.selection.as_mut());
            roots.extend(join_conditions(std::slice::from_mut(&mut update.table)));
            roots.extend(update.assignments.iter_mut().map(|a| &mut a.value));
        }
        Statement::Delete(delete) => roots.extend(delete.selection.as_mut()),
        _ => {
            if let Some(select) = select_mut(statement) {
                roots.extend(select.selection.as_mut());
                roots.extend(join_conditions(&mut select.from));
                roots.extend(select.having.as_mut());
            }
        }
    }
    roots
}

/// The root number `r` of `statement` (see [`roots`]).
fn roots_of(statement: &mut Statement, r: usize) -> Option<&mut Expr> {
    roots(statement).into_iter().nth(r)
}

/// The ON conditions of the joins of `from`.
fn join_conditions(from: &mut [TableWithJoins]) -> impl Iterator<Item = &mut Expr> {
    from.iter_mut()
        .flat_map(|table| table.joins.iter_mut())
        .filter_map(|join| match &mut join.join_operator {
            JoinOperator::Join(constraint)
            | JoinOperator::Inner(constraint)
            | JoinOperator::Left(constraint)
            | JoinOperator::LeftOuter(constraint)
            | JoinOperator::Right(constraint)
            | JoinOperator::RightOuter(constraint)
            | JoinOperator::FullOuter(constraint)
            | JoinOperator::StraightJoin(constraint) => match constraint {
                JoinConstraint::On(on) => Some(on),
                _ => None,
            },
            _ => None,
        })
}

/// The one-step simplifications of the tree `expr`, each a whole tree: those of its root
/// first, then those of each child in order (pre-order).
fn variants(expr: &Expr) -> Vec<Expr> {
    let mut out = local_variants(expr);
    let mut probe = expr.clone();
    let children: Vec<Expr> = children_mut(&mut probe)
        .into_iter()
        .map(|child| child.clone())
        .collect();
    for (c, child) in children.iter().enumerate() {
        for variant in variants(child) {
            let mut whole = expr.clone();
            if let Some(slot) = children_mut(&mut whole).into_iter().nth(c) {
                *slot = variant;
                out.push(whole);
            }
        }
    }
    out
}

/// The simplifications of the node `expr` itself.
fn local_variants(expr: &Expr) -> Vec<Expr> {
    let binary = |left: &Expr, op: BinaryOperator, right: &Expr| Expr::BinaryOp {
        left: Box::new(left.clone()),
        op,
        right: Box::new(right.clone()),
    };
    match expr {
        Expr::BinaryOp { left, op, right } => match op {
            BinaryOperator::And | BinaryOperator::Or => {
                vec![left.as_ref().clone(), right.as_ref().clone()]
            }
            BinaryOperator::Plus
            | BinaryOperator::Minus
            | BinaryOperator::Multiply
            | BinaryOperator::Divide
            | BinaryOperator::Modulo => {
                if matches!(left.as_ref(), Expr::Value(_)) {
                    vec![right.as_ref().clone()]
                } else {
                    vec![left.as_ref().clone()]
                }
            }
            _ => Vec::new(),
        },
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        }
        | Expr::Nested(expr)
        | Expr::Cast { expr, .. } => vec![expr.as_ref().clone()],
        Expr::Between {
            expr,
            negated,
            low,
            high,
        } => {
            let (below, above) = if *negated {
                (BinaryOperator::Lt, BinaryOperator::Gt)
            } else {
                (BinaryOperator::GtEq, BinaryOperator::LtEq)
            };
            vec![binary(expr, below, low), binary(expr, above, high)]
        }
        Expr::InList {
            expr,
            list,
            negated,
        } if list.len() > 1 => vec![Expr::InList {
            expr: expr.clone(),
            list: list[..1].to_vec(),
            negated: *negated,
        }],
        Expr::Function(function)
            if function.over.is_none()
                && function.filter.is_none()
                && function.within_group.is_empty()
                && !is_aggregate(&function.name.to_string()) =>
        {
            match &function.args {
                FunctionArguments::List(list)
                    if list.duplicate_treatment.is_none() && list.clauses.is_empty() =>
                {
                    match list.args.as_slice() {
                        [FunctionArg::Unnamed(FunctionArgExpr::Expr(arg))] => vec![arg.clone()],
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// The child expressions of `expr` that are simplified in turn, in order.
fn children_mut(expr: &mut Expr) -> Vec<&mut Expr> {
    match expr {
        Expr::BinaryOp { left, right, .. }
        | Expr::IsDistinctFrom(left, right)
        | Expr::IsNotDistinctFrom(left, right)
        | Expr::Like {
            expr: left,
            pattern: right,
            ..
        }
        | Expr::ILike {
            expr: left,
            pattern: right,
            ..
        } => vec![left.as_mut(), right.as_mut()],
        Expr::UnaryOp { expr, .. }
        | Expr::Nested(expr)
        | Expr::Cast { expr, .. }
        | Expr::IsNull(expr)
        | Expr::IsNotNull(expr)
        | Expr::IsTrue(expr)
        | Expr::IsNotTrue(expr)
        | Expr::IsFalse(expr)
        | Expr::IsNotFalse(expr)
        | Expr::IsUnknown(expr)
        | Expr::IsNotUnknown(expr)
        | Expr::InSubquery { expr, .. } => vec![expr.as_mut()],
        Expr::Between {
            expr, low, high, ..
        } => vec![expr.as_mut(), low.as_mut(), high.as_mut()],
        Expr::InList { expr, list, .. } => std::iter::once(expr.as_mut())
            .chain(list.iter_mut())
            .collect(),
        Expr::Function(function) => match &mut function.args {
            FunctionArguments::List(list) => list
                .args
                .iter_mut()
                .filter_map(|arg| match arg {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(arg)) => Some(arg),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::expression_variants;
    use crate::simplify::tests::TYPICAL_STEPS;
    use txhunt_model::SqlFamily::{Mysql, Postgres, Sqlite};

    #[test]
    fn simplifies_a_grouped_select() {
        assert_eq!(
            expression_variants(TYPICAL_STEPS[0], Mysql),
            [
                "SELECT a0, COUNT(*), MIN(a5) FROM t0 GROUP BY a0",
                "SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE ((a4 + 3) > -774)",
                "SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE (a4 + 3) > -774 GROUP BY a0",
                "SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE (a4 + 3 > -774) GROUP BY a0",
                "SELECT a0, COUNT(*), MIN(a5) FROM t0 WHERE ((a4) > -774) GROUP BY a0",
            ]
        );
    }

    #[test]
    fn simplifies_every_node_of_an_update_outermost_first() {
        let head = "UPDATE t1 SET b0 = 990";
        let expected: Vec<String> = [
            "",
            " WHERE (b0 BETWEEN -646 AND 990) AND ((b0 IS NULL) OR ((b0 + 2) >= -991))",
            " WHERE ((b0 BETWEEN -646 AND 990))",
            " WHERE (((b0 IS NULL) OR ((b0 + 2) >= -991)))",
            " WHERE (b0 BETWEEN -646 AND 990 AND ((b0 IS NULL) OR ((b0 + 2) >= -991)))",
            " WHERE ((b0 >= -646) AND ((b0 IS NULL) OR ((b0 + 2) >= -991)))",
            " WHERE ((b0 <= 990) AND ((b0 IS NULL) OR ((b0 + 2) >= -991)))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND (b0 IS NULL) OR ((b0 + 2) >= -991))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND ((b0 IS NULL)))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND (((b0 + 2) >= -991)))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND (b0 IS NULL OR ((b0 + 2) >= -991)))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND ((b0 IS NULL) OR (b0 + 2) >= -991))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND ((b0 IS NULL) OR (b0 + 2 >= -991)))",
            " WHERE ((b0 BETWEEN -646 AND 990) AND ((b0 IS NULL) OR ((b0) >= -991)))",
        ]
        .iter()
        .map(|tail| format!("{head}{tail}"))
        .collect();
        assert_eq!(expression_variants(TYPICAL_STEPS[2], Mysql), expected);
        assert_eq!(
            expression_variants(TYPICAL_STEPS[5], Mysql),
            [
                "UPDATE t0 SET a3 = (t0.a3 + 2)",
                "UPDATE t0 SET a3 = (t0.a3 + 2) WHERE a1 >= -523",
                "UPDATE t0 SET a3 = t0.a3 + 2 WHERE (a1 >= -523)",
                "UPDATE t0 SET a3 = (t0.a3) WHERE (a1 >= -523)",
            ]
        );
    }

    #[test]
    fn simplifies_joins_and_mysql_locking_reads() {
        assert_eq!(
            expression_variants(TYPICAL_STEPS[3], Mysql),
            [
                "SELECT * FROM t1 JOIN t0 ON (b0 = a1)",
                "SELECT * FROM t1 JOIN t0 ON (b0 = a1) WHERE b0 IS NULL",
                "SELECT * FROM t1 JOIN t0 ON b0 = a1 WHERE (b0 IS NULL)",
            ]
        );
        assert_eq!(
            expression_variants(TYPICAL_STEPS[4], Mysql),
            [
                "SELECT b0 FROM t1 LOCK IN SHARE MODE",
                "SELECT * FROM t1 WHERE (b0 IS NOT NULL) LOCK IN SHARE MODE",
                "SELECT b0 FROM t1 WHERE b0 IS NOT NULL LOCK IN SHARE MODE",
            ]
        );
        assert_eq!(
            expression_variants("SELECT v FROM t WHERE k = 1 FOR UPDATE", Mysql),
            [
                "SELECT v FROM t FOR UPDATE",
                "SELECT * FROM t WHERE k = 1 FOR UPDATE"
            ]
        );
    }

    #[test]
    fn drops_rows_of_a_step_insert() {
        assert_eq!(
            expression_variants(TYPICAL_STEPS[1], Mysql),
            [
                "INSERT IGNORE INTO t1 (b0) VALUES (-991)",
                "INSERT IGNORE INTO t1 (b0) VALUES (657)",
            ]
        );
        assert_eq!(
            expression_variants(
                "INSERT INTO t VALUES (1, 1), (2, 2) ON CONFLICT DO NOTHING",
                Postgres
            ),
            [
                "INSERT INTO t VALUES (2, 2) ON CONFLICT DO NOTHING",
                "INSERT INTO t VALUES (1, 1) ON CONFLICT DO NOTHING",
            ]
        );
        assert_eq!(
            expression_variants("INSERT INTO t VALUES (1, 1)", Sqlite),
            Vec::<String>::new()
        );
    }

    #[test]
    fn simplifies_postgres_selects() {
        assert_eq!(
            expression_variants(
                "SELECT k, v FROM t WHERE k IN (1, 2, 3) AND NOT ABS(v) > 2 ORDER BY k LIMIT 3 FOR SHARE",
                Postgres
            ),
            [
                "SELECT k, v FROM t ORDER BY k LIMIT 3 FOR SHARE",
                "SELECT * FROM t WHERE k IN (1, 2, 3) AND NOT ABS(v) > 2 ORDER BY k LIMIT 3 FOR SHARE",
                "SELECT k, v FROM t WHERE k IN (1, 2, 3) AND NOT ABS(v) > 2 LIMIT 3 FOR SHARE",
                "SELECT k, v FROM t WHERE k IN (1, 2, 3) AND NOT ABS(v) > 2 ORDER BY k FOR SHARE",
                "SELECT k, v FROM t WHERE k IN (1, 2, 3) ORDER BY k LIMIT 3 FOR SHARE",
                "SELECT k, v FROM t WHERE NOT ABS(v) > 2 ORDER BY k LIMIT 3 FOR SHARE",
                "SELECT k, v FROM t WHERE k IN (1) AND NOT ABS(v) > 2 ORDER BY k LIMIT 3 FOR SHARE",
                "SELECT k, v FROM t WHERE k IN (1, 2, 3) AND ABS(v) > 2 ORDER BY k LIMIT 3 FOR SHARE",
                "SELECT k, v FROM t WHERE k IN (1, 2, 3) AND NOT v > 2 ORDER BY k LIMIT 3 FOR SHARE",
            ]
        );
        assert_eq!(
            expression_variants(
                "SELECT COUNT(*) FROM t GROUP BY v HAVING COUNT(*) > 1 AND v NOT BETWEEN 1 AND 5",
                Postgres
            ),
            [
                "SELECT COUNT(*) FROM t HAVING COUNT(*) > 1 AND v NOT BETWEEN 1 AND 5",
                "SELECT COUNT(*) FROM t GROUP BY v",
                "SELECT COUNT(*) FROM t GROUP BY v HAVING COUNT(*) > 1",
                "SELECT COUNT(*) FROM t GROUP BY v HAVING v NOT BETWEEN 1 AND 5",
                "SELECT COUNT(*) FROM t GROUP BY v HAVING COUNT(*) > 1 AND v < 1",
                "SELECT COUNT(*) FROM t GROUP BY v HAVING COUNT(*) > 1 AND v > 5",
            ]
        );
    }

    #[test]
    fn simplifies_sqlite_deletes_and_updates() {
        assert_eq!(
            expression_variants("DELETE FROM t WHERE k = 1 OR v IS NULL", Sqlite),
            [
                "DELETE FROM t",
                "DELETE FROM t WHERE k = 1",
                "DELETE FROM t WHERE v IS NULL",
            ]
        );
        assert_eq!(
            expression_variants("UPDATE t SET v = v * 2, w = CAST(k AS TEXT)", Sqlite),
            [
                "UPDATE t SET v = v, w = CAST(k AS TEXT)",
                "UPDATE t SET v = v * 2, w = k",
                "UPDATE t SET w = CAST(k AS TEXT)",
                "UPDATE t SET v = v * 2",
            ]
        );
    }

    #[test]
    fn cuts_order_and_limit_of_mysql_writes() {
        assert_eq!(
            expression_variants("DELETE FROM t WHERE k > 1 ORDER BY k LIMIT 1", Mysql),
            [
                "DELETE FROM t ORDER BY k LIMIT 1",
                "DELETE FROM t WHERE k > 1 LIMIT 1",
                "DELETE FROM t WHERE k > 1 ORDER BY k",
            ]
        );
        assert_eq!(
            expression_variants("UPDATE t SET v = ABS(v - 1) ORDER BY k DESC LIMIT 2", Mysql),
            [
                "UPDATE t SET v = ABS(v - 1) LIMIT 2",
                "UPDATE t SET v = ABS(v - 1) ORDER BY k DESC",
                "UPDATE t SET v = v - 1 ORDER BY k DESC LIMIT 2",
                "UPDATE t SET v = ABS(v) ORDER BY k DESC LIMIT 2",
            ]
        );
    }

    #[test]
    fn nothing_for_other_or_unreadable_statements() {
        for (sql, family) in [
            ("BEGIN", Mysql),
            ("COMMIT", Postgres),
            ("SAVEPOINT s1", Sqlite),
            ("SELECT * FROM t", Sqlite),
            ("SELECT FROM WHERE", Mysql),
            ("", Postgres),
        ] {
            assert_eq!(
                expression_variants(sql, family),
                Vec::<String>::new(),
                "{sql}"
            );
        }
    }
}
