//! txhunt's small SQL AST: the statements its generators build, rendered per dialect by
//! [`crate::render()`].

use txhunt_model::Value;

/// A column type, chosen among those every dialect has in some spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SqlType {
    /// 32-bit integer.
    Int,
    /// 64-bit integer.
    BigInt,
    /// Exact decimal with this precision and scale.
    Decimal {
        /// Total digits.
        precision: u8,
        /// Digits after the point.
        scale: u8,
    },
    /// Double-precision float.
    Double,
    /// Variable-length string of at most this many characters.
    Varchar(u16),
    /// Unbounded text.
    Text,
    /// Boolean (rendered as an integer type where the dialect has none).
    Boolean,
}

impl SqlType {
    /// Whether values of this type are numbers (so arithmetic and ordering apply).
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            SqlType::Int | SqlType::BigInt | SqlType::Decimal { .. } | SqlType::Double
        )
    }

    /// Whether values of this type are strings.
    pub fn is_text(self) -> bool {
        matches!(self, SqlType::Varchar(_) | SqlType::Text)
    }
}

/// A column definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: SqlType,
    /// NOT NULL.
    pub not_null: bool,
    /// UNIQUE.
    pub unique: bool,
    /// DEFAULT value.
    pub default: Option<Value>,
    /// CHECK constraint on the column.
    pub check: Option<Expr>,
}

/// A foreign key from some columns of a table to another table's primary key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKey {
    /// The referencing columns.
    pub columns: Vec<String>,
    /// The referenced table.
    pub table: String,
    /// The referenced columns (its primary key).
    pub references: Vec<String>,
}

/// A table definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Its columns, in order.
    pub columns: Vec<Column>,
    /// The primary key's columns (empty: none).
    pub primary_key: Vec<String>,
    /// An optional foreign key.
    pub foreign_key: Option<ForeignKey>,
}

impl Table {
    /// The column named `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// Its name.
    pub name: String,
    /// The indexed table.
    pub table: String,
    /// The indexed columns.
    pub columns: Vec<String>,
    /// UNIQUE index.
    pub unique: bool,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `AND`
    And,
    /// `OR`
    Or,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
}

/// Functions every dialect has under the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    /// `ABS(x)`
    Abs,
    /// `COALESCE(x, y)`
    Coalesce,
    /// `LENGTH(s)`
    Length,
    /// `LOWER(s)`
    Lower,
    /// `UPPER(s)`
    Upper,
}

/// Aggregates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agg {
    /// `COUNT(x)`
    Count,
    /// `SUM(x)`
    Sum,
    /// `MIN(x)`
    Min,
    /// `MAX(x)`
    Max,
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A column, optionally qualified by its table.
    Column {
        /// The table, when qualified.
        table: Option<String>,
        /// The column.
        name: String,
    },
    /// A literal.
    Literal(Value),
    /// `left op right`.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        left: Box<Expr>,
        /// Right operand.
        right: Box<Expr>,
    },
    /// `NOT e`.
    Not(Box<Expr>),
    /// `e IS [NOT] NULL`.
    IsNull {
        /// The operand.
        expr: Box<Expr>,
        /// `IS NOT NULL`.
        negated: bool,
    },
    /// `e BETWEEN low AND high`.
    Between {
        /// The operand.
        expr: Box<Expr>,
        /// Lower bound.
        low: Box<Expr>,
        /// Upper bound.
        high: Box<Expr>,
    },
    /// `e IN (list)`.
    InList {
        /// The operand.
        expr: Box<Expr>,
        /// The candidates.
        list: Vec<Expr>,
    },
    /// `e IN (SELECT …)`.
    InSubquery {
        /// The operand.
        expr: Box<Expr>,
        /// The subquery (one column).
        query: Box<Select>,
    },
    /// `f(args)`.
    Func {
        /// The function.
        func: Func,
        /// Its arguments.
        args: Vec<Expr>,
    },
}

impl Expr {
    /// An unqualified column.
    pub fn col(name: &str) -> Expr {
        Expr::Column {
            table: None,
            name: name.to_string(),
        }
    }

    /// A literal.
    pub fn lit(value: Value) -> Expr {
        Expr::Literal(value)
    }

    /// `self op right`.
    pub fn binary(self, op: BinOp, right: Expr) -> Expr {
        Expr::Binary {
            op,
            left: Box::new(self),
            right: Box::new(right),
        }
    }
}

/// A row-locking clause of a SELECT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// `FOR UPDATE`.
    Update,
    /// `FOR SHARE` / `LOCK IN SHARE MODE`.
    Share,
}

/// One item of a SELECT list.
#[derive(Debug, Clone, PartialEq)]
pub enum SelectItem {
    /// `*`.
    Star,
    /// An expression.
    Expr(Expr),
    /// `COUNT(*)`.
    CountStar,
    /// An aggregate of an expression.
    Agg(Agg, Expr),
}

/// `JOIN table ON condition`.
#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    /// The joined table.
    pub table: String,
    /// The join condition.
    pub on: Expr,
}

/// A SELECT.
#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    /// The select list.
    pub items: Vec<SelectItem>,
    /// The first table.
    pub from: String,
    /// An optional inner join.
    pub join: Option<Join>,
    /// WHERE.
    pub filter: Option<Expr>,
    /// GROUP BY.
    pub group_by: Vec<Expr>,
    /// FOR UPDATE / FOR SHARE.
    pub lock: Option<Lock>,
}

/// What an INSERT does when a row conflicts with a unique key.
#[derive(Debug, Clone, PartialEq)]
pub enum Conflict {
    /// Fails (plain INSERT).
    Fail,
    /// Skips the row (`INSERT IGNORE`, `ON CONFLICT DO NOTHING`, `INSERT OR IGNORE`).
    Ignore,
    /// Updates the existing row (`ON DUPLICATE KEY UPDATE`, `ON CONFLICT (key) DO UPDATE`).
    Update {
        /// The unique key the conflict is on (PostgreSQL names it).
        key: Vec<String>,
        /// `column = expression` pairs.
        set: Vec<(String, Expr)>,
    },
    /// Replaces the existing row (`REPLACE`, `INSERT OR REPLACE`).
    Replace,
}

/// An INSERT.
#[derive(Debug, Clone, PartialEq)]
pub struct Insert {
    /// The table.
    pub table: String,
    /// The columns given values.
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<Expr>>,
    /// Conflict handling.
    pub conflict: Conflict,
}

/// An UPDATE.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// The table.
    pub table: String,
    /// `column = expression` pairs.
    pub set: Vec<(String, Expr)>,
    /// WHERE.
    pub filter: Option<Expr>,
}

/// A DELETE.
#[derive(Debug, Clone, PartialEq)]
pub struct Delete {
    /// The table.
    pub table: String,
    /// WHERE.
    pub filter: Option<Expr>,
}

/// A statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// CREATE TABLE.
    CreateTable(Table),
    /// CREATE INDEX.
    CreateIndex(Index),
    /// SELECT.
    Select(Select),
    /// INSERT (and its conflict variants).
    Insert(Insert),
    /// UPDATE.
    Update(Update),
    /// DELETE.
    Delete(Delete),
    /// BEGIN.
    Begin,
    /// COMMIT.
    Commit,
    /// ROLLBACK.
    Rollback,
    /// SAVEPOINT name.
    Savepoint(String),
    /// ROLLBACK TO SAVEPOINT name.
    RollbackTo(String),
}
