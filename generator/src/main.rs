//! The `apigen` command line. Thin: parsing arguments and printing; the work is in the library.

use apigen::config::Flags;
use apigen::model::Api;
use apigen::{Checked, Diffed, Failure, Generated, Generator, SpecSource, listing};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod terminal;

// Emission builds and drops millions of small token vectors; glibc's allocator spends a third
// of the run on them (bench/generate-speed.sh), mimalloc much less. It is built without asking
// for transparent huge pages (`no_thp`, Cargo.toml; the test below).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(all(test, target_os = "linux"))]
mod allocator_tests {
    /// The flags (`VmFlags`) of the mapping of /proc/self/smaps holding `address`.
    fn mapping_flags(smaps: &str, address: usize) -> Option<&str> {
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().and_then(|first| first.split_once('-'));
            if let Some((start, end)) = range
                && let (Ok(start), Ok(end)) = (usize::from_str_radix(start, 16), usize::from_str_radix(end, 16))
            {
                inside = (start..end).contains(&address);
            } else if let Some(flags) = line.strip_prefix("VmFlags:")
                && inside
            {
                return Some(flags);
            }
        }
        None
    }

    /// mimalloc marks none of its memory for transparent huge pages (`MADV_HUGEPAGE`, the
    /// mapping's `hg` flag): memory it gives back and touches again is then zeroed by the kernel
    /// 4 KiB at a time, not 2 MiB (5–12% of a generation's CPU; docs/src/performance.md).
    #[test]
    fn the_allocator_asks_for_no_huge_pages() {
        let block = vec![1u8; 8 << 20];
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps is readable");
        let flags = mapping_flags(&smaps, block.as_ptr() as usize).expect("the block's mapping is listed");
        assert!(!flags.split_whitespace().any(|flag| flag == "hg"), "the block's mapping asks for huge pages: {flags}");
    }
}

/// Generates Rust crates, OpenAPI and a reference from the YAML API spec.
///
/// Settings come from `apigen.toml` in the current directory or a parent (paths in it are
/// relative to it); each command's flags override them (`apigen <command> --help`).
#[derive(Parser)]
#[command(
    name = "apigen",
    version,
    about,
    after_help = "Example:\n  apigen init --from openapi.json my-api && cd my-api && apigen generate"
)]
struct Cli {
    /// The flags every command took before each command listed its own, still accepted before
    /// the command's name (`apigen --spec api lint`) so that older scripts keep working.
    #[command(flatten)]
    before: Before,
    #[command(subcommand)]
    command: Command,
}

/// Flags given before the command's name: hidden, each overridden by the command's own.
#[derive(clap::Args)]
struct Before {
    #[arg(long, hide = true)]
    config: Option<PathBuf>,
    #[arg(long, hide = true)]
    spec: Option<PathBuf>,
    #[arg(long, hide = true)]
    out: Option<PathBuf>,
    #[arg(long, hide = true)]
    runtime: Option<PathBuf>,
    #[arg(long, short, hide = true)]
    verbose: bool,
}

/// Where a command reads the spec: `--config` and `--spec`.
#[derive(clap::Args)]
struct SpecArgs {
    /// The settings file to read instead of looking for `apigen.toml` here or above.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Directory holding the spec's YAML files (default: apigen.toml's `spec`, else `spec`).
    #[arg(long, value_name = "DIR")]
    spec: Option<PathBuf>,
}

/// Where a command writes: `--out` and `--runtime`.
#[derive(clap::Args)]
struct OutputArgs {
    /// Directory the generated files go to (default: apigen.toml's `out`, else `generated`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Directory of the apigen-runtime crate the generated manifests point to (default:
    /// apigen.toml's `[runtime]`).
    #[arg(long, value_name = "DIR")]
    runtime: Option<PathBuf>,
}

/// `-v`, on the commands that print the spec's warnings.
#[derive(clap::Args)]
struct Verbosity {
    /// List every warning (by default a class of more than 10 is summarised in one line).
    #[arg(long, short)]
    verbose: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Writes a starter repository: apigen.toml, a spec with one resource (or, with --from, the
    /// import of an OpenAPI document), a copy of apigen-runtime, a workspace Cargo.toml and a
    /// Cargo.lock; it generates and builds with no edits.
    ///
    /// Only into a new or empty place: refuses, before writing anything, an existing
    /// apigen.toml, a spec or runtime directory holding anything, and links.
    #[command(
        after_help = "Example:\n  apigen init --from openapi.json my-api   # then, in my-api: apigen generate && cargo build"
    )]
    Init(InitArgs),
    /// Reads an OpenAPI 3.0 or 3.1 document (JSON or YAML) and writes the spec it describes into
    /// an existing apigen repository; what the format cannot hold becomes gaps (`apigen gaps`
    /// lists them). To start a repository from a document, use `apigen init --from DOC`.
    #[command(after_help = "Example:\n  apigen import openapi.json --replace   # then: apigen generate")]
    Import(ImportArgs),
    /// Validates the spec and prints every problem; exits 1 on any error.
    ///
    /// `[lint]` of apigen.toml sets each warning class to "allow", "warn" or "deny":
    /// missing-description, unused-type (allowed by default), unfollowed-link.
    #[command(after_help = "Example:\n  apigen lint --spec api/v1")]
    Lint {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        verbosity: Verbosity,
    },
    /// Prints the JSON Schema of a spec file, for editors: `init` writes it beside apigen.toml
    /// as apigen-spec.schema.json and the spec files it and `import` write name it on their
    /// first line (`# yaml-language-server: $schema=...`), so an editor with a YAML language
    /// server completes and checks keys as you type.
    #[command(after_help = "Example:\n  apigen schema > apigen-spec.schema.json")]
    Schema,
    /// Prints one line per operation (`METHOD PATH name`), sorted by path then method.
    #[command(after_help = "Example:\n  apigen list --rust   # client.pets().get(pet_id)  PetsApi::get_pet")]
    List {
        /// Print one line per type instead.
        #[arg(long, conflicts_with = "rust")]
        types: bool,
        /// Print each operation's generated client call and server trait method too
        /// (`client.health().get_health()  HealthApi::get_health`).
        #[arg(long)]
        rust: bool,
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        verbosity: Verbosity,
    },
    /// Prints every gap (what the documents do not show) with the decision taken.
    #[command(after_help = "Example:\n  apigen gaps | grep pagination")]
    Gaps {
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        verbosity: Verbosity,
    },
    /// Regenerates the output directory: writes changed files, removes stale ones.
    #[command(after_help = "Example:\n  apigen generate --spec api --out crates --runtime vendor/apigen-runtime")]
    Generate {
        /// Print every file, relying on nothing the stamp or the cache vouches for.
        #[arg(long)]
        full: bool,
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        verbosity: Verbosity,
    },
    /// Compares the output directory with what the spec produces; exits 1 on any difference.
    #[command(after_help = "Example:\n  apigen check   # in CI: fails when generated/ is stale, printing the diff")]
    Check {
        /// Accepted for scripts written before it became the only way: `check` always prints
        /// every file and compares its bytes, trusting no cache.
        #[arg(long, hide = true)]
        full: bool,
        #[command(flatten)]
        spec: SpecArgs,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        verbosity: Verbosity,
    },
    /// Classifies every change between two specs for callers and implementers; exits 1 when
    /// something breaks (unless --allow-breaking), 2 when a spec cannot be read.
    ///
    /// BASE and HEAD name a spec directory when one exists at that path, otherwise a git
    /// revision whose --spec directory is read from git's objects into memory (nothing is
    /// written to disk; any subdirectory of the repository works).
    #[command(after_help = "Example:\n  apigen diff --base-rev origin/main   # in CI, on a pull request")]
    Diff(DiffArgs),
}

/// Arguments of `apigen diff`.
#[derive(clap::Args)]
struct DiffArgs {
    /// The old spec: a directory or a git revision.
    #[arg(required_unless_present = "base_rev")]
    base: Option<String>,
    /// The new spec: a directory or a git revision; defaults to --spec in the working tree.
    head: Option<String>,
    /// Read the old spec at this git revision (e.g. the merge base) instead of BASE, straight
    /// from git's objects (nothing is written to disk).
    #[arg(long, conflicts_with = "base", value_name = "REV")]
    base_rev: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: DiffFormat,
    /// Exit 0 even when something breaks.
    #[arg(long)]
    allow_breaking: bool,
    #[command(flatten)]
    spec: SpecArgs,
    #[command(flatten)]
    verbosity: Verbosity,
}

/// Arguments of `apigen init`.
#[derive(clap::Args)]
struct InitArgs {
    /// The directory to write into (created if needed).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Import this OpenAPI document (JSON or YAML, 3.0 or 3.1) as the spec instead of the
    /// starter; the crates are named from the document's file name (or its title when the file
    /// is `openapi.json` or the like) unless --name says otherwise.
    #[arg(long, value_name = "DOC")]
    from: Option<PathBuf>,
    /// The API's name, which prefixes the crates (default: from the directory's name).
    #[arg(long)]
    name: Option<String>,
    /// The spec directory inside DIR, written into apigen.toml (default: `spec`).
    #[arg(long, value_name = "DIR")]
    spec: Option<PathBuf>,
    /// The output directory inside DIR, written into apigen.toml (default: `generated`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Take the runtime from this directory (relative to DIR) instead of copying it.
    #[arg(long, value_name = "DIR")]
    runtime: Option<PathBuf>,
    /// The name `--runtime` had on `init` before: hidden, kept so that scripts keep working.
    #[arg(long, hide = true, conflicts_with = "runtime_version")]
    runtime_path: Option<PathBuf>,
    /// Take the runtime from a registry at this version instead of copying it.
    #[arg(long, value_name = "VERSION")]
    runtime_version: Option<String>,
    /// Hidden: refused with why (init writes the settings file other commands read).
    #[arg(long, hide = true)]
    config: Option<PathBuf>,
    #[command(flatten)]
    verbosity: Verbosity,
}

/// Arguments of `apigen import`.
#[derive(clap::Args)]
struct ImportArgs {
    /// The OpenAPI document.
    document: PathBuf,
    /// Replace the content of a spec directory that is not empty.
    #[arg(long)]
    replace: bool,
    /// The crate-name prefix (`api.name`) instead of one from the document's file name.
    #[arg(long)]
    name: Option<String>,
    /// The spec directory to write (default: the project's, from apigen.toml).
    #[arg(long, value_name = "DIR")]
    spec: Option<PathBuf>,
    /// What --spec was called on `import` before: hidden, kept so that scripts keep working.
    #[arg(long, hide = true)]
    out: Option<PathBuf>,
    #[command(flatten)]
    verbosity: Verbosity,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffFormat {
    Text,
    Json,
}

/// `--verbose`: every warning listed.
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Diagnostics as printed: every one with `--verbose`, else each crowded class summarised.
fn shown_diags(diags: &apigen::Diagnostics) -> String {
    if VERBOSE.load(std::sync::atomic::Ordering::Relaxed) { diags.render() } else { diags.render_summarised() }
}

fn main() -> ExitCode {
    let Cli { before, command } = Cli::parse();
    let verbose = command.verbosity().is_some_and(|v| v.verbose) || before.verbose;
    VERBOSE.store(verbose, std::sync::atomic::Ordering::Relaxed);
    match &command {
        Command::Schema => {
            print!("{}", apigen::load::SCHEMA);
            ExitCode::SUCCESS
        }
        Command::Init(args) => init(args, &before),
        Command::Import(args) => import_command(args, &before),
        Command::Lint { spec, .. } => {
            with_generator(&before, spec, None, |generator| with_spec(&generator, print_lint))
        }
        Command::List { types: true, spec, .. } => {
            with_generator(&before, spec, None, |g| with_spec(&g, |api| print_lines(listing::types(api))))
        }
        Command::List { rust: true, spec, .. } => {
            with_generator(&before, spec, None, |g| with_spec(&g, |api| print_lines(listing::rust(api))))
        }
        Command::List { spec, .. } => {
            with_generator(&before, spec, None, |g| with_spec(&g, |api| print_lines(listing::operations(api))))
        }
        Command::Gaps { spec, .. } => {
            with_generator(&before, spec, None, |g| with_spec(&g, |api| print_lines(listing::gaps(api))))
        }
        Command::Generate { full, spec, output, .. } => {
            with_generator(&before, spec, Some(output), |g| with_progress(g.full(*full), generate))
        }
        Command::Check { full, spec, output, .. } => {
            with_generator(&before, spec, Some(output), |g| with_progress(g.full(*full), check))
        }
        Command::Diff(args) => with_generator(&before, &args.spec, None, |g| diff(args, &g)),
    }
}

impl Command {
    /// The command's `-v`, when it prints the spec's warnings.
    fn verbosity(&self) -> Option<&Verbosity> {
        match self {
            Command::Init(args) => Some(&args.verbosity),
            Command::Import(args) => Some(&args.verbosity),
            Command::Diff(args) => Some(&args.verbosity),
            Command::Lint { verbosity, .. }
            | Command::List { verbosity, .. }
            | Command::Gaps { verbosity, .. }
            | Command::Generate { verbosity, .. }
            | Command::Check { verbosity, .. } => Some(verbosity),
            Command::Schema => None,
        }
    }
}

/// The settings of a command that reads the spec: apigen.toml's, overridden by the command's
/// flags, themselves overriding the same flags given before the command's name.
fn with_generator(
    before: &Before,
    spec: &SpecArgs,
    output: Option<&OutputArgs>,
    command: impl FnOnce(Generator) -> ExitCode,
) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let flags = Flags {
        config: spec.config.clone().or_else(|| before.config.clone()),
        spec: spec.spec.clone().or_else(|| before.spec.clone()),
        out: output.and_then(|o| o.out.clone()).or_else(|| before.out.clone()),
        runtime: output.and_then(|o| o.runtime.clone()).or_else(|| before.runtime.clone()),
    };
    match apigen::config::resolve(flags, &cwd) {
        Ok(settings) => command(Generator::from(settings)),
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `apigen lint`'s line when the spec holds.
fn print_lint(api: &Api) {
    let count = apigen::diag::count;
    println!(
        "ok: {}, {}, {}",
        count(api.operations.len(), "operation"),
        types_counted(api),
        count(api.gaps.len(), "gap")
    );
}

/// `apigen import DOC`: the spec directory to write is --spec, else --out (its name before),
/// else the project's.
fn import_command(args: &ImportArgs, before: &Before) -> ExitCode {
    let given = [&args.spec, &args.out, &before.spec, &before.out].into_iter().find_map(Clone::clone);
    let Some(out) = given.or_else(project_spec) else {
        eprintln!(
            "error: no apigen.toml here or above, and no --spec: nothing was written\n  hint: `apigen init --from {} \
             [DIR]` starts a project from the document (apigen.toml, spec/, the runtime); `apigen import DOC --spec DIR` \
             writes only the spec files",
            args.document.display()
        );
        return ExitCode::FAILURE;
    };
    import(args, &out)
}

/// The Rust types of the spec, saying how many are inline shapes lifted into types of their own
/// (`83 types (58 named, 25 inline)`): `import` and `init --from` count the named types they
/// write, so without the split the two numbers looked contradictory.
fn types_counted(api: &apigen::model::Api) -> String {
    let inline = api.types.values().filter(|t| t.inline_of.is_some()).count();
    let all = apigen::diag::count(api.types.len(), "type");
    if inline == 0 { all } else { format!("{all} ({} named, {inline} inline)", api.types.len() - inline) }
}

/// Where `import` writes by default: the spec directory of the project (the apigen.toml found
/// here or above: its `spec`, else `spec` beside it); outside one, nowhere until `--out` says so
/// (spec files alone, without apigen.toml, do not generate crates that build).
fn project_spec() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    apigen::config::find(&cwd)?;
    let flags = Flags { config: None, spec: None, out: None, runtime: None };
    // A config that does not read is reported by the commands that need it; `spec` then.
    Some(apigen::config::resolve(flags, &cwd).map_or_else(|_| PathBuf::from("spec"), |settings| settings.spec))
}

/// Runs `command` with its progress drawn on a terminal (after a second), cleared before it
/// prints.
fn with_progress(generator: Generator, command: fn(&Generator, &terminal::Bar) -> ExitCode) -> ExitCode {
    let bar = terminal::Bar::on_stderr();
    command(&generator.progress(apigen::progress::Reporter::new(bar.clone())), &bar)
}

/// Runs `print` on the spec after printing its warnings; fails with every problem when it
/// does not load.
fn with_spec(generator: &Generator, print: impl FnOnce(&Api)) -> ExitCode {
    match generator.lint() {
        Ok((api, warnings)) => {
            eprint!("{}", shown_diags(&warnings));
            print(&api);
            ExitCode::SUCCESS
        }
        Err(diags) => {
            eprint!("{}", shown_diags(&diags));
            ExitCode::FAILURE
        }
    }
}

fn init(args: &InitArgs, before: &Before) -> ExitCode {
    let options = match init_options(args, before) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(document) = &args.from {
        return init_from(args, &options, document);
    }
    let shown = |path: &str| args.dir.join(path).display().to_string();
    match apigen::init::init(&args.dir, &options) {
        Ok(report) => {
            for path in &report.written {
                println!("wrote {}", shown(path));
            }
            for path in &report.kept {
                println!("left alone: {} (it exists)", shown(path));
            }
            lock_note(&report);
            println!("\nnext, in {}:", args.dir.display());
            let (name, out) = (&options.name, options.out.display());
            println!("  apigen generate     # writes {out}/: {name}-types, -server, -client, openapi.json");
            println!("  cargo build         # builds the generated crates (members of the workspace)");
            println!("  apigen check        # in CI: fails when {out}/ is stale");
            ExitCode::SUCCESS
        }
        Err(error) => init_failed(args, error),
    }
}

/// Says why the lock file init wrote is apigen's whole set of versions, when it is.
fn lock_note(report: &apigen::init::Report) {
    if let Some(why) = &report.lock_unsettled {
        eprintln!(
            "note: Cargo.lock holds the versions apigen is tested with, not yet only those this workspace needs: \
             {why}; the first build drops the rest"
        );
    }
}

fn init_failed(args: &InitArgs, error: apigen::init::InitError) -> ExitCode {
    let shown = |path: &str| args.dir.join(path).display().to_string();
    match error {
        apigen::init::InitError::Refused(refusals) => {
            for refusal in refusals {
                eprintln!("error: {}: {}\n  hint: {}", shown(&refusal.path), refusal.problem, refusal.hint);
            }
            eprintln!("error: nothing was written");
        }
        apigen::init::InitError::Io { path, source } => eprintln!("error: {}: {source}", path.display()),
        error => eprintln!("error: {error}"),
    }
    ExitCode::FAILURE
}

/// `apigen init --from DOC [DIR]`.
fn init_from(args: &InitArgs, options: &apigen::init::Options, document: &std::path::Path) -> ExitCode {
    let shown = |path: &str| args.dir.join(path).display().to_string();
    let bar = terminal::Bar::on_stderr();
    let done = apigen::init_from(&args.dir, options, document, args.name.as_deref(), &bar);
    bar.finish();
    match done {
        Ok(report) => {
            for path in &report.init.written {
                println!("wrote {}", shown(path));
            }
            for path in &report.init.kept {
                println!("left alone: {} (it exists)", shown(path));
            }
            lock_note(&report.init);
            println!("{}", report.import.summary.line());
            if let Err(diags) = &report.import.lint {
                eprint!("{}", shown_diags(diags));
                eprintln!("error: the imported spec does not lint (a fault of apigen import: please report it)");
                return ExitCode::FAILURE;
            }
            println!("\nnext, in {}:", args.dir.display());
            let (name, out) = (&report.name, options.out.display());
            println!("  apigen generate     # writes {out}/: {name}-types, -server, -client, openapi.json");
            println!("  cargo build         # builds the generated crates at the versions of Cargo.lock");
            println!("  apigen gaps         # what the document could not say, with the decision taken");
            ExitCode::SUCCESS
        }
        Err(apigen::InitFromFailure::Init(error)) => init_failed(args, error),
        Err(apigen::InitFromFailure::Import(error)) => {
            eprintln!("error: {error}\nerror: nothing was written");
            ExitCode::FAILURE
        }
    }
}

/// What `init` writes, from its arguments (and those given before `init`, as scripts did).
fn init_options(args: &InitArgs, before: &Before) -> Result<apigen::init::Options, String> {
    apigen::init::Options::from_flags(&apigen::init::Flags {
        dir: args.dir.clone(),
        name: args.name.clone(),
        runtime_path: args.runtime_path.clone(),
        runtime_version: args.runtime_version.clone(),
        config: args.config.clone().or_else(|| before.config.clone()),
        spec: args.spec.clone().or_else(|| before.spec.clone()),
        out: args.out.clone().or_else(|| before.out.clone()),
        runtime: args.runtime.clone().or_else(|| before.runtime.clone()),
    })
}

fn import(args: &ImportArgs, out: &std::path::Path) -> ExitCode {
    // The spec's schema, when the repository has it (init writes it beside apigen.toml).
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let schema = apigen::config::find(&cwd)
        .and_then(|config| config.parent().map(|dir| dir.join(apigen::load::SCHEMA_FILE)))
        .filter(|schema| schema.is_file())
        .and_then(|schema| {
            let spec = std::path::absolute(cwd.join(out)).ok()?;
            Some(apigen::emit::relative_path(&spec, &std::path::absolute(schema).ok()?))
        });
    let bar = terminal::Bar::on_stderr();
    let done = apigen::import_named(&args.document, out, args.replace, args.name.as_deref(), schema.as_deref(), &bar);
    bar.finish();
    match done {
        Ok(report) => {
            for path in &report.written {
                println!("wrote {}", out.join(path).display());
            }
            println!("{}", report.summary.line());
            match report.lint {
                Ok(_warnings) => {
                    if apigen::config::find(&cwd).is_some() {
                        println!("next: apigen generate --spec {}   (apigen gaps lists every gap)", out.display());
                    } else {
                        // Without apigen.toml, nothing says where the generated crates take
                        // the runtime from: `generate` would refuse to write them.
                        println!(
                            "next: this directory has no apigen.toml; to generate crates that build, start a \
                             repository with `apigen init --from {}` instead",
                            args.document.display()
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(diags) => {
                    eprint!("{}", shown_diags(&diags));
                    eprintln!("error: the imported spec does not lint (a fault of apigen import: please report it)");
                    ExitCode::FAILURE
                }
            }
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn print_lines(lines: Vec<String>) {
    for line in lines {
        println!("{line}");
    }
}

fn generate(generator: &Generator, bar: &terminal::Bar) -> ExitCode {
    let out = generator.out_dir();
    let generated = generator.generate();
    bar.finish();
    match generated {
        Ok(Generated { warnings, report }) => {
            eprint!("{}", shown_diags(&warnings));
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
        Err(failure) => fail(failure),
    }
}

fn check(generator: &Generator, bar: &terminal::Bar) -> ExitCode {
    let checked = generator.check();
    bar.finish();
    match checked {
        Ok(Checked { warnings, files, drift }) => {
            eprint!("{}", shown_diags(&warnings));
            if drift.is_clean() {
                println!("ok: {files} files match the spec");
                ExitCode::SUCCESS
            } else {
                print!("{}", drift.render(&generator.options().regenerate));
                ExitCode::FAILURE
            }
        }
        Err(failure) => fail(failure),
    }
}

fn fail(failure: Failure) -> ExitCode {
    match failure {
        Failure::Spec(diags) => eprint!("{}", shown_diags(&diags)),
        Failure::Output(error) => eprintln!("error: {error}"),
        Failure::Runtime(message) => eprintln!("error: {message}"),
    }
    ExitCode::FAILURE
}

fn diff(args: &DiffArgs, generator: &Generator) -> ExitCode {
    let base = match (&args.base_rev, &args.base) {
        (Some(rev), _) => SpecSource::Revision(rev.clone()),
        (None, Some(base)) => SpecSource::named(base),
        (None, None) => {
            eprintln!("error: no BASE given");
            return ExitCode::from(2);
        }
    };
    let head = args.head.as_deref().map(SpecSource::named);
    let Diffed { changes, warnings } = match generator.diff(&base, head.as_ref()) {
        Ok(diffed) => diffed,
        Err(problems) => {
            eprint!("{problems}");
            return ExitCode::from(2);
        }
    };
    eprint!("{}", shown_diags(&warnings));
    match args.format {
        DiffFormat::Text => print!("{}", apigen::diff::render::text(&changes)),
        DiffFormat::Json => print!("{}", apigen::diff::render::json(&changes)),
    }
    if apigen::diff::is_breaking(&changes) && !args.allow_breaking { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
