//! Health, readiness and metrics endpoints.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use super::openapi::{HealthAnswers, MetricsAnswers, ReadyAnswers};
use super::{ApiError, AppState};
use crate::metrics::Gauges;

/// The body of `/healthz` and `/readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    /// `ok` (the process is alive) or `ready` (the database answers).
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// `GET /healthz`: the process is alive.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses(HealthAnswers))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Status { status: "ok" })
}

/// `GET /readyz`: the database answers.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses(ReadyAnswers))]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    state.db.ping().await.map_err(|e| ApiError::Unavailable(format!("the database cannot be reached ({e})")))?;
    Ok(HttpResponse::Ok().json(Status { status: "ready" }))
}

/// `GET /metrics`: Prometheus text.
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(MetricsAnswers))]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let db = crate::db::pool_stats(&state.db);
    let gauges = Gauges {
        queue_depth: state.pool.depth(),
        queue_waiting: state.pool.waiting(),
        workers: state.pool.workers(),
        db_connections: db.open,
        db_connections_idle: db.idle,
        db_max_connections: db.max,
        db_retries: crate::db::retry::retries_total(),
    };
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(state.metrics.render(gauges))
}
