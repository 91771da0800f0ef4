//! The container image as an operator runs it: built by `.ci/image` with podman, at most
//! 60 MB, no shell, a user other than root, its health check, the first key and the credits
//! kept in a volume across a restart, two containers on one PostgreSQL ledger, SIGTERM during
//! a conversion, and fonts added from a mounted folder. Skipped, saying so, where podman
//! cannot run (fails under `CI=true`); see tests/support/podman.rs.

mod common;
mod pg;
#[path = "support/binary.rs"]
mod binary;
#[path = "support/podman.rs"]
mod podman;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use binary::{get, post_convert, Answer};
use common::docx::{docx, escape, paragraph};
use entity::ledger_entry;
use podman::{run_once, Container, Volume};
use sea_orm::EntityTrait;

/// The most the image may weigh, uncompressed.
const MAX_IMAGE_BYTES: u64 = 60_000_000;

/// A header of an answer, by name.
fn header(answer: &Answer, name: &str) -> String {
    answer
        .head
        .lines()
        .find_map(|l| l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim().to_owned()))
        .unwrap_or_else(|| panic!("no {name} in {}", answer.head))
}

/// `podman run --rm IMAGE ARGS` must succeed: its stdout.
fn run_ok(podman: &podman::Podman, options: &[&str], args: &[&str]) -> String {
    let out = run_once(podman, options, args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_image_is_at_most_60_mb_has_no_shell_and_runs_the_binary() {
    let Some(image) = podman::image() else { return };
    assert!(image.size <= MAX_IMAGE_BYTES, "the image takes {} bytes, more than {MAX_IMAGE_BYTES}", image.size);
    let version = run_ok(&image.podman, &[], &["--version"]);
    assert_eq!(version, format!("docx2pdf {}\n", env!("CARGO_PKG_VERSION")));
    let config = image.podman.text(&["image", "inspect", "--format", "{{.Config.User}} {{json .Config.Healthcheck.Test}}", podman::IMAGE]);
    assert_eq!(config.trim(), r#"10001:10001 ["CMD","/usr/bin/docx2pdf","healthcheck"]"#);
    // Nothing but the binary runs in it: no shell to start.
    let shell = run_once(&image.podman, &["--entrypoint", "/bin/sh"], &["-c", "true"]);
    assert!(!shell.status.success(), "the image has a shell");
}

#[test]
fn the_image_listens_on_8080_as_a_user_other_than_root_and_answers_its_health_check() {
    let Some(image) = podman::image() else { return };
    // Its own network namespace: the image's defaults (0.0.0.0:8080) without the host's
    // port. Workers and memory budget follow the container's limits.
    let container = Container::start(&image.podman, &["--network", "none", "--memory", "1g", "--cpus", "1"], &[]);
    assert_eq!(container.listening(), "0.0.0.0:8080".parse::<SocketAddr>().unwrap());
    let logs = container.logs();
    assert!(logs.contains("workers=1") && logs.contains("render_memory_mb=512"), "one worker of half of 1 GiB: {logs}");
    // The image's HEALTHCHECK, as the orchestrator runs it.
    let started = Instant::now();
    loop {
        let check = image.podman.output(&["healthcheck", "run", &container.name]);
        if check.status.success() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "never healthy: {}{}", String::from_utf8_lossy(&check.stderr), container.logs());
        std::thread::sleep(Duration::from_millis(200));
    }
    let probe = container.exec(&["/usr/bin/docx2pdf", "healthcheck"]);
    assert_eq!(String::from_utf8_lossy(&probe.stdout), "healthy: http://127.0.0.1:8080/healthz answered 200\n");
    // Where nothing answers, the probe says so and exits 1.
    let closed = container.exec(&["/usr/bin/docx2pdf", "healthcheck", "--bind", "127.0.0.1:9"]);
    assert_eq!(closed.status.code(), Some(1), "{closed:?}");
    assert!(String::from_utf8_lossy(&closed.stderr).contains("unhealthy: http://127.0.0.1:9/healthz"), "{closed:?}");
    // The service's process, seen from the host, is not root's.
    let status = std::fs::read_to_string(format!("/proc/{}/status", container.pid())).unwrap();
    let uid = status.lines().find_map(|l| l.strip_prefix("Uid:")).unwrap().split_whitespace().collect::<Vec<_>>();
    assert_eq!(uid, ["10001"; 4], "{status}");
}

#[test]
fn a_volume_keeps_the_first_key_and_the_credits_across_a_restart() {
    let Some(image) = podman::image() else { return };
    let podman = &image.podman;
    let volume = Volume::create(podman);
    let data = volume.data();
    let document = docx(&paragraph("Kept in the volume"));

    let (first, address) = Container::serve(podman, &["--volume", &data]);
    assert!(first.logs().contains("First run: created the account \"local\""), "{}", first.logs());
    let key = first.first_key();
    let answer = post_convert(address.port(), &key, &document);
    assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
    assert!(answer.body.starts_with(b"%PDF-"));
    assert_eq!(header(&answer, "x-credits-remaining"), "99");
    first.signal("TERM");
    assert_eq!(first.wait(Duration::from_secs(30)), 0, "{}", first.logs());
    drop(first);

    // Started again on the volume, with the rest of the image read-only: the service
    // writes nowhere else.
    let (second, address) = Container::serve(podman, &["--volume", &data, "--read-only"]);
    assert!(!second.logs().contains("First run"), "no second first run: {}", second.logs());
    let answer = post_convert(address.port(), &key, &document);
    assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
    assert_eq!(header(&answer, "x-credits-remaining"), "98");
    let usage = run_ok(podman, &["--volume", &data], &["usage", "--account", "local"]);
    for line in ["used:      2", "held:      0", "entries:   2"] {
        assert!(usage.contains(line), "{line:?} in {usage}");
    }
}

#[test]
fn two_containers_on_one_postgresql_database_keep_one_exact_ledger() {
    let Some(image) = podman::image() else { return };
    let Some(db) = pg::TestDb::create_blocking() else { return };
    let podman = &image.podman;
    let url = format!("DOCX2PDF_DATABASE_URL={}", db.url);
    let options = ["--network", "host", "--env", url.as_str()];
    run_ok(podman, &options, &["accounts", "create", "--name", "acme", "--plan", "paid", "--monthly-credits", "20"]);
    let created = run_ok(podman, &options, &["keys", "create", "--account", "acme"]);
    let key = created.lines().last().expect("the key on the last line").trim().to_owned();

    let (a, a_address) = Container::serve(podman, &["--env", &url]);
    let (b, b_address) = Container::serve(podman, &["--env", &url]);
    let ports = [a_address.port(), b_address.port()];
    let file = Arc::new(docx(&paragraph("One page for the shared ledger")));
    let requests = 40;
    let start = Arc::new(Barrier::new(requests));
    let clients: Vec<_> = (0..requests)
        .map(|i| {
            let (file, start, key) = (file.clone(), start.clone(), key.clone());
            std::thread::spawn(move || {
                start.wait();
                let answer = post_convert(ports[i % 2], &key, &file);
                (answer.status, if answer.status == 200 { "pdf".to_owned() } else { answer.code() })
            })
        })
        .collect();
    let mut outcomes: BTreeMap<(u16, String), usize> = BTreeMap::new();
    for client in clients {
        *outcomes.entry(client.join().unwrap()).or_default() += 1;
    }
    let expected = BTreeMap::from([((200, "pdf".to_owned()), 20), ((429, "insufficient_credits".to_owned()), 20)]);
    assert_eq!(outcomes, expected, "every request is converted or refused for credits");

    let usage = run_ok(podman, &options, &["usage", "--account", "acme"]);
    for line in ["used:      20", "remaining: 0", "held:      0", "entries:   20"] {
        assert!(usage.contains(line), "{line:?} in {usage}");
    }
    let entries = pg::block_on(async { ledger_entry::Entity::find().all(&db.connect().await).await.unwrap() });
    assert_eq!((entries.len(), entries.iter().map(|e| e.credits).sum::<i64>()), (20, 20));
    // Each container answered its half, and together they debited the allowance.
    let mut debited = 0;
    for port in ports {
        let metrics = String::from_utf8(get(port, "/metrics").1).unwrap();
        let answered: u64 = metrics
            .lines()
            .filter(|l| l.starts_with("docx2pdf_http_requests_total{route=\"/api/convert\""))
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(answered, requests as u64 / 2, "{metrics}");
        debited += metrics.lines().find_map(|l| l.strip_prefix("docx2pdf_credits_debited_total ")).unwrap().trim().parse::<u64>().unwrap();
    }
    assert_eq!(debited, 20);
    drop((a, b));
}

/// A document of about 3,000 pages: a render of seconds even in an optimised build.
fn long_document() -> Vec<u8> {
    let text = "Every clause of this agreement is read with the others, and no heading limits the meaning of the text below it. ";
    docx(&(0..LONG_PARAGRAPHS).map(|i| paragraph(&format!("{i}. {}", text.repeat(4)))).collect::<String>())
}

/// Paragraphs of [`long_document`].
const LONG_PARAGRAPHS: usize = 27_000;

#[test]
fn sigterm_during_a_conversion_lets_it_finish_and_the_container_exit_0() {
    let Some(image) = podman::image() else { return };
    let podman = &image.podman;
    let volume = Volume::create(podman);
    let data = volume.data();
    let (container, address) = Container::serve(podman, &["--volume", &data, "--env", "DOCX2PDF_WORKERS=1"]);
    let key = container.first_key();
    let port = address.port();
    let client = std::thread::spawn(move || post_convert(port, &key, &long_document()));
    // Once the render runs (admitted, not finished), the signal.
    let started = Instant::now();
    loop {
        let metrics = String::from_utf8(get(port, "/metrics").1).unwrap();
        if metrics.lines().any(|l| l == "docx2pdf_render_queue_depth 1") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the conversion never started: {}", container.logs());
        std::thread::sleep(Duration::from_millis(10));
    }
    container.signal("TERM");
    let answer = client.join().unwrap();
    assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
    assert!(answer.body.starts_with(b"%PDF-"));
    assert_eq!(container.wait(Duration::from_secs(90)), 0, "{}", container.logs());
    // The signal came while the render ran: logged before the request's line.
    let log = container.log();
    let signal = log.find("SIGTERM received").unwrap_or_else(|| panic!("no SIGTERM in the log: {log}"));
    let answered = log.find("route=\"/api/convert\"").unwrap_or_else(|| panic!("no request line: {log}"));
    assert!(signal < answered, "the render ended before the signal came: {log}");
    drop(container);
    let usage = run_ok(podman, &["--volume", &data], &["usage", "--account", "local"]);
    for line in ["used:      1", "held:      0", "entries:   1"] {
        assert!(usage.contains(line), "{line:?} in {usage}");
    }
}

#[test]
fn fonts_in_a_mounted_folder_named_by_docx2pdf_font_dir_are_used() {
    let Some(image) = podman::image() else { return };
    // Noto Sans is not in the image (fonts-noto-core is left out for size).
    let noto = std::path::Path::new("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf");
    if !noto.exists() {
        common::skip::skip(&format!("no {} (apt-get install fonts-noto-core)", noto.display()));
        return;
    }
    let fonts = tempfile::tempdir().unwrap();
    std::fs::copy(noto, fonts.path().join("NotoSans-Regular.ttf")).unwrap();
    // Readable by the service's user.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(fonts.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(fonts.path().join("NotoSans-Regular.ttf"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let mount = format!("{}:/fonts:ro", fonts.path().display());
    let document = docx(&format!(
        r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="Noto Sans" w:hAnsi="Noto Sans"/></w:rPr><w:t>{}</w:t></w:r></w:p>"#,
        escape("Set in Noto Sans, from the mounted folder")
    ));
    let embedded = |options: &[&str]| {
        let (container, address) = Container::serve(&image.podman, options);
        let answer = post_convert(address.port(), &container.first_key(), &document);
        assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
        common::pdf::fonts(&answer.body)
    };
    let with = embedded(&["--volume", &mount, "--env", "DOCX2PDF_FONT_DIR=/fonts"]);
    assert!(with.contains("NotoSans-Regular"), "the mounted font is embedded: {with}");
    let without = embedded(&[]);
    assert!(!without.contains("NotoSans"), "without the folder, another face: {without}");
}
