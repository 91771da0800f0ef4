//! The HTTP server `serve` runs around the app: its connection limits and the socket it binds.

use std::net::SocketAddr;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::HttpServer;

use super::{create_app, AppState};

/// How long clients and in-flight conversions are given.
#[derive(Debug, Clone, Copy)]
pub struct Connections {
    /// How long conversions in flight may run on after SIGTERM, and then commit.
    pub shutdown: Duration,
    /// Time a client has to send its request head (else 408).
    pub client_request: Duration,
    /// Time a closing connection has to be shut down cleanly.
    pub client_disconnect: Duration,
}

/// Binds `bind` (port 0: any free port) and returns the server, not yet running, with the
/// address it bound.
pub fn bind(state: AppState, bind: SocketAddr, connections: Connections) -> std::io::Result<(Server, SocketAddr)> {
    let server = HttpServer::new(move || create_app(state.clone()))
        .shutdown_timeout(connections.shutdown.as_secs())
        // Slow clients: the head must arrive in time (else 408), and a closing connection
        // may not linger. Heads over 128 KiB or 96 headers are refused by actix-http itself
        // (431).
        .client_request_timeout(connections.client_request)
        .client_disconnect_timeout(connections.client_disconnect)
        // A client that closes its side has given up: the handler is dropped, so its
        // render's credit hold is given back instead of the render being charged.
        .h1_allow_half_closed(false)
        .bind(bind)?;
    let bound = server.addrs().first().copied().unwrap_or(bind);
    Ok((server.run(), bound))
}
