//! String formats a spec names (OpenAPI's `format`): what a value of each must look like.
//! The generated server and client check values by these rules, and the generator checks a
//! spec's own samples and defaults by them (it compiles this file in for that).

/// A string format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `2024-01-15` (RFC 3339 `full-date`).
    Date,
    /// `09:30:00`, with a fraction and an offset when given (RFC 3339 `partial-time` or
    /// `full-time`).
    Time,
    /// `0b1a44b8-6a0f-4a07-9d7e-3f0c1e3e2a6b`: 32 hex digits in groups of 8-4-4-4-12.
    Uuid,
    /// `user@example.com`: a local part, `@`, a domain with a dot; no space.
    Email,
    /// `api.example.com`: labels of letters, digits and `-`, each 1 to 63 long, at most 253.
    Hostname,
    /// `192.0.2.1`.
    Ipv4,
    /// `2001:db8::1`.
    Ipv6,
    /// Base64 (`c2FtcGxl`): its alphabet, padded to a multiple of 4.
    Byte,
}

impl Format {
    /// Every format, in the order the docs list them.
    pub const ALL: [Format; 8] = [
        Format::Date,
        Format::Time,
        Format::Uuid,
        Format::Email,
        Format::Hostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Byte,
    ];

    /// The format OpenAPI names `name`, if it is one of these.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// A value of this format, for samples.
    pub fn sample(self) -> &'static str {
        match self {
            Format::Date => "2024-01-15",
            Format::Time => "09:30:00Z",
            Format::Uuid => "0b1a44b8-6a0f-4a07-9d7e-3f0c1e3e2a6b",
            Format::Email => "user@example.com",
            Format::Hostname => "api.example.com",
            Format::Ipv4 => "192.0.2.1",
            Format::Ipv6 => "2001:db8::1",
            Format::Byte => "c2FtcGxl",
        }
    }

    /// The name OpenAPI gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::Time => "time",
            Format::Uuid => "uuid",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Byte => "byte",
        }
    }

    /// True when `value` has this format.
    pub fn accepts(self, value: &str) -> bool {
        match self {
            Format::Date => is_date(value),
            Format::Time => is_time(value),
            Format::Uuid => is_uuid(value),
            Format::Email => is_email(value),
            Format::Hostname => is_hostname(value),
            Format::Ipv4 => value.parse::<std::net::Ipv4Addr>().is_ok(),
            Format::Ipv6 => value.parse::<std::net::Ipv6Addr>().is_ok(),
            Format::Byte => is_base64(value),
        }
    }
}

fn digits(text: &str, count: usize) -> Option<u32> {
    (text.len() == count && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

fn is_date(value: &str) -> bool {
    let mut parts = value.split('-');
    let (Some(year), Some(month), Some(day), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) = (digits(year, 4), digits(month, 2), digits(day, 2)) else {
        return false;
    };
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn is_time(value: &str) -> bool {
    // An offset (`Z`, `+02:00`) may follow; a fraction may follow the seconds.
    let (clock, offset) = match value.find(['Z', 'z', '+', '-']) {
        Some(at) => value.split_at(at),
        None => (value, ""),
    };
    let offset_ok = match offset {
        "" | "Z" | "z" => true,
        sign_and_rest => {
            let rest = &sign_and_rest[1..];
            rest.split_once(':')
                .is_some_and(|(h, m)| digits(h, 2).is_some_and(|h| h < 24) && digits(m, 2).is_some_and(|m| m < 60))
        }
    };
    let (clock, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let mut parts = clock.split(':');
    let (Some(h), Some(m), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    offset_ok
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && digits(h, 2).is_some_and(|h| h < 24)
        && digits(m, 2).is_some_and(|m| m < 60)
        && digits(s, 2).is_some_and(|s| s < 61)
}

fn is_uuid(value: &str) -> bool {
    let groups: Vec<&str> = value.split('-').collect();
    groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.rsplit_once('@') else { return false };
    !local.is_empty()
        && !value.chars().any(|c| c.is_whitespace() || c.is_control())
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
}

fn is_hostname(value: &str) -> bool {
    let value = value.strip_suffix('.').unwrap_or(value);
    !value.is_empty()
        && value.len() <= 253
        && value.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

fn is_base64(value: &str) -> bool {
    let body = value.trim_end_matches('=');
    value.len().is_multiple_of(4)
        && value.len() - body.len() <= 2
        && body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// An absolute URI (RFC 3986, JSON Schema's `uri`): a scheme (`[a-zA-Z][a-zA-Z0-9+.-]*`),
/// `:`, something after it, and only characters a URI holds: ASCII, no white space, none of
/// `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}` (percent-encoded in a URI; a template's
/// `{id}` is not one).
pub fn is_absolute_url(value: &str) -> bool {
    let Some((scheme, rest)) = value.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let uri_char = |c: char| c.is_ascii_graphic() && !matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}');
    scheme_ok && !rest.is_empty() && value.chars().all(uri_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absolute_url_has_a_scheme_and_only_the_characters_of_a_uri() {
        for good in ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@b.c", "https://x/%7Bid%7D"] {
            assert!(is_absolute_url(good), "{good}");
        }
        for bad in ["/relative", "https://x/{id}", "https://x/a b", "https://x/é", "1x:y", "https:", "x|y:z"] {
            assert!(!is_absolute_url(bad), "{bad}");
        }
    }

    #[test]
    fn each_format_accepts_its_values_and_refuses_others() {
        let cases: &[(Format, &[&str], &[&str])] = &[
            (Format::Date, &["2024-01-15", "2024-02-29"], &["2023-02-29", "2024-1-15", "2024-13-01", "x"]),
            (Format::Time, &["09:30:00", "23:59:60.5Z", "09:30:00+02:00"], &["9:30:00", "24:00:00", "09:30"]),
            (Format::Uuid, &["0b1a44b8-6a0f-4a07-9d7e-3f0c1e3e2a6b"], &["0b1a44b86a0f4a079d7e3f0c1e3e2a6b", "x"]),
            (Format::Email, &["user@example.com"], &["user", "us er@example.com", "user@example", "@x.y"]),
            (Format::Hostname, &["api.example.com", "localhost"], &["-a.com", "a..b", ""]),
            (Format::Ipv4, &["192.0.2.1"], &["192.0.2", "256.0.0.1"]),
            (Format::Ipv6, &["2001:db8::1", "::1"], &["2001:db8:::1", "x"]),
            (Format::Byte, &["c2FtcGxl", "YQ==", ""], &["YQ=", "a b c d", "Y==="]),
        ];
        for format in Format::ALL {
            assert!(format.accepts(format.sample()), "{}'s sample", format.as_str());
            assert_eq!(Format::parse(format.as_str()), Some(format));
        }
        for (format, good, bad) in cases {
            for value in *good {
                assert!(format.accepts(value), "{value:?} is a {}", format.as_str());
            }
            for value in *bad {
                assert!(!format.accepts(value), "{value:?} is not a {}", format.as_str());
            }
        }
    }
}
