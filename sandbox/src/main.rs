//! `docs-api-sandbox`: serves the Documentation Platform API over SQLite.

use clap::Parser;
use docs_api_sandbox::{Sandbox, clock::Clock, store::Store};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// The Documentation Platform API running on the generated server, over SQLite.
///
/// On an empty database it creates one organization and its admin user, owner of the
/// token it prints, so every operation is reachable.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The admin's bearer token (default: the one the database has, or a new random one).
    #[arg(long)]
    token: Option<String>,
    /// A database file that survives restarts (default: in memory).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Load a small, deterministic demo data set (on a database that has no demo yet).
    #[arg(long)]
    demo: bool,
    /// What to log on standard error: one line per request answered (`info`: the operation,
    /// its group, the status, the latency and the violations refused), only server errors
    /// (`warn`), or nothing (`off`).
    #[arg(long, default_value = "info")]
    log: tracing_subscriber::filter::LevelFilter,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let store = match Store::open(args.db.as_deref(), Clock::default()) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("cannot open the database: {error}");
            return ExitCode::FAILURE;
        }
    };
    let sandbox = Sandbox::new(store);
    let boot = match sandbox.bootstrap(args.token.as_deref()) {
        Ok(boot) => boot,
        Err(error) => {
            eprintln!("cannot create the first organization: {error}");
            return ExitCode::FAILURE;
        }
    };
    if args.demo
        && let Err(error) = docs_api_sandbox::demo::load(&sandbox, &boot).await
    {
        eprintln!("cannot load the demo data: {error}");
        return ExitCode::FAILURE;
    }
    let listener = match tokio::net::TcpListener::bind(args.listen).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("cannot listen on {}: {error}", args.listen);
            return ExitCode::FAILURE;
        }
    };
    let address = listener.local_addr().map_or(args.listen, |a| a);
    println!("listening on http://{address}");
    println!("token: {}", boot.token);
    println!("organization: {}", boot.organization);
    println!("try: curl -H 'Authorization: Bearer {}' http://{address}/v1/orgs", boot.token);
    // The spec's servers, which the reference at /docs lists after this sandbox.
    for (url, description) in docs_api_sandbox::spec_servers() {
        println!("spec server: {url} ({description})");
    }
    let _ = std::io::stdout().flush();
    // The generated server's spans (feature `tracing`), one line per request answered; set up
    // once serving starts, so the demo's loading (through the router too) is not logged.
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).with_max_level(args.log).init();
    match apigen_runtime::listener::serve(listener, sandbox.app_at(&format!("http://{address}")), Default::default())
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}
