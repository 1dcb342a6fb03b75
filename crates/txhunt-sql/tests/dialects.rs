//! The same AST rendered for each dialect: the text is what each dialect spells, and each real
//! DBMS accepts and runs it.

use txhunt_db::{open_target, SessionConfig};
use txhunt_model::{Outcome, Value};
use txhunt_sql::ast::{
    Agg, BinOp, Column, Conflict, Delete, Expr, ForeignKey, Func, Index, Insert, Join, Lock,
    Select, SelectItem, SqlType, Stmt, Table, Update,
};
use txhunt_sql::dialect::{Mysql, Postgres, Sqlite};
use txhunt_sql::{render, Dialect, Feature};

fn column(name: &str, ty: SqlType) -> Column {
    Column {
        name: name.into(),
        ty,
        not_null: false,
        unique: false,
        default: None,
        check: None,
    }
}

fn schema() -> Vec<Stmt> {
    let mut c0 = column("c0", SqlType::Int);
    c0.not_null = true;
    let mut c1 = column("c1", SqlType::Varchar(10));
    c1.unique = true;
    c1.default = Some(Value::Text("a".into()));
    let mut c2 = column(
        "c2",
        SqlType::Decimal {
            precision: 6,
            scale: 2,
        },
    );
    c2.check = Some(Expr::col("c2").binary(BinOp::Ge, Expr::lit(Value::Int(0))));
    let t0 = Table {
        name: "t0".into(),
        columns: vec![
            c0,
            c1,
            c2,
            column("c3", SqlType::Boolean),
            column("c4", SqlType::Double),
        ],
        primary_key: vec!["c0".into()],
        foreign_key: None,
    };
    let t1 = Table {
        name: "t1".into(),
        columns: vec![
            column("d0", SqlType::BigInt),
            column("d1", SqlType::Int),
            column("d2", SqlType::Text),
        ],
        primary_key: vec!["d0".into()],
        foreign_key: Some(ForeignKey {
            columns: vec!["d1".into()],
            table: "t0".into(),
            references: vec!["c0".into()],
        }),
    };
    vec![
        Stmt::CreateTable(t0),
        Stmt::CreateTable(t1),
        Stmt::CreateIndex(Index {
            name: "i0".into(),
            table: "t0".into(),
            columns: vec!["c4".into(), "c2".into()],
            unique: false,
        }),
    ]
}

fn lit(v: i64) -> Expr {
    Expr::lit(Value::Int(v))
}

fn row(k: i64, s: &str) -> Vec<Expr> {
    vec![
        lit(k),
        Expr::lit(Value::Text(s.into())),
        Expr::lit(Value::Decimal("1.50".into())),
        Expr::lit(Value::Bool(true)),
        Expr::lit(Value::Null),
    ]
}

fn insert(rows: Vec<Vec<Expr>>, conflict: Conflict) -> Stmt {
    Stmt::Insert(Insert {
        table: "t0".into(),
        columns: vec![
            "c0".into(),
            "c1".into(),
            "c2".into(),
            "c3".into(),
            "c4".into(),
        ],
        rows,
        conflict,
    })
}

fn select(lock: Option<Lock>) -> Select {
    Select {
        items: vec![SelectItem::Star],
        from: "t0".into(),
        join: None,
        filter: Some(Expr::Between {
            expr: Box::new(Expr::col("c0")),
            low: Box::new(lit(1)),
            high: Box::new(lit(3)),
        }),
        group_by: vec![],
        lock,
    }
}

/// Statements using every feature the dialect has, in an order that makes them succeed.
fn workload(d: &dyn Dialect) -> Vec<Stmt> {
    let mut stmts = schema();
    stmts.push(insert(
        vec![row(1, "x"), row(2, "y"), row(3, "z")],
        Conflict::Fail,
    ));
    if d.supports(Feature::InsertIgnore) {
        stmts.push(insert(vec![row(1, "x")], Conflict::Ignore));
    }
    if d.supports(Feature::Upsert) {
        stmts.push(insert(
            vec![row(2, "y")],
            Conflict::Update {
                key: vec!["c0".into()],
                set: vec![("c4".into(), Expr::lit(Value::Float(2.5)))],
            },
        ));
    }
    if d.supports(Feature::Replace) {
        stmts.push(insert(vec![row(3, "w")], Conflict::Replace));
    }
    stmts.push(Stmt::Insert(Insert {
        table: "t1".into(),
        columns: vec!["d0".into(), "d1".into(), "d2".into()],
        rows: vec![vec![lit(10), lit(1), Expr::lit(Value::Text("it's".into()))]],
        conflict: Conflict::Fail,
    }));
    stmts.push(Stmt::Begin);
    stmts.push(Stmt::Select(select(None)));
    for (feature, lock) in [
        (Feature::ForUpdate, Lock::Update),
        (Feature::ForShare, Lock::Share),
    ] {
        if d.supports(feature) {
            stmts.push(Stmt::Select(select(Some(lock))));
        }
    }
    stmts.push(Stmt::Savepoint("sp1".into()));
    stmts.push(Stmt::Select(Select {
        items: vec![
            SelectItem::Expr(Expr::Column {
                table: Some("t0".into()),
                name: "c1".into(),
            }),
            SelectItem::CountStar,
            SelectItem::Agg(Agg::Max, Expr::col("d0")),
        ],
        from: "t0".into(),
        join: Some(Join {
            table: "t1".into(),
            on: Expr::col("c0").binary(BinOp::Eq, Expr::col("d1")),
        }),
        filter: Some(Expr::Not(Box::new(Expr::IsNull {
            expr: Box::new(Expr::Func {
                func: Func::Upper,
                args: vec![Expr::col("d2")],
            }),
            negated: false,
        }))),
        group_by: vec![Expr::Column {
            table: Some("t0".into()),
            name: "c1".into(),
        }],
        lock: None,
    }));
    stmts.push(Stmt::Update(Update {
        table: "t0".into(),
        set: vec![("c2".into(), Expr::col("c2").binary(BinOp::Mul, lit(2)))],
        filter: Some(Expr::InList {
            expr: Box::new(Expr::col("c0")),
            list: vec![lit(2), lit(3)],
        }),
    }));
    stmts.push(Stmt::RollbackTo("sp1".into()));
    stmts.push(Stmt::Delete(Delete {
        table: "t0".into(),
        filter: Some(Expr::InSubquery {
            expr: Box::new(Expr::col("c0")),
            query: Box::new(Select {
                items: vec![SelectItem::Expr(Expr::Func {
                    func: Func::Abs,
                    args: vec![Expr::col("c0").binary(BinOp::Sub, lit(0))],
                })],
                from: "t0".into(),
                join: None,
                filter: Some(Expr::col("c0").binary(BinOp::Gt, lit(2))),
                group_by: vec![],
                lock: None,
            }),
        }),
    }));
    stmts.push(Stmt::Commit);
    stmts
}

#[test]
fn each_dialect_spells_what_differs() {
    let upsert = insert(
        vec![row(2, "y")],
        Conflict::Update {
            key: vec!["c0".into()],
            set: vec![("c1".into(), Expr::lit(Value::Text("q".into())))],
        },
    );
    let tail = "(c0, c1, c2, c3, c4) VALUES (2, 'y', 1.50, ";
    assert_eq!(
        render(&upsert, &Sqlite),
        format!("INSERT INTO t0 {tail}1, NULL) ON CONFLICT (c0) DO UPDATE SET c1 = 'q'")
    );
    assert_eq!(
        render(&upsert, &Mysql),
        format!("INSERT INTO t0 {tail}1, NULL) ON DUPLICATE KEY UPDATE c1 = 'q'")
    );
    assert_eq!(
        render(&upsert, &Postgres),
        format!("INSERT INTO t0 {tail}TRUE, NULL) ON CONFLICT (c0) DO UPDATE SET c1 = 'q'")
    );
    assert_eq!(
        render(&Stmt::Select(select(Some(Lock::Share))), &Mysql),
        "SELECT * FROM t0 WHERE (c0 BETWEEN 1 AND 3) LOCK IN SHARE MODE"
    );
    assert_eq!(
        render(&Stmt::Select(select(Some(Lock::Share))), &Postgres),
        "SELECT * FROM t0 WHERE (c0 BETWEEN 1 AND 3) FOR SHARE"
    );
    assert_eq!(
        render(&insert(vec![row(1, "x")], Conflict::Ignore), &Mysql)
            .split(" t0 ")
            .next(),
        Some("INSERT IGNORE INTO")
    );
    assert_eq!(
        render(&insert(vec![row(1, "x")], Conflict::Replace), &Sqlite)
            .split(" t0 ")
            .next(),
        Some("INSERT OR REPLACE INTO")
    );
    assert_eq!(
        render(&schema()[0], &Postgres),
        "CREATE TABLE t0 (c0 INT NOT NULL, c1 VARCHAR(10) UNIQUE DEFAULT 'a', c2 DECIMAL(6, 2) CHECK ((c2 >= 0)), c3 BOOLEAN, c4 DOUBLE PRECISION, PRIMARY KEY (c0))"
    );
}

fn runs_cleanly(target_name: &str, dialect: &dyn Dialect) {
    let target = open_target(target_name, None)
        .unwrap_or_else(|e| panic!("the {target_name} target must open for this test: {e}"));
    let db = target.create_database().expect("fresh database");
    let config = SessionConfig {
        isolation: target.profile().default_isolation(),
        mode: None,
    };
    let mut conn = db.connect(config, None).expect("session");
    for stmt in workload(dialect) {
        let sql = render(&stmt, dialect);
        let outcome = conn.execute(&sql);
        assert!(
            !matches!(outcome, Outcome::Error(_)),
            "{target_name} rejects `{sql}`: {outcome}"
        );
    }
    let state = db.final_state().expect("final state");
    assert_eq!(state.table("t0").map(<[_]>::len), Some(2), "{state}");
}

#[test]
fn sqlite_runs_every_rendered_statement() {
    runs_cleanly("sqlite", &Sqlite);
}

#[test]
fn mariadb_runs_every_rendered_statement() {
    runs_cleanly("mariadb", &Mysql);
}

#[test]
fn postgres_runs_every_rendered_statement() {
    runs_cleanly("postgres", &Postgres);
}
