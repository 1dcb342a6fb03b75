//! Whole test cases: schema and data as setup, transactions, and the submitted order
//! (paper 001 §5.2).

use super::Gen;
use crate::ast::{Conflict, Expr, Insert, Stmt};
use crate::render::render;
use rand::RngExt;
use txhunt_model::{Header, Step, TestCase};

/// A generated test case, with the kind of every statement (for statistics: which kinds the
/// DBMS rejected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedCase {
    /// The case.
    pub case: TestCase,
    /// The kind of each setup statement (`create-table`, `create-index`, `insert-data`).
    pub init_kinds: Vec<&'static str>,
    /// The kind of each step (`select`, `select-for-update`, `upsert`, `begin`, …).
    pub kinds: Vec<&'static str>,
    /// The anomaly pattern that guided the case ([`super::generate_guided`]), if one did.
    pub pattern: Option<&'static str>,
}

/// A case's setup statements and the kind of each.
pub(super) type Setup = (Vec<txhunt_model::Stmt>, Vec<&'static str>);

impl GeneratedCase {
    /// The case of `setup` and `steps` (each with its kind), guided by `pattern` if one.
    pub(super) fn assemble(
        (init, init_kinds): Setup,
        (steps, kinds): (Vec<Step>, Vec<&'static str>),
        pattern: Option<&'static str>,
    ) -> GeneratedCase {
        GeneratedCase {
            case: TestCase {
                header: Header::default(),
                init,
                steps,
                final_expect: Vec::new(),
            },
            init_kinds,
            kinds,
            pattern,
        }
    }
}

impl Gen {
    /// A whole case.
    pub fn case(&mut self) -> GeneratedCase {
        let setup = self.setup();
        self.random_case(setup)
    }

    /// A case of random transactions after `setup` (its statements and their kinds).
    pub(super) fn random_case(&mut self, setup: Setup) -> GeneratedCase {
        let txns = self.transactions();
        let (steps, kinds) = self.submitted_order(txns);
        GeneratedCase::assemble(setup, (steps, kinds), None)
    }

    /// The setup statements (schema, indexes, rows) and their kinds; the schema and rows are
    /// kept for the statements that follow.
    pub(super) fn setup(&mut self) -> Setup {
        let (tables, indexes) = self.schema();
        self.tables = tables.clone();
        let mut init = Vec::new();
        let mut init_kinds = Vec::new();
        let mut data: Vec<(String, Vec<Vec<txhunt_model::Value>>)> = Vec::new();
        for table in &tables {
            init.push(render(&Stmt::CreateTable(table.clone()), self.dialect));
            init_kinds.push("create-table");
            let rows = self.rows(table, &data);
            data.push((table.name.clone(), rows));
        }
        for index in indexes {
            init.push(render(&Stmt::CreateIndex(index), self.dialect));
            init_kinds.push("create-index");
        }
        for (table, (_, rows)) in tables.iter().zip(&data) {
            if rows.is_empty() {
                continue;
            }
            let insert = Insert {
                table: table.name.clone(),
                columns: table.columns.iter().map(|c| c.name.clone()).collect(),
                rows: rows
                    .iter()
                    .map(|r| r.iter().cloned().map(Expr::lit).collect())
                    .collect(),
                conflict: Conflict::Fail,
            };
            init.push(render(&Stmt::Insert(insert), self.dialect));
            init_kinds.push("insert-data");
        }
        self.rows = data.into_iter().map(|(_, rows)| rows).collect();
        let init = init.into_iter().map(txhunt_model::Stmt::new).collect();
        (init, init_kinds)
    }

    /// 1 to `max_txns` transactions, explicit (BEGIN, statements, COMMIT or ROLLBACK, now and
    /// then a SAVEPOINT rolled back to) or a single autocommit statement; at least one explicit
    /// transaction and one write (paper 001 §5.2).
    fn transactions(&mut self) -> Vec<Vec<(Stmt, &'static str)>> {
        let n = self.rng.random_range(1..=self.config.max_txns.max(1));
        let mut txns = Vec::new();
        for i in 0..n {
            let explicit = i == 0 || self.rng.random_bool(0.6);
            if !explicit {
                txns.push(vec![self.data_stmt()]);
                continue;
            }
            let body = self.explicit_body();
            let mut txn = vec![(Stmt::Begin, "begin")];
            txn.extend(body);
            txn.push(if self.rng.random_bool(0.7) {
                (Stmt::Commit, "commit")
            } else {
                (Stmt::Rollback, "rollback")
            });
            txns.push(txn);
        }
        let writes = |s: &Stmt| matches!(s, Stmt::Insert(_) | Stmt::Update(_) | Stmt::Delete(_));
        if !txns.iter().flatten().any(|(s, _)| writes(s)) {
            let write = self.write_stmt();
            txns[0][1] = write;
        }
        txns
    }

    /// The statements of an explicit transaction between its BEGIN and its end: 1 to
    /// `max_stmts` data statements, now and then with a SAVEPOINT rolled back to.
    pub(super) fn explicit_body(&mut self) -> Vec<(Stmt, &'static str)> {
        let k = self.rng.random_range(1..=self.config.max_stmts.max(1));
        let mut body: Vec<(Stmt, &'static str)> = (0..k).map(|_| self.data_stmt()).collect();
        if body.len() >= 2 && self.rng.random_bool(0.15) {
            let at = self.rng.random_range(0..body.len() - 1);
            let back = self.rng.random_range(at + 1..body.len());
            body.insert(back + 1, (Stmt::RollbackTo("sp1".into()), "rollback-to"));
            body.insert(at + 1, (Stmt::Savepoint("sp1".into()), "savepoint"));
        }
        body
    }

    /// Randomly picks a transaction and appends its first unchosen statement, until all are
    /// chosen (paper 001 §5.2). Transaction `i` runs on session `t{i+1}`.
    fn submitted_order(
        &mut self,
        txns: Vec<Vec<(Stmt, &'static str)>>,
    ) -> (Vec<Step>, Vec<&'static str>) {
        let mut next = vec![0; txns.len()];
        let mut steps = Vec::new();
        let mut kinds = Vec::new();
        loop {
            let open: Vec<usize> = (0..txns.len())
                .filter(|&i| next[i] < txns[i].len())
                .collect();
            if open.is_empty() {
                return (steps, kinds);
            }
            let i = open[self.rng.random_range(0..open.len())];
            let (stmt, kind) = &txns[i][next[i]];
            next[i] += 1;
            steps.push(Step {
                session: format!("t{}", i + 1),
                stmt: txhunt_model::Stmt::new(render(stmt, self.dialect)),
            });
            kinds.push(*kind);
        }
    }
}
