//! What each column of the tables holds, so that a loader reads every run with the same types:
//! whole numbers (counts, indexes and 0/1 flags), numbers with a fraction (margins, komi,
//! leads, shares), and text (names, SGF points, the record's own properties as written).

/// The type of a column's values. An empty field is a missing value of that type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Float,
    Text,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Text => "text",
        }
    }

    /// What a value of the type is, for messages.
    pub fn described(self) -> &'static str {
        match self {
            Kind::Int => "a whole number",
            Kind::Float => "a number",
            Kind::Text => "text",
        }
    }
}

/// A column: its name and the type of its values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
}

pub const fn int(name: &'static str) -> Field {
    Field {
        name,
        kind: Kind::Int,
    }
}

pub const fn float(name: &'static str) -> Field {
    Field {
        name,
        kind: Kind::Float,
    }
}

pub const fn text(name: &'static str) -> Field {
    Field {
        name,
        kind: Kind::Text,
    }
}

/// What a table's rows are written from: `Line<'a>`, borrowed from a file's analysis.
pub trait Lines {
    type Line<'a>;
}

/// One column of a table written from lines of `L`: its name, its type, and the writer of
/// its one field. A table is a list of these, declared once: the header, the types a loader
/// reads, and the order of a row's fields all come from it.
pub struct Column<L: Lines> {
    pub name: &'static str,
    pub kind: Kind,
    pub write: for<'a> fn(&mut super::Table, &L::Line<'a>),
}

impl<L: Lines> Column<L> {
    pub const fn field(&self) -> Field {
        Field {
            name: self.name,
            kind: self.kind,
        }
    }
}

/// The fields of a table's columns, in order.
pub fn fields<L: Lines>(columns: &[Column<L>]) -> Vec<Field> {
    columns.iter().map(Column::field).collect()
}

/// Writes one row of `line` through every column of `columns`.
pub fn write_row<L: Lines>(
    t: &mut super::Table,
    columns: &[Column<L>],
    line: &L::Line<'_>,
) -> std::io::Result<()> {
    for c in columns {
        (c.write)(t, line);
    }
    t.end_row()
}

/// A column of the table whose lines `$lines` describes (its line type `$line`): its name,
/// its type, and an expression of `$t: &mut Table` and `$l: &$line` that writes exactly one
/// field; or its name, a writer `fn(&mut Table, &$line, X)` and its `X`.
macro_rules! col {
    ($lines:ty, $line:ty; $name:literal: $kind:ident, $write:ident, $arg:expr) => {
        $crate::sink::schema::Column::<$lines> {
            name: $name,
            kind: $crate::sink::schema::Kind::$kind,
            write: |t: &mut $crate::sink::Table, l: &$line| $write(t, l, $arg),
        }
    };
    ($lines:ty, $line:ty; $name:literal: $kind:ident, |$t:ident, $l:ident| $body:expr) => {
        $crate::sink::schema::Column::<$lines> {
            name: $name,
            kind: $crate::sink::schema::Kind::$kind,
            write: |$t: &mut $crate::sink::Table, $l: &$line| {
                $body;
            },
        }
    };
}
pub(crate) use col;

/// The names of `fields`, in order: a table's header.
pub fn names(fields: &[Field]) -> Vec<&'static str> {
    fields.iter().map(|f| f.name).collect()
}
