//! `docx2pdf serve`: opens the database (creating the first account and key on an empty
//! one), starts the ledger and the render pool, and serves HTTP until SIGTERM/SIGINT, when
//! in-flight conversions finish and commit their credits.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use sea_orm::DatabaseConnection;

use super::CliError;
use crate::clock::{unix_ms, Clock};
use crate::config::ServeArgs;
use crate::db::{self, accounts::Plan};
use crate::http::server::{self, Connections};
use crate::http::AppState;
use crate::render::Renderer;

/// Name and allowance of the account created on an empty database.
const FIRST_ACCOUNT: &str = "local";
const FIRST_ACCOUNT_CREDITS: i64 = 100;

/// Runs the service.
pub fn run(args: ServeArgs) -> Result<(), CliError> {
    super::allocator::tune_for_serving();
    actix_web::rt::System::new().block_on(async move {
        let db = db::connect(&args.db.database_url, &args.db.pool()).await?;
        let clock = args.db.clock();
        let renderer = Arc::new(Renderer::new(&args.font_dirs, args.limits.package()));
        let workers = args.worker_count();
        let service = args.service();
        let render_memory_mb = service.render_memory.map(|bytes| bytes >> 20);
        if render_memory_mb.is_some() && !crate::render::memory::is_counting() {
            tracing::warn!("the render memory budget is not enforced: the allocator does not count the heap");
        }
        let state = AppState::start(db.clone(), renderer, workers, args.queue, clock.clone(), service)
            .with_upload_timeout(Duration::from_secs(args.upload_timeout_secs));
        super::allocator::give_back_when_idle(state.pool.activity());
        let connections = Connections {
            // In-flight conversions may run their whole time limit, and then commit.
            shutdown: Duration::from_secs(args.limits.render_timeout_secs + 10),
            client_request: Duration::from_secs(args.client_request_timeout_secs),
            client_disconnect: Duration::from_secs(args.client_disconnect_timeout_secs),
        };
        let (server, bound) = server::bind(state, args.bind, connections).map_err(CliError::Server)?;
        // After binding, so the banner's curl command names the port bound (port 0 too).
        first_run(&db, bound, clock.as_ref()).await?;
        // The socket is bound (and listening) here, so a client that reads this address
        // can connect at once; with port 0 this is the only way to learn the port.
        if let Some(path) = &args.address_file {
            write_whole(path, &bound.to_string()).map_err(CliError::Server)?;
        }
        super::emit(&format!("listening on {bound}\n"));
        tracing::info!(bind = %bound, workers, queue = args.queue, render_memory_mb, "docx2pdf is listening");
        server.await.map_err(CliError::Server)
    })
}

/// Writes `text` to a temporary file beside `path`, then renames it: a reader never sees
/// a half-written file.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, path)
}

/// On a database without any account: creates `local` (paid, 100 credits a month) with one
/// key and prints it with a ready curl command. Never on a database that has accounts.
async fn first_run(db: &DatabaseConnection, bound: SocketAddr, clock: &dyn Clock) -> Result<(), CliError> {
    if db::accounts::count(db).await? > 0 {
        return Ok(());
    }
    let now = unix_ms(clock.now());
    // Several instances started together on one empty shared database race here: the one
    // that loses finds the account made by the winner, which printed the key.
    match db::accounts::create(db, FIRST_ACCOUNT, Plan::Paid, FIRST_ACCOUNT_CREDITS, now).await {
        Err(db::DbError::AccountExists(_)) => return Ok(()),
        other => other?,
    };
    let key = db::keys::create(db, FIRST_ACCOUNT, now).await?;
    super::emit(&format!(
        "First run: created the account \"{FIRST_ACCOUNT}\" (paid, {FIRST_ACCOUNT_CREDITS} credits a month) and its API key.\n\
         It is shown only this once:\n\n    {key}\n\nConvert a document:\n\n    \
         curl -sS -H \"Authorization: Bearer {key}\" -F \"file=@document.docx\" -o document.pdf http://{bind}/api/convert\n",
        key = key.text,
        bind = bound,
    ));
    Ok(())
}
