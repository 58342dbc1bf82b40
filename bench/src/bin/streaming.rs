//! 1 GiB each way through raw (`bytes`) bodies, with the peak memory of each process: a
//! download through the generated client and an upload through the generated server (the
//! files fixture, `tests/fixtures/valid/files`), side by side with a plain reqwest client and
//! a plain axum server doing the same.
//!
//! `streaming` alone runs every case, each in two fresh processes (this binary as `serve` and
//! as `download` / `upload`), and prints one line per case: the throughput and, per process,
//! the resident size once idle (server listening, client built) and the peak (`VmHWM`). A
//! streamed body must leave the peak within a few MiB of the idle size.
//!
//! Usage: `streaming [SIZE_MIB [RUNS]]` (default 1024 MiB, 5 runs per case).

use apigen_runtime::Bytes;
use apigen_runtime::server::axum::{self, Router, body::Body, extract::Path, routing::get};
use futures_util::StreamExt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Chunks of 64 KiB, one buffer shared by every chunk: the bench measures the transport.
const CHUNK: usize = 64 * 1024;

fn chunks(total: u64) -> impl Iterator<Item = Bytes> + Send + Sync + 'static {
    let chunk = Bytes::from(vec![7u8; CHUNK]);
    let count = total / CHUNK as u64;
    std::iter::repeat_n(chunk, count as usize)
}

/// `VmRSS` or `VmHWM` of this process, in KiB.
fn memory_kib(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(key)?.trim_start_matches(':').trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or(0)
}

// ---------------------------------------------------------------- servers

struct Files;

impl files_server::Authenticator for Files {
    type Principal = ();
    async fn authenticate(&self, _: files_server::Credential<'_>) -> Result<(), files_server::ApiError> {
        Ok(())
    }
}

/// The generated router with the two blob operations: an upload counted chunk by chunk, a
/// download streamed from `chunks`.
fn generated_router(total: u64) -> Router {
    let config = files_server::ServerConfig { upload_limit: usize::MAX, ..Default::default() };
    files_server::RouterBuilder::new(Files)
        .with_config(config)
        .put_blob(|_, _, request: files_server::PutBlobRequest| async move {
            let mut body = request.body;
            let mut size = 0;
            while let Some(chunk) = body.next().await {
                size += chunk?.len() as i64;
            }
            Ok(files_server::types::Blob { name: request.name, size, checksum: 0 })
        })
        .get_blob(move |_, _, _| async move {
            let stream = futures_util::stream::iter(chunks(total).map(Ok::<_, std::convert::Infallible>));
            Ok(files_server::Download::stream(stream))
        })
        .build_partial()
}

/// The same two routes written on plain axum.
fn plain_router(total: u64) -> Router {
    let put = |Path(name): Path<String>, body: Body| async move {
        let mut stream = body.into_data_stream();
        let mut size = 0usize;
        while let Some(chunk) = stream.next().await {
            match chunk {
                Ok(chunk) => size += chunk.len(),
                Err(_) => return (axum::http::StatusCode::BAD_REQUEST, String::new()),
            }
        }
        (axum::http::StatusCode::CREATED, format!("{{\"name\":\"{name}\",\"size\":{size},\"checksum\":0}}"))
    };
    let get_blob = move || async move {
        Body::from_stream(futures_util::stream::iter(chunks(total).map(Ok::<_, std::convert::Infallible>)))
    };
    Router::new().route("/blobs/{name}", get(get_blob).put(put))
}

async fn serve(kind: &str, total: u64) {
    let router = match kind {
        "apigen" => generated_router(total),
        _ => plain_router(total),
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.expect("bind");
    println!("listening on {} idle {}", listener.local_addr().expect("bound").port(), memory_kib("VmRSS"));
    // The parent closes stdin when the client is done: report the peak and stop.
    std::thread::spawn(|| {
        let mut rest = Vec::new();
        let _ = std::io::stdin().read_to_end(&mut rest);
        println!("peak {}", memory_kib("VmHWM"));
        std::process::exit(0);
    });
    let _ = apigen_runtime::listener::serve(listener, router, Default::default()).await;
}

// ---------------------------------------------------------------- clients

async fn download(kind: &str, base: &str) -> u64 {
    let mut received = 0u64;
    if kind == "apigen" {
        let client =
            files_client::Client::builder(base).bearer("tok").timeout(Duration::from_secs(3600)).build().unwrap();
        report_idle();
        let mut download = client.blobs().get("big").send().await.expect("download");
        while let Some(chunk) = download.chunk().await.expect("chunk") {
            received += chunk.len() as u64;
        }
    } else {
        let client = files_client::http_client_builder().build().unwrap(); // plain reqwest, with rustls set up
        report_idle();
        let mut response = client.get(format!("{base}/blobs/big")).bearer_auth("tok").send().await.unwrap();
        while let Some(chunk) = response.chunk().await.expect("chunk") {
            received += chunk.len() as u64;
        }
    }
    received
}

async fn upload(kind: &str, base: &str, total: u64) -> u64 {
    let size = if kind == "apigen" {
        let client =
            files_client::Client::builder(base).bearer("tok").timeout(Duration::from_secs(3600)).build().unwrap();
        report_idle();
        let stream = futures_util::stream::iter(chunks(total).map(Ok::<_, std::convert::Infallible>));
        let blob = client.blobs().put("big", files_client::Upload::stream(stream)).send().await.expect("upload");
        blob.size
    } else {
        let client = files_client::http_client_builder().build().unwrap(); // plain reqwest, with rustls set up
        report_idle();
        let frames = futures_util::stream::iter(
            chunks(total).map(|c| Ok::<_, std::convert::Infallible>(http_body::Frame::data(c))),
        );
        let body = reqwest::Body::wrap(http_body_util::StreamBody::new(frames));
        let response = client.put(format!("{base}/blobs/big")).bearer_auth("tok").body(body).send().await.unwrap();
        let text = response.text().await.unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        value["size"].as_i64().unwrap_or(-1)
    };
    size as u64
}

fn report_idle() {
    println!("idle {}", memory_kib("VmRSS"));
}

// ---------------------------------------------------------------- the run

/// What one run of a case measured: MiB/s, and the idle and peak resident sizes in KiB of the
/// client and the server.
struct Run {
    throughput: f64,
    client: (u64, u64),
    server: (u64, u64),
}

/// One run of a case: a server process and a client process.
fn run(direction: &str, kind: &str, total: u64) -> Run {
    let me = std::env::current_exe().expect("own path");
    let mut server = Command::new(&me)
        .args(["serve", kind, &total.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("server");
    let mut server_out = BufReader::new(server.stdout.take().expect("stdout"));
    let mut line = String::new();
    server_out.read_line(&mut line).expect("listening line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let (port, server_idle) = (words[2].to_owned(), words[4].parse::<u64>().unwrap_or(0));
    let client = Command::new(&me)
        .args([direction, kind, &format!("http://127.0.0.1:{port}"), &total.to_string()])
        .output()
        .expect("client");
    let client_out = String::from_utf8_lossy(&client.stdout).into_owned();
    drop(server.stdin.take()); // Ends the server, which prints its peak.
    let mut rest = String::new();
    server_out.read_to_string(&mut rest).expect("server's peak");
    let _ = server.wait();
    let field = |text: &str, key: &str| -> u64 {
        text.lines().find_map(|l| l.strip_prefix(key)?.trim().parse().ok()).unwrap_or(0)
    };
    let (bytes, millis) = (field(&client_out, "bytes "), field(&client_out, "millis "));
    assert_eq!(bytes, total, "{direction} {kind} moved {bytes} of {total} bytes: {client_out}");
    Run {
        throughput: (total as f64 / (1 << 20) as f64) / (millis.max(1) as f64 / 1000.0),
        client: (field(&client_out, "idle "), field(&client_out, "peak ")),
        server: (server_idle, field(&rest, "peak ")),
    }
}

/// A case's line: the median throughput of `runs`, the largest idle and peak sizes.
fn line(direction: &str, kind: &str, runs: &[Run]) -> String {
    let mut throughputs: Vec<f64> = runs.iter().map(|r| r.throughput).collect();
    throughputs.sort_by(f64::total_cmp);
    let median = throughputs[throughputs.len() / 2];
    let sizes = |pick: fn(&Run) -> (u64, u64)| {
        let idle = runs.iter().map(|r| pick(r).0).max().unwrap_or(0);
        let peak = runs.iter().map(|r| pick(r).1).max().unwrap_or(0);
        let mib = |kib: u64| kib as f64 / 1024.0;
        format!("{:.1} → {:.1} MiB (+{:.1})", mib(idle), mib(peak), mib(peak.saturating_sub(idle)))
    };
    format!("| {direction} | {kind} | {median:.0} MiB/s | {} | {} |", sizes(|r| r.client), sizes(|r| r.server))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runtime = || tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    match args.get(1).map(String::as_str) {
        Some("serve") => runtime().block_on(serve(&args[2], args[3].parse().expect("size"))),
        Some(direction @ ("download" | "upload")) => {
            let (kind, base, total) = (&args[2], &args[3], args[4].parse::<u64>().expect("size"));
            let started = Instant::now();
            let bytes = runtime().block_on(async {
                if direction == "download" { download(kind, base).await } else { upload(kind, base, total).await }
            });
            println!("millis {}", started.elapsed().as_millis());
            println!("bytes {bytes}");
            println!("peak {}", memory_kib("VmHWM"));
            std::io::stdout().flush().expect("flush");
        }
        _ => {
            let number = |at: usize, default: u64| args.get(at).and_then(|s| s.parse().ok()).unwrap_or(default);
            let (mib, runs) = (number(1, 1024), number(2, 5) as usize);
            let total = mib << 20;
            println!(
                "{mib} MiB each way, chunks of {} KiB, {runs} runs per case interleaved (median throughput; \
                 largest resident size idle → peak)",
                CHUNK / 1024
            );
            println!("| direction | stack | throughput | client | server |");
            println!("|---|---|---|---|---|");
            let cases = [("download", "apigen"), ("download", "plain"), ("upload", "apigen"), ("upload", "plain")];
            let mut measured: Vec<Vec<Run>> = cases.iter().map(|_| Vec::new()).collect();
            for _ in 0..runs {
                for (case, (direction, kind)) in cases.iter().enumerate() {
                    measured[case].push(run(direction, kind, total));
                }
            }
            for ((direction, kind), runs) in cases.iter().zip(&measured) {
                println!("{}", line(direction, kind, runs));
            }
        }
    }
}
