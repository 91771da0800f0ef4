//! The application: shared state and `create_app`, used by `serve` and by the tests alike.

use std::sync::Arc;
use std::time::Duration;

use actix::Addr;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{web, App, HttpRequest, HttpResponse, Resource, Route};
use sea_orm::DatabaseConnection;

use super::{account, convert, health, openapi, request_log, ApiError};
use crate::clock::Clock;
use crate::config::ServiceConfig;
use crate::ledger::CreditLedger;
use crate::metrics::Metrics;
use crate::render::RenderPool;

/// How long a credit hold outlives the render time limit before a sweep may release it
/// (one left by a crashed process): the handler's own grace past the limit (5 s), the
/// commit's database round trip (at most the 5 s connection wait) and 5 s to spare.
const HOLD_MARGIN: Duration = Duration::from_secs(15);

/// Time a client has to send its upload unless `serve` says otherwise.
const DEFAULT_UPLOAD_TIMEOUT: Duration = Duration::from_secs(60);

/// What every request handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: DatabaseConnection,
    pub ledger: Addr<CreditLedger>,
    pub pool: RenderPool,
    pub metrics: Arc<Metrics>,
    pub clock: Arc<dyn Clock>,
    pub config: ServiceConfig,
    /// Time a client has to send its whole upload.
    pub upload_timeout: Duration,
}

/// The routes of the service with their middleware.
pub fn create_app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state))
        .wrap(from_fn(request_log::around))
        .service(resource("/api/convert", web::post().to(convert::convert), "POST"))
        .service(resource("/healthz", web::get().to(health::healthz), "GET"))
        .service(resource("/readyz", web::get().to(health::readyz), "GET"))
        .service(resource("/metrics", web::get().to(health::metrics), "GET"))
        .service(resource("/openapi.json", web::get().to(openapi::openapi_json), "GET"))
        .service(account::scope())
        .default_service(web::to(not_found))
}

/// A path served by one method; any other answers 405 with `Allow: allow`.
fn resource(path: &str, route: Route, allow: &'static str) -> Resource {
    web::resource(path).route(route).default_service(web::to(move |req: HttpRequest| method_not_allowed(req, allow)))
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(req.path().to_owned()))
}

async fn method_not_allowed(req: HttpRequest, allow: &'static str) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed { method: req.method().to_string(), path: req.path().to_owned(), allow })
}

impl AppState {
    /// Starts the CreditLedger actor and the render pool and gathers the shared state.
    /// Must be called inside a running actix system.
    pub fn start(
        db: DatabaseConnection,
        renderer: Arc<crate::render::Renderer>,
        workers: usize,
        queue: usize,
        clock: Arc<dyn Clock>,
        config: ServiceConfig,
    ) -> AppState {
        use actix::Actor;
        let hold_ttl = config.render_timeout + HOLD_MARGIN;
        let ledger = CreditLedger::new(db.clone(), clock.clone(), hold_ttl).start();
        let pool = RenderPool::start(renderer, workers, queue);
        let upload_timeout = DEFAULT_UPLOAD_TIMEOUT;
        AppState { db, ledger, pool, metrics: Arc::new(Metrics::default()), clock, config, upload_timeout }
    }

    /// The same state, giving clients `limit` to send their upload.
    pub fn with_upload_timeout(self, limit: Duration) -> AppState {
        AppState { upload_timeout: limit, ..self }
    }
}
