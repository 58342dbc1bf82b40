//! The `apigen` command line. Thin: parsing arguments and printing; the work is in the library.

use apigen::emit::Options;
use apigen::model::{Api, TypeKind};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Generates Rust crates, OpenAPI and a reference from the YAML API spec.
#[derive(Parser)]
#[command(name = "apigen", version, about)]
struct Cli {
    /// Directory holding the spec's YAML files.
    #[arg(long, global = true, default_value = "spec")]
    spec: PathBuf,
    /// Directory the generated files go to.
    #[arg(long, global = true, default_value = "generated")]
    out: PathBuf,
    /// Directory of the apigen-runtime crate, which generated manifests point to (relative
    /// paths are taken from the same directory as --out).
    #[arg(long, global = true, default_value = "runtime")]
    runtime: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validates the spec and prints every problem; exits 1 on any error.
    Lint,
    /// Prints one line per operation (`METHOD PATH name`), sorted by path then method.
    List {
        /// Print one line per type instead.
        #[arg(long)]
        types: bool,
    },
    /// Prints every gap (what the documents do not show) with the decision taken.
    Gaps,
    /// Regenerates the output directory: writes changed files, removes stale ones.
    Generate,
    /// Compares the output directory with what the spec produces; exits 1 on any difference.
    Check,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (api, warnings) = match apigen::load(&cli.spec) {
        Ok(loaded) => loaded,
        Err(diags) => {
            eprint!("{}", diags.render());
            return ExitCode::FAILURE;
        }
    };
    if !warnings.is_empty() {
        eprint!("{}", warnings.render());
    }
    match cli.command {
        Command::Lint => {
            println!("ok: {} operations, {} types, {} gaps", api.operations.len(), api.types.len(), api.gaps.len());
            ExitCode::SUCCESS
        }
        Command::List { types: false } => print_lines(operation_lines(&api)),
        Command::List { types: true } => print_lines(type_lines(&api)),
        Command::Gaps => print_lines(gap_lines(&api)),
        Command::Generate => generate(&api, &cli.out, &Options::new(&cli.out, &cli.runtime)),
        Command::Check => check(&api, &cli.out, &Options::new(&cli.out, &cli.runtime)),
    }
}

fn print_lines(lines: Vec<String>) -> ExitCode {
    for line in lines {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

fn operation_lines(api: &Api) -> Vec<String> {
    let mut ops: Vec<_> = api.operations.iter().collect();
    ops.sort_by(|a, b| (&a.path.raw, a.method.as_str()).cmp(&(&b.path.raw, b.method.as_str())));
    ops.iter().map(|op| format!("{:<6} {} {}", op.method.as_str(), op.path.raw, op.name)).collect()
}

fn type_lines(api: &Api) -> Vec<String> {
    api.types
        .values()
        .map(|t| match &t.kind {
            TypeKind::Object(o) => format!("object {} ({} fields)", t.name, o.fields.len()),
            TypeKind::Enum(e) => {
                let values: Vec<&str> = e.values.iter().map(|v| v.wire.as_str()).collect();
                let openness = if e.open { "open" } else { "closed" };
                format!("enum   {} ({openness}: {})", t.name, values.join(", "))
            }
            TypeKind::Union(u) => {
                let variants: Vec<String> = u.variants.iter().map(|v| v.ty.to_string()).collect();
                let tag = u.tag.as_ref().map_or("untagged".to_owned(), |t| format!("tag `{t}`"));
                let openness = if u.open { "open" } else { "closed" };
                format!("union  {} ({tag}, {openness}: {})", t.name, variants.join(", "))
            }
        })
        .collect()
}

fn gap_lines(api: &Api) -> Vec<String> {
    let mut lines = Vec::new();
    for gap in api.gaps.values() {
        lines.push(format!("{} ({})", gap.id, gap.source));
        lines.push(format!("  gap:      {}", gap.gap.trim()));
        lines.push(format!("  decision: {}", gap.decision.trim()));
        if !gap.used_by.is_empty() {
            lines.push(format!("  used by:  {}", gap.used_by.join(", ")));
        }
    }
    lines.push(format!("{} gaps", api.gaps.len()));
    lines
}

fn generate(api: &Api, out: &std::path::Path, options: &Options) -> ExitCode {
    let output = apigen::emit::emit(api, options);
    match output.write(out) {
        Ok(report) => {
            for path in &report.written {
                println!("wrote {}", out.join(path).display());
            }
            for path in &report.removed {
                println!("removed {}", out.join(path).display());
            }
            for path in &report.kept {
                println!(
                    "left alone: {} (not written by apigen; delete it if it is not yours)",
                    out.join(path).display()
                );
            }
            println!(
                "{} written, {} unchanged, {} removed",
                report.written.len(),
                report.unchanged,
                report.removed.len()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn check(api: &Api, out: &std::path::Path, options: &Options) -> ExitCode {
    let output = apigen::emit::emit(api, options);
    match output.check(out) {
        Ok(drift) if drift.is_clean() => {
            println!("ok: {} files match the spec", output.files().len());
            ExitCode::SUCCESS
        }
        Ok(drift) => {
            print!("{}", drift.render());
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
