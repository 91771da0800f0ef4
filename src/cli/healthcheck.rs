//! `docx2pdf healthcheck`: asks a running `serve` for `GET /healthz` over plain HTTP/1.1
//! and exits 0 on a 200, else 1 (the exit codes a container `HEALTHCHECK` expects), so an
//! image without a shell or curl can still have a health check.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

use super::{emit, CliError};
use crate::config::HealthcheckArgs;

/// The most of the answer read: the status line and headers of `/healthz` are far less.
const MAX_ANSWER: u64 = 64 * 1024;

/// Probes the service.
pub fn run(args: HealthcheckArgs) -> Result<(), CliError> {
    let bound = match &args.address_file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.clone(), source })?;
            text.trim()
                .parse::<SocketAddr>()
                .map_err(|_| CliError::Unhealthy(format!("{} holds no address: {:?}", path.display(), text.trim())))?
        }
        None => args.bind,
    };
    if bound.port() == 0 {
        return Err(CliError::Unhealthy(format!(
            "{bound} names no port; give the file `serve --address-file` writes (--address-file, DOCX2PDF_ADDRESS_FILE)"
        )));
    }
    let address = reachable(bound);
    let timeout = Duration::from_secs(args.timeout_secs.max(1));
    match healthz(address, timeout) {
        Ok(200) => {
            emit(&format!("healthy: http://{address}/healthz answered 200\n"));
            Ok(())
        }
        Ok(status) => Err(CliError::Unhealthy(format!("http://{address}/healthz answered {status}"))),
        Err(e) => Err(CliError::Unhealthy(format!("http://{address}/healthz: {e}"))),
    }
}

/// Where a server bound to `bound` is reached from the same machine: an unspecified
/// address (`0.0.0.0`, `::`) listens on every interface, loopback included.
fn reachable(bound: SocketAddr) -> SocketAddr {
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), bound.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(Ipv6Addr::LOCALHOST.into(), bound.port()),
        _ => bound,
    }
}

/// The status code of `GET /healthz` at `address` (RFC 9112 §4: the status line is
/// `HTTP-version SP status-code SP [reason-phrase]`).
fn healthz(address: SocketAddr, timeout: Duration) -> std::io::Result<u16> {
    let mut stream = TcpStream::connect_timeout(&address, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    stream.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").as_bytes())?;
    let mut answer = Vec::new();
    stream.take(MAX_ANSWER).read_to_end(&mut answer)?;
    let line = answer.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut parts = line.split(' ');
    match (parts.next(), parts.next().and_then(|code| code.trim().parse::<u16>().ok())) {
        (Some(version), Some(status)) if version.starts_with("HTTP/") => Ok(status),
        _ => Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not an HTTP answer: {:?}", line.trim_end()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unspecified_address_is_asked_on_loopback() {
        assert_eq!(reachable("0.0.0.0:8080".parse().unwrap()), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(reachable("[::]:8080".parse().unwrap()), "[::1]:8080".parse().unwrap());
        assert_eq!(reachable("10.1.2.3:8080".parse().unwrap()), "10.1.2.3:8080".parse().unwrap());
    }
}
