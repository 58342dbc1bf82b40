//! Defaults and samples checked against their types and constraints.

use super::*;

/// Checks a JSON value (a default or a sample) against a type and constraints.
pub(super) struct ValueChecker<'a> {
    pub(super) types: &'a BTreeMap<String, TypeDef>,
}

impl ValueChecker<'_> {
    pub(super) fn check(&self, value: &Value, ty: &TypeRef, c: &Constraints, at: &str) -> Result<(), String> {
        let here = if at.is_empty() { String::new() } else { format!(" at {at}") };
        let wrong = |expected: &str| Err(format!("expected {expected}{here}, found {value}"));
        match (ty, value) {
            (TypeRef::Json, _) => Ok(()),
            (TypeRef::Bytes | TypeRef::File, _) => Err(format!("bytes and files have no sample value{here}")),
            (TypeRef::Url, Value::String(s)) if !crate::model::is_absolute_url(s) => {
                Err(format!("`{s}` is not an absolute URL{here}"))
            }
            (TypeRef::String | TypeRef::Url, Value::String(s)) => check_string(s, c, &here),
            (TypeRef::DateTime, Value::String(s)) => {
                if is_rfc3339(s) {
                    Ok(())
                } else {
                    Err(format!("`{s}` is not an RFC 3339 date-time{here}"))
                }
            }
            (TypeRef::Integer, Value::Number(n)) if n.is_i64() => check_range(n, c, &here),
            (TypeRef::Number, Value::Number(n)) => check_range(n, c, &here),
            (TypeRef::Boolean, Value::Bool(_)) => Ok(()),
            (TypeRef::List(inner), Value::Array(items)) => {
                check_items(items.len(), c, &here)?;
                check_unique(items, c, &here)?;
                let item_constraints = c.item.as_deref().cloned().unwrap_or_default();
                for (i, item) in items.iter().enumerate() {
                    self.check(item, inner, &item_constraints, &format!("{at}/{i}"))?;
                }
                Ok(())
            }
            (TypeRef::Map(inner), Value::Object(map)) => {
                check_items(map.len(), c, &here)?;
                let value_constraints = c.item.as_deref().cloned().unwrap_or_default();
                for (key, item) in map {
                    self.check(item, inner, &value_constraints, &format!("{at}/{key}"))?;
                }
                Ok(())
            }
            (TypeRef::Named(name), _) => self.check_named(value, name, c, at, &here),
            (TypeRef::String | TypeRef::Url | TypeRef::DateTime, _) => wrong("a string"),
            (TypeRef::Integer, _) => wrong("an integer"),
            (TypeRef::Number, _) => wrong("a number"),
            (TypeRef::Boolean, _) => wrong("a boolean"),
            (TypeRef::List(_), _) => wrong("a list"),
            (TypeRef::Map(_), _) => wrong("an object"),
        }
    }

    pub(super) fn check_named(
        &self,
        value: &Value,
        name: &str,
        c: &Constraints,
        at: &str,
        here: &str,
    ) -> Result<(), String> {
        match (&self.types[name].kind, value) {
            (TypeKind::Enum(e), Value::Number(n)) if e.integer => {
                let text = n.to_string();
                if !e.open && !e.values.iter().any(|v| v.wire == text) {
                    return Err(format!("`{text}` is not a value of `{name}`{here}"));
                }
                if n.as_i64().is_none() {
                    return Err(format!("expected an integer{here}, found {value}"));
                }
                Ok(())
            }
            (TypeKind::Enum(e), _) if e.integer => Err(format!("expected an integer{here}, found {value}")),
            (TypeKind::Enum(e), Value::String(s)) => {
                if !e.open && !e.values.iter().any(|v| &v.wire == s) {
                    return Err(format!("`{s}` is not a value of `{name}`{here}"));
                }
                check_string(s, c, here)
            }
            (TypeKind::Object(o), Value::Object(map)) => {
                for field in &o.fields {
                    match map.get(&field.wire) {
                        None if !field.optional => {
                            return Err(format!("the field `{}` is missing{here}", field.wire));
                        }
                        None => {}
                        Some(Value::Null) if field.nullable => {}
                        Some(v) => {
                            if let Some(constant) = &field.constant
                                && v.as_str() != Some(constant)
                            {
                                return Err(format!("`{}` must be `{constant}`{here}", field.wire));
                            }
                            self.check(v, &field.ty, &field.constraints, &format!("{at}/{}", field.wire))?;
                        }
                    }
                }
                for (key, v) in map {
                    if o.field(key).is_none() {
                        match &o.additional {
                            Some(ty) => self.check(v, ty, &Constraints::default(), &format!("{at}/{key}"))?,
                            None => return Err(format!("`{name}` has no field `{key}`{here}")),
                        }
                    }
                }
                Ok(())
            }
            (TypeKind::Union(u), _) => {
                let mut reasons = Vec::new();
                for variant in &u.variants {
                    match self.check(value, &variant.ty, &Constraints::default(), at) {
                        Ok(()) => return Ok(()),
                        Err(reason) => reasons.push(format!("{}: {reason}", variant.ty)),
                    }
                }
                if u.open && value.is_object() {
                    return Ok(());
                }
                Err(format!("no variant of `{name}` fits{here} ({})", reasons.join("; ")))
            }
            (TypeKind::Enum(_), _) => Err(format!("expected a string{here}, found {value}")),
            (TypeKind::Object(_), _) => Err(format!("expected an object{here}, found {value}")),
        }
    }
}

pub(super) fn check_string(s: &str, c: &Constraints, here: &str) -> Result<(), String> {
    let len = s.chars().count() as u64;
    if let Some(min) = c.min_length
        && len < min
    {
        return Err(format!("`{s}` is shorter than {min} characters{here}"));
    }
    if let Some(max) = c.max_length
        && len > max
    {
        return Err(format!("`{s}` is longer than {max} characters{here}"));
    }
    if let Some(pattern) = &c.pattern
        && let Ok(engine) = crate::model::pattern::Engine::compile(pattern)
        && !engine.is_match(s)
    {
        return Err(format!("`{s}` does not match `{pattern}`{here}"));
    }
    if let Some(format) = c.format.filter(|f| !f.accepts(s)) {
        return Err(format!("`{s}` is not a valid {}{here}", format.as_str()));
    }
    Ok(())
}

pub(super) fn check_range(n: &Number, c: &Constraints, here: &str) -> Result<(), String> {
    let v = n.as_f64().unwrap_or(f64::NAN);
    if c.minimum.as_ref().and_then(Number::as_f64).is_some_and(|min| v < min) {
        return Err(format!("{n} is below the minimum{here}"));
    }
    if c.maximum.as_ref().and_then(Number::as_f64).is_some_and(|max| v > max) {
        return Err(format!("{n} is above the maximum{here}"));
    }
    Ok(())
}

pub(super) fn check_items(len: usize, c: &Constraints, here: &str) -> Result<(), String> {
    let len = len as u64;
    let fits = c.min_items.is_none_or(|m| len >= m)
        && c.max_items.is_none_or(|m| len <= m)
        && c.exact_items.is_none_or(|m| len == m);
    if fits { Ok(()) } else { Err(format!("{len} items do not fit the item count{here}")) }
}

/// A list of `unique_items` repeats no item.
fn check_unique(items: &[Value], c: &Constraints, here: &str) -> Result<(), String> {
    let repeat =
        (1..items.len()).find_map(|i| items[..i].iter().position(|seen| *seen == items[i]).map(|first| (first, i)));
    match repeat.filter(|_| c.unique_items) {
        Some((first, i)) => Err(format!("item {i} repeats item {first}, and the items must be unique{here}")),
        None => Ok(()),
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, the form RFC 3339 gives.
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| b.get(range.clone()).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let fixed = b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !fixed {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest.as_bytes() {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()),
        _ => false,
    }
}
