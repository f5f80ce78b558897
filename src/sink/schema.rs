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

/// The names of `fields`, in order: a table's header.
pub fn names(fields: &[Field]) -> Vec<&'static str> {
    fields.iter().map(|f| f.name).collect()
}
