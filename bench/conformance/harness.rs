//! Calls every operation of a generated client once with the spec's samples against the base
//! URL given, each with a 60 s deadline (Prism's json-schema-faker takes over 20 s to invent a
//! large answer on a loaded machine: groundstation's `listEphemerides` took 22 s, its request
//! valid), and prints one line per call:
//! `operation<TAB>outcome<TAB>status<TAB>message` (bench/conformance.sh classifies them).

use std::time::Duration;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let base_url = std::env::args().nth(1).expect("the base URL");
    let client = match __CLIENT__::samples::client(&base_url) {
        Ok(client) => client,
        Err(error) => {
            println!("*\tclient\t0\t{}", one_line(&error.to_string()));
            return;
        }
    };
    for (name, call) in __CLIENT__::samples::calls(&client) {
        let line = match tokio::time::timeout(Duration::from_secs(60), call).await {
            Err(_) => "hung\t0\t".to_owned(),
            Ok(Ok(_)) => "ok\t0\t".to_owned(),
            Ok(Err(error)) => {
                let kind = match &error {
                    __CLIENT__::Error::Api { .. } => "api",
                    __CLIENT__::Error::Decode { .. } => "decode",
                    __CLIENT__::Error::Transport(_) => "transport",
                    _ => "other",
                };
                let status = error.status().unwrap_or(0);
                // Prism answers a request it refuses with the document's own error response when
                // there is one, naming the violations in `sl-violations`.
                let detail = match &error {
                    __CLIENT__::Error::Api { body, headers, .. } => match headers.get("sl-violations") {
                        Some(violations) => format!("sl-violations: {}", String::from_utf8_lossy(violations.as_bytes())),
                        None => body.clone(),
                    },
                    other => other.to_string(),
                };
                format!("{kind}\t{status}\t{}", one_line(&detail))
            }
        };
        println!("{name}\t{line}");
    }
}

fn one_line(text: &str) -> String {
    let flat: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    flat.chars().take(8000).collect()
}
