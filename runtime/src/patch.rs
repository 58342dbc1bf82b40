//! [`Patch`]: a request field that may be absent, null or a value, each meaning something.

/// A field of a request body that is optional and nullable, where "omitted leaves it
/// unchanged, null removes it": absent, null and a value are three different requests.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Patch<T> {
    /// Not sent: leave the current value unchanged.
    #[default]
    Absent,
    /// Sent as `null`: remove the current value.
    Null,
    /// Sent with a value: set it.
    Value(T),
}

impl<T> Patch<T> {
    /// True when the field is not sent.
    pub fn is_absent(&self) -> bool {
        matches!(self, Patch::Absent)
    }

    /// True when the field is sent as `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Patch::Null)
    }

    /// The value, when one is set.
    pub fn value(&self) -> Option<&T> {
        match self {
            Patch::Value(value) => Some(value),
            _ => None,
        }
    }

    /// Borrows the value.
    pub fn as_ref(&self) -> Patch<&T> {
        match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Value(value) => Patch::Value(value),
        }
    }

    /// `None` when absent, `Some(None)` when null, `Some(Some(value))` when set.
    pub fn into_option(self) -> Option<Option<T>> {
        match self {
            Patch::Absent => None,
            Patch::Null => Some(None),
            Patch::Value(value) => Some(Some(value)),
        }
    }
}

impl<T> From<Option<T>> for Patch<T> {
    /// `Some(value)` sets the value; `None` removes it (sends `null`).
    fn from(value: Option<T>) -> Self {
        match value {
            Some(value) => Patch::Value(value),
            None => Patch::Null,
        }
    }
}

impl<T: serde::Serialize> serde::Serialize for Patch<T> {
    /// Standing alone, absent and null both serialize as `null`; inside a generated object an
    /// absent field is not written at all.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Patch::Value(value) => value.serialize(serializer),
            Patch::Absent | Patch::Null => serializer.serialize_unit(),
        }
    }
}
