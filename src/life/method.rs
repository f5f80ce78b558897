//! The life methods the tables compare, as a type: columns, sums and the report name them
//! through `Method`, never through positions in an array.

use std::ops::{Index, IndexMut};

use super::BlockVerdict;

/// A way of deciding that a block lives (life-spec.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    /// Benson's unconditional life: the criterion the others are compared with.
    Benson,
    /// The published procedure of Müller-Prove (1995).
    Mp95,
    /// The fixpoint reading of its Definition 11.
    Mpfix,
    /// `mp95` with big own eyes credited by the paper's Tab. 2.
    Mp95Eyes,
    /// `mpfix` with big own eyes credited.
    MpfixEyes,
}

impl Method {
    /// Every method, in the order the tables write them.
    pub const ALL: [Method; 5] = [
        Method::Benson,
        Method::Mp95,
        Method::Mpfix,
        Method::Mp95Eyes,
        Method::MpfixEyes,
    ];

    /// The method's name in column names and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Method::Benson => "benson",
            Method::Mp95 => "mp95",
            Method::Mpfix => "mpfix",
            Method::Mp95Eyes => "mp95_eyes",
            Method::MpfixEyes => "mpfix_eyes",
        }
    }
}

impl BlockVerdict {
    /// Whether `method` calls the block alive.
    pub fn alive(&self, method: Method) -> bool {
        match method {
            Method::Benson => self.benson,
            Method::Mp95 => self.mp95,
            Method::Mpfix => self.mpfix,
            Method::Mp95Eyes => self.mp95_eyes,
            Method::MpfixEyes => self.mpfix_eyes,
        }
    }
}

/// One value per method.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PerMethod<T>(pub [T; 5]);

impl<T> PerMethod<T> {
    /// The value of every method, from a function of the method.
    pub fn from_fn(mut f: impl FnMut(Method) -> T) -> PerMethod<T> {
        PerMethod(Method::ALL.map(&mut f))
    }

    /// `(method, value)` in table order.
    pub fn iter(&self) -> impl Iterator<Item = (Method, &T)> {
        Method::ALL.into_iter().zip(&self.0)
    }
}

impl<T> Index<Method> for PerMethod<T> {
    type Output = T;
    fn index(&self, m: Method) -> &T {
        &self.0[m as usize]
    }
}

impl<T> IndexMut<Method> for PerMethod<T> {
    fn index_mut(&mut self, m: Method) -> &mut T {
        &mut self.0[m as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_reads_its_own_field() {
        for m in Method::ALL {
            let mut v = BlockVerdict::default();
            match m {
                Method::Benson => v.benson = true,
                Method::Mp95 => v.mp95 = true,
                Method::Mpfix => v.mpfix = true,
                Method::Mp95Eyes => v.mp95_eyes = true,
                Method::MpfixEyes => v.mpfix_eyes = true,
            }
            let alive: Vec<Method> = Method::ALL.into_iter().filter(|&o| v.alive(o)).collect();
            assert_eq!(alive, [m]);
            assert!(PerMethod::from_fn(|o| o == m)[m]);
        }
    }
}
