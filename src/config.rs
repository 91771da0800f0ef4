//! Command-line interface and configuration: every flag can also be set in the environment
//! as `DOCX2PDF_<FLAG>` (e.g. `DOCX2PDF_DATABASE_URL`, `DOCX2PDF_MAX_UPLOAD_MB`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::db::accounts::Plan;
use crate::db::{default_pool_size, PoolOptions, SqliteSync};
use crate::docx::PackageLimits;

/// The default database: an embedded SQLite file, created on first use.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/docx2pdf.db?mode=rwc";

/// docx2pdf: DOCX to PDF as Word prints it, as an HTTP service metered in credits.
#[derive(Debug, Parser)]
#[command(name = "docx2pdf", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Log format on stderr.
    #[arg(long, global = true, env = "DOCX2PDF_LOG_FORMAT", value_enum, default_value_t = LogFormat::Human)]
    pub log_format: LogFormat,
}

/// How log lines look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Human,
    Json,
}

/// The database connection, shared by every command that opens the ledger. The flags are
/// global so they may follow the subcommand too (`accounts create … --database-url …`).
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// Database URL: `sqlite://PATH?mode=rwc` (embedded) or `postgres://USER@HOST/DB`.
    #[arg(long, global = true, env = "DOCX2PDF_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,

    /// Most database connections held open by this process [default: 4 for SQLite, 16
    /// for PostgreSQL].
    #[arg(long, global = true, env = "DOCX2PDF_DB_MAX_CONNECTIONS")]
    pub db_max_connections: Option<u32>,

    /// Seconds to wait for a database connection before answering 503.
    #[arg(long, global = true, env = "DOCX2PDF_DB_TIMEOUT_SECS", default_value_t = 5)]
    pub db_timeout_secs: u64,

    /// When an SQLite commit reaches the disk: `normal` syncs the write-ahead log at
    /// checkpoints (a power loss may undo the last commits, in the customer's favour),
    /// `full` at every commit. PostgreSQL has its own `synchronous_commit`.
    #[arg(long, global = true, env = "DOCX2PDF_SQLITE_SYNCHRONOUS", value_enum, default_value_t = SqliteSync::Normal)]
    pub sqlite_synchronous: SqliteSync,

    /// For tests: the clock of the ledger starts at this RFC 3339 instant (e.g.
    /// `2026-01-31T23:59:59.9Z`) instead of the system's time, and runs from there; credits
    /// are charged to its month.
    #[arg(long, global = true, env = "DOCX2PDF_CLOCK_START", hide = true)]
    pub clock_start: Option<chrono::DateTime<chrono::Utc>>,

    /// For tests: the clock stands still at `--clock-start`.
    #[arg(long, global = true, env = "DOCX2PDF_CLOCK_STOPPED", hide = true, requires = "clock_start")]
    pub clock_stopped: bool,
}

impl DbArgs {
    /// The clock every command that opens the ledger reads.
    pub fn clock(&self) -> std::sync::Arc<dyn crate::clock::Clock> {
        crate::clock::from_setting(self.clock_start, self.clock_stopped)
    }

    /// The pool settings these flags describe.
    pub fn pool(&self) -> PoolOptions {
        PoolOptions {
            max_connections: self.db_max_connections.unwrap_or(default_pool_size(&self.database_url)).max(1),
            acquire_timeout: Duration::from_secs(self.db_timeout_secs.max(1)),
            sqlite_sync: self.sqlite_synchronous,
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service.
    Serve(ServeArgs),
    /// Convert one file, without server or credits.
    Convert(ConvertArgs),
    /// Manage accounts.
    Accounts {
        #[command(subcommand)]
        command: AccountsCommand,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Show an account's credit usage for a month.
    Usage(UsageArgs),
    /// Load a running service with conversions and report throughput, latency and memory.
    BenchLoad(BenchLoadArgs),
    /// Ask a running `serve` whether it is alive (`GET /healthz`): exit 0 on 200, else 1.
    /// For health checks where no shell or curl is at hand (the container image).
    Healthcheck(HealthcheckArgs),
}

/// `docx2pdf healthcheck`: reads the same settings as `serve`, so in the service's
/// environment it needs no flag.
#[derive(Debug, Clone, Args)]
pub struct HealthcheckArgs {
    /// The address `serve` listens on (its `--bind`); an unspecified address (`0.0.0.0`,
    /// `::`) is asked on the loopback address.
    #[arg(long, env = "DOCX2PDF_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// The file `serve --address-file` writes the address bound to; when given it is read
    /// instead of `--bind` (which may name port 0).
    #[arg(long, env = "DOCX2PDF_ADDRESS_FILE")]
    pub address_file: Option<PathBuf>,

    /// Seconds to wait for the connection, and then for the answer.
    #[arg(long, default_value_t = 5)]
    pub timeout_secs: u64,
}

/// `docx2pdf bench-load --url … --key … FILE...`.
#[derive(Debug, Clone, Args)]
pub struct BenchLoadArgs {
    /// The service's base URL (or its `/api/convert` URL).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// The API key to send.
    #[arg(long, env = "DOCX2PDF_API_KEY")]
    pub key: String,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Requests to send in total (the files are sent round-robin).
    #[arg(long, default_value_t = 100)]
    pub requests: usize,
    /// The server's process id, when it cannot be found from the URL's port.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// The DOCX files to send.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// `docx2pdf serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 takes any free port. The address bound is printed on
    /// stdout as `listening on ADDRESS` once the server accepts connections.
    #[arg(long, env = "DOCX2PDF_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Also writes the address bound (`127.0.0.1:PORT`) to this file, whole at once, once
    /// the server accepts connections (for supervisors and tests that bind port 0).
    #[arg(long, env = "DOCX2PDF_ADDRESS_FILE")]
    pub address_file: Option<PathBuf>,

    #[command(flatten)]
    pub db: DbArgs,

    /// Render worker threads (default: the number of cores).
    #[arg(long, env = "DOCX2PDF_WORKERS")]
    pub workers: Option<usize>,

    /// Render jobs that may wait for a worker before requests get 503 `overloaded`.
    #[arg(long, env = "DOCX2PDF_QUEUE", default_value_t = 64)]
    pub queue: usize,

    /// Largest accepted upload, in MB of 1,048,576 bytes.
    #[arg(long, env = "DOCX2PDF_MAX_UPLOAD_MB", default_value_t = 50)]
    pub max_upload_mb: u64,

    /// Time a client has to send its whole upload, in seconds (slow clients).
    #[arg(long, env = "DOCX2PDF_UPLOAD_TIMEOUT_SECS", default_value_t = 60)]
    pub upload_timeout_secs: u64,

    /// Time a client has to send its request line and headers, in seconds.
    #[arg(long, env = "DOCX2PDF_CLIENT_REQUEST_TIMEOUT_SECS", default_value_t = 10)]
    pub client_request_timeout_secs: u64,

    /// Time a closing connection has to be shut down cleanly, in seconds.
    #[arg(long, env = "DOCX2PDF_CLIENT_DISCONNECT_TIMEOUT_SECS", default_value_t = 5)]
    pub client_disconnect_timeout_secs: u64,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Extra folder of fonts (repeatable; in the environment, separate folders with `:`).
    #[arg(long = "font-dir", env = "DOCX2PDF_FONT_DIR", value_delimiter = ':')]
    pub font_dirs: Vec<PathBuf>,
}

/// Limits on the work one document may cause, shared by `serve` and `convert`. Each
/// breach is refused with a message naming the limit and its flag.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Time limit of one render, in seconds (`convert`: 0 means none).
    #[arg(long, env = "DOCX2PDF_RENDER_TIMEOUT_SECS", default_value_t = 60)]
    pub render_timeout_secs: u64,

    /// Memory budget of one render: the most heap its thread may hold, in MB (1,048,576
    /// bytes); 0 means none. `serve` by default: half of the machine's memory (or of its
    /// cgroup limit, when lower) divided among the workers, between 256 and 4,096 MB;
    /// `convert` by default: none.
    #[arg(long, env = "DOCX2PDF_RENDER_MEMORY_MB")]
    pub render_memory_mb: Option<u64>,

    /// Most zip entries a package may hold.
    #[arg(long, env = "DOCX2PDF_MAX_ZIP_ENTRIES", default_value_t = 10_000)]
    pub max_zip_entries: usize,

    /// Most MB (1,048,576 bytes) one zip entry may inflate to.
    #[arg(long, env = "DOCX2PDF_MAX_ENTRY_MB", default_value_t = 256)]
    pub max_entry_mb: u64,

    /// Most MB (1,048,576 bytes) all zip entries together may inflate to.
    #[arg(long, env = "DOCX2PDF_MAX_TOTAL_MB", default_value_t = 1024)]
    pub max_total_mb: u64,

    /// Highest inflated/compressed ratio of a zip entry over 1 MB (zip bombs).
    #[arg(long, env = "DOCX2PDF_MAX_COMPRESSION_RATIO", default_value_t = 1_000)]
    pub max_compression_ratio: u64,

    /// Deepest XML element nesting.
    #[arg(long, env = "DOCX2PDF_MAX_XML_DEPTH", default_value_t = 512)]
    pub max_xml_depth: usize,

    /// Most elements in one XML part.
    #[arg(long, env = "DOCX2PDF_MAX_XML_ELEMENTS", default_value_t = 5_000_000)]
    pub max_xml_elements: usize,

    /// Deepest nesting of tables (at most 100, the reader's stack guard).
    #[arg(long, env = "DOCX2PDF_MAX_TABLE_DEPTH", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=100))]
    pub max_table_depth: u64,

    /// Most pixels a PNG picture may declare (at most 50,000,000, the decoder's own cap).
    #[arg(long, env = "DOCX2PDF_MAX_IMAGE_PIXELS", default_value_t = 50_000_000,
          value_parser = clap::value_parser!(u64).range(1..=50_000_000))]
    pub max_image_pixels: u64,

    /// Most pages a document may lay out to.
    #[arg(long, env = "DOCX2PDF_MAX_PAGES", default_value_t = 10_000)]
    pub max_pages: usize,
}

impl LimitArgs {
    /// The package limits these flags describe.
    pub fn package(&self) -> PackageLimits {
        PackageLimits {
            max_entries: self.max_zip_entries,
            max_entry_bytes: self.max_entry_mb.saturating_mul(crate::credits::MIB),
            max_total_bytes: self.max_total_mb.saturating_mul(crate::credits::MIB),
            max_ratio: self.max_compression_ratio,
            max_xml_depth: self.max_xml_depth,
            max_xml_elements: self.max_xml_elements,
            max_table_depth: self.max_table_depth as usize,
            max_image_pixels: self.max_image_pixels,
            max_pages: self.max_pages,
        }
    }

    /// The render time limit.
    pub fn render_timeout(&self) -> Duration {
        Duration::from_secs(self.render_timeout_secs)
    }

    /// The render memory budget in bytes: the flag's, else `default` (`None`: no budget),
    /// and none for 0.
    pub fn render_memory(&self, default: impl FnOnce() -> Option<u64>) -> Option<usize> {
        let bytes = match self.render_memory_mb {
            Some(mb) => mb.saturating_mul(crate::credits::MIB),
            None => default()?,
        };
        (bytes > 0).then(|| usize::try_from(bytes).unwrap_or(usize::MAX))
    }
}

/// `docx2pdf convert IN.docx OUT.pdf`.
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// The DOCX file to read.
    pub input: PathBuf,
    /// The PDF file to write.
    pub output: PathBuf,
    /// Extra folder of fonts (repeatable).
    #[arg(long = "font-dir", env = "DOCX2PDF_FONT_DIR", value_delimiter = ':')]
    pub font_dirs: Vec<PathBuf>,
    /// Claim PDF/UA-1 (the PDF is tagged either way); what the document lacks for it is
    /// logged as a warning.
    #[arg(long)]
    pub pdfua: bool,
    /// Claim a PDF/A level: PDF/A-1b, PDF/A-2b or PDF/A-3b.
    #[arg(long, value_parser = parse_pdfa)]
    pub pdfa: Option<crate::pdf::PdfA>,
    /// A file whose first line is the password that opens a password-protected DOCX (`-`
    /// for standard input). A file, not the password itself, so that it never shows in
    /// the process list or the shell's history.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// A JSON file of the data to fill the document's content controls and merge fields
    /// with (docs/templates.md): an object of at most 1 MiB.
    #[arg(long, value_name = "FILE.json")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub output_options: crate::output_options::OutputArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// A `--pdfa` value.
fn parse_pdfa(value: &str) -> Result<crate::pdf::PdfA, String> {
    crate::pdf::PdfA::parse(value).ok_or_else(|| format!("takes one of {}", crate::pdf::PdfA::NAMES))
}

/// `docx2pdf accounts …`.
#[derive(Debug, Subcommand)]
pub enum AccountsCommand {
    /// Create an account.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, value_enum)]
        plan: Plan,
        #[arg(long)]
        monthly_credits: u32,
    },
    /// List accounts.
    List,
    /// Change an account's plan or monthly allowance.
    Set {
        #[arg(long)]
        name: String,
        #[arg(long, value_enum)]
        plan: Option<Plan>,
        #[arg(long)]
        monthly_credits: Option<u32>,
    },
    /// Print a one-time link to the account's web pages, where the holder chooses a
    /// password; it is the last line. Voids older links, removes the current password and
    /// ends every session of the account (so it is also the password reset).
    SignInLink {
        #[arg(long)]
        name: String,
        /// The service's address as the holder's browser reaches it.
        #[arg(long, env = "DOCX2PDF_BASE_URL", default_value = "http://127.0.0.1:8080")]
        base_url: String,
        /// How long the link stays usable: a number and a unit, `s`, `m`, `h` or `d`.
        #[arg(long, default_value = "1h", value_parser = parse_valid_for)]
        valid_for: Duration,
    },
}

/// Longest a sign-in link may stay usable.
const LONGEST_LINK: Duration = Duration::from_secs(30 * 24 * 3600);

/// A `--valid-for` value: `90s`, `30m`, `1h`, `7d`.
fn parse_valid_for(value: &str) -> Result<Duration, String> {
    let value = value.trim();
    let split = value.find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len());
    let (number, unit) = value.split_at(split);
    let n: u64 = number.parse().map_err(|_| format!("{value:?} is not a number and a unit such as 30m, 1h or 7d"))?;
    let unit_secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("{value:?}: the unit is s, m, h or d")),
    };
    let d = Duration::from_secs(n.saturating_mul(unit_secs));
    if d.is_zero() || d > LONGEST_LINK {
        return Err(format!("{value:?}: a link is valid for more than nothing and at most 30d"));
    }
    Ok(d)
}

/// `docx2pdf keys …`.
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key; it is printed once, alone on the last line.
    Create {
        #[arg(long)]
        account: String,
        /// What the key is for, shown in listings and on the Credentials page (at most 64
        /// characters).
        #[arg(long)]
        name: Option<String>,
    },
    /// List an account's keys (prefixes and names).
    List {
        #[arg(long)]
        account: String,
    },
    /// Revoke the key with this prefix, at once.
    Revoke {
        #[arg(long)]
        prefix: String,
    },
}

/// `docx2pdf usage`.
#[derive(Debug, Clone, Args)]
pub struct UsageArgs {
    #[arg(long)]
    pub account: String,
    /// `YYYY-MM` (default: the current month, UTC).
    #[arg(long)]
    pub month: Option<String>,
    #[command(flatten)]
    pub db: DbArgs,
}

/// What the HTTP service needs from its configuration.
#[derive(Debug, Clone)]
pub struct ServiceConfig {
    /// Largest accepted upload in bytes.
    pub max_upload_bytes: u64,
    /// Time limit of one render.
    pub render_timeout: Duration,
    /// Memory budget of one render, bytes; `None` for none.
    pub render_memory: Option<usize>,
}

impl ServeArgs {
    /// The service settings these flags describe.
    pub fn service(&self) -> ServiceConfig {
        ServiceConfig {
            max_upload_bytes: self.max_upload_mb.saturating_mul(crate::credits::MIB),
            render_timeout: self.limits.render_timeout(),
            render_memory: self.limits.render_memory(|| {
                Some(crate::render::budget::default_budget(crate::render::budget::machine_memory(), self.worker_count()))
            }),
        }
    }

    /// Render threads: the flag, or the number of cores.
    pub fn worker_count(&self) -> usize {
        self.workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serve_defaults_match_the_documented_ones() {
        let cli = Cli::try_parse_from(["docx2pdf", "serve"]).unwrap();
        let Command::Serve(args) = cli.command else { panic!("not serve") };
        assert_eq!(args.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(args.max_upload_mb, 50);
        assert_eq!(args.limits.render_timeout_secs, 60);
        assert_eq!(args.service().max_upload_bytes, 52_428_800);
    }

    #[test]
    fn limit_defaults_are_the_package_defaults_on_serve_and_convert() {
        let cli = Cli::try_parse_from(["docx2pdf", "serve"]).unwrap();
        let Command::Serve(serve) = cli.command else { panic!("not serve") };
        let cli = Cli::try_parse_from(["docx2pdf", "convert", "a.docx", "b.pdf"]).unwrap();
        let Command::Convert(convert) = cli.command else { panic!("not convert") };
        for limits in [serve.limits.package(), convert.limits.package()] {
            assert_eq!(format!("{limits:?}"), format!("{:?}", PackageLimits::default()));
        }
    }

    #[test]
    fn the_memory_budget_is_the_flag_or_the_machines_share_on_serve_and_none_on_convert() {
        let serve = |args: &[&str]| {
            let cli = Cli::try_parse_from([&["docx2pdf", "serve"], args].concat()).unwrap();
            let Command::Serve(serve) = cli.command else { panic!("not serve") };
            serve.service().render_memory
        };
        assert_eq!(serve(&["--render-memory-mb", "300"]), Some(300 << 20));
        assert_eq!(serve(&["--render-memory-mb", "0"]), None, "0 turns it off");
        let machine = crate::render::budget::machine_memory();
        let expected = crate::render::budget::default_budget(machine, 3) as usize;
        assert_eq!(serve(&["--workers", "3"]), Some(expected));
        let cli = Cli::try_parse_from(["docx2pdf", "convert", "a", "b"]).unwrap();
        let Command::Convert(convert) = cli.command else { panic!("not convert") };
        assert_eq!(convert.limits.render_memory(|| None), None);
        let cli = Cli::try_parse_from(["docx2pdf", "convert", "a", "b", "--render-memory-mb", "64"]).unwrap();
        let Command::Convert(convert) = cli.command else { panic!("not convert") };
        assert_eq!(convert.limits.render_memory(|| None), Some(64 << 20));
    }

    #[test]
    fn limits_are_set_by_flag_and_the_pixel_limit_is_capped() {
        let cli = Cli::try_parse_from(["docx2pdf", "convert", "a", "b", "--max-pages", "7", "--max-table-depth", "3"]).unwrap();
        let Command::Convert(args) = cli.command else { panic!("not convert") };
        assert_eq!(args.limits.package().max_pages, 7);
        assert_eq!(args.limits.package().max_table_depth, 3);
        assert!(Cli::try_parse_from(["docx2pdf", "serve", "--max-image-pixels", "60000000"]).is_err());
    }

    #[test]
    fn the_database_flags_may_follow_the_subcommand() {
        let url = "postgres://postgres@127.0.0.1/ledger";
        let cli = Cli::try_parse_from(["docx2pdf", "keys", "list", "--account", "acme", "--database-url", url]).unwrap();
        let Command::Keys { db, .. } = cli.command else { panic!("not keys") };
        assert_eq!(db.database_url, url);
        let cli = Cli::try_parse_from(["docx2pdf", "accounts", "--db-max-connections", "3", "list"]).unwrap();
        let Command::Accounts { db, .. } = cli.command else { panic!("not accounts") };
        assert_eq!(db.pool().max_connections, 3);
        assert_eq!(db.pool().sqlite_sync, SqliteSync::Normal);
        let cli = Cli::try_parse_from(["docx2pdf", "accounts", "list"]).unwrap();
        let Command::Accounts { db, .. } = cli.command else { panic!("not accounts") };
        assert_eq!(db.pool().max_connections, 4, "SQLite by default");
        let cli = Cli::try_parse_from(["docx2pdf", "accounts", "--database-url", url, "list"]).unwrap();
        let Command::Accounts { db, .. } = cli.command else { panic!("not accounts") };
        assert_eq!(db.pool().max_connections, 16, "PostgreSQL");
        let cli = Cli::try_parse_from(["docx2pdf", "serve", "--sqlite-synchronous", "full"]).unwrap();
        let Command::Serve(serve) = cli.command else { panic!("not serve") };
        assert_eq!(serve.db.pool().sqlite_sync, SqliteSync::Full);
    }

    #[test]
    fn sign_in_links_are_valid_for_a_number_and_a_unit() {
        assert_eq!(parse_valid_for("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_valid_for("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_valid_for("7d"), Ok(Duration::from_secs(7 * 86_400)));
        for bad in ["", "h", "1", "0m", "31d", "1w", "-1h"] {
            assert!(parse_valid_for(bad).is_err(), "{bad:?}");
        }
        let cli = Cli::try_parse_from(["docx2pdf", "accounts", "sign-in-link", "--name", "acme"]).unwrap();
        let Command::Accounts { command: AccountsCommand::SignInLink { valid_for, base_url, .. }, .. } = cli.command else {
            panic!("not sign-in-link")
        };
        assert_eq!((valid_for, base_url.as_str()), (Duration::from_secs(3600), "http://127.0.0.1:8080"));
    }

    #[test]
    fn healthcheck_asks_where_serve_listens() {
        let cli = Cli::try_parse_from(["docx2pdf", "healthcheck"]).unwrap();
        let Command::Healthcheck(args) = cli.command else { panic!("not healthcheck") };
        assert_eq!((args.bind.to_string().as_str(), args.address_file, args.timeout_secs), ("127.0.0.1:8080", None, 5));
        let cli = Cli::try_parse_from(["docx2pdf", "healthcheck", "--bind", "0.0.0.0:9000", "--address-file", "a"]).unwrap();
        let Command::Healthcheck(args) = cli.command else { panic!("not healthcheck") };
        assert_eq!(args.bind.port(), 9000);
        assert_eq!(args.address_file, Some(PathBuf::from("a")));
    }

    #[test]
    fn keys_create_needs_an_account() {
        assert!(Cli::try_parse_from(["docx2pdf", "keys", "create"]).is_err());
        assert!(Cli::try_parse_from(["docx2pdf", "keys", "create", "--account", "acme"]).is_ok());
    }
}
