//! The container image as an operator runs it: built by `.ci/image` with podman, at most
//! 200 MB (the slim variant 60 MB), no shell, a user other than root, its health check, the
//! first key and the credits kept in a volume across a restart, two containers on one
//! PostgreSQL ledger, SIGTERM during a conversion, documents in nine languages read as the
//! same binary reads them on a machine with every Noto font, the slim variant's warning, and
//! fonts added from a mounted folder. Skipped, saying so, where podman cannot run (fails
//! under `CI=true`); see tests/support/podman.rs.

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
const MAX_IMAGE_BYTES: u64 = 200_000_000;

/// The most the slim image may weigh, uncompressed.
const MAX_SLIM_BYTES: u64 = 60_000_000;

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
fn the_image_is_at_most_200_mb_has_no_shell_and_runs_the_binary() {
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

/// A paragraph of `text` in the language `lang`, right to left where `rtl`: its run names
/// the fonts Word's templates give that language (which no image carries: the renderer's
/// fallback chooses).
fn in_language(text: &str, lang: &str, rtl: bool) -> String {
    let (p_pr, r_pr) = if rtl {
        (r#"<w:pPr><w:bidi/></w:pPr>"#, format!(r#"<w:rFonts w:cs="Arial"/><w:rtl/><w:lang w:bidi="{lang}"/>"#))
    } else if ["zh-CN", "ja-JP", "ko-KR"].contains(&lang) {
        ("", format!(r#"<w:rFonts w:eastAsia="{}"/><w:lang w:eastAsia="{lang}"/>"#, match lang {
            "zh-CN" => "宋体",
            "ja-JP" => "ＭＳ 明朝",
            _ => "맑은 고딕",
        }))
    } else {
        ("", format!(r#"<w:lang w:val="{lang}" w:bidi="{lang}"/>"#))
    };
    format!(r#"<w:p>{p_pr}<w:r><w:rPr>{r_pr}</w:rPr><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#, escape(text))
}

/// A short report in each language the default image is for: (name, language, right to
/// left, text).
const LANGUAGES: [(&str, &str, bool, &str); 9] = [
    ("Chinese", "zh-CN", false, "年度报告：收入增长了百分之十二，成本保持稳定。"),
    ("Japanese", "ja-JP", false, "年次報告書：売上は十二パーセント増加し、費用は安定しています。"),
    ("Korean", "ko-KR", false, "연간 보고서: 매출이 십이 퍼센트 증가했고 비용은 안정적입니다."),
    ("Arabic", "ar-SA", true, "التقرير السنوي: ارتفعت الإيرادات بنسبة اثني عشر بالمئة وظلت التكاليف مستقرة."),
    ("Persian", "fa-IR", true, "گزارش سالانه: درآمد دوازده درصد افزایش یافت و هزینه‌ها ثابت ماند."),
    ("Hebrew", "he-IL", true, "דוח שנתי: ההכנסות עלו בשנים עשר אחוזים והעלויות נשארו יציבות."),
    ("Thai", "th-TH", false, "รายงานประจำปี: รายได้เพิ่มขึ้นร้อยละสิบสอง และค่าใช้จ่ายคงที่"),
    ("Hindi", "hi-IN", false, "वार्षिक रिपोर्ट: आय में बारह प्रतिशत की वृद्धि हुई और लागत स्थिर रही।"),
    ("Vietnamese", "vi-VN", false, "Báo cáo thường niên: doanh thu tăng mười hai phần trăm, chi phí giữ ổn định."),
];

/// `docx2pdf convert` of `document` by `binary` on this machine: the PDF and what it said.
fn convert_on_host(binary: &std::path::Path, document: &[u8]) -> (Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.docx"), dir.path().join("out.pdf"));
    std::fs::write(&input, document).unwrap();
    let out = std::process::Command::new(binary).arg("convert").arg(&input).arg(&output).output().expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (std::fs::read(&output).unwrap(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn documents_in_nine_languages_read_in_the_image_as_on_a_machine_with_every_noto_font() {
    let Some(image) = podman::image() else { return };
    // This machine holds every Noto package: the reference the image is measured against.
    for package in ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf"] {
        if !std::path::Path::new(package).exists() {
            common::skip::skip(&format!("no {package} on this machine (apt-get install fonts-noto-core fonts-noto-cjk)"));
            return;
        }
    }
    let (container, address) = Container::serve(image.podman, &[]);
    let key = container.first_key();
    for (name, lang, rtl, text) in LANGUAGES {
        let document = docx(&format!("{}{}", paragraph(&format!("{name} report")), in_language(text, lang, rtl)));
        let answer = post_convert(address.port(), &key, &document);
        assert_eq!(answer.status, 200, "{name}: {}", String::from_utf8_lossy(&answer.body));
        let said = answer.head.lines().find(|l| l.to_ascii_lowercase().starts_with("x-conversion-warnings:")).unwrap_or_default();
        assert!(!said.contains("missing_glyphs"), "{name}: {said}");
        let (host_pdf, host_said) = convert_on_host(&image.binary, &document);
        assert!(!host_said.contains("missing_glyphs"), "{name} on the host: {host_said}");
        let (in_image, on_host) = (common::pdf::text(&answer.body), common::pdf::text(&host_pdf));
        assert_eq!(in_image, on_host, "{name}: the image reads otherwise than this machine");
        let fonts = common::pdf::fonts(&answer.body);
        if ["zh-CN", "ja-JP", "ko-KR"].contains(&lang) {
            // The title is Latin (Carlito); the report's ideographs, kana and Hangul are in a
            // CJK face, no Liberation face standing in.
            assert!(fonts.contains("CJK") && !fonts.contains("Liberation"), "{name}: {fonts}");
        }
    }
}

#[test]
fn the_slim_image_is_at_most_60_mb_and_counts_what_it_cannot_draw() {
    let Some(slim) = podman::slim_image() else { return };
    assert!(slim.size <= MAX_SLIM_BYTES, "the slim image takes {} bytes, more than {MAX_SLIM_BYTES}", slim.size);
    let (container, address) = Container::serve_image(slim.podman, slim.tag, &[]);
    let key = container.first_key();
    let (_, lang, rtl, text) = LANGUAGES[0];
    let written = format!("Latin title{text}");
    let document = docx(&format!("{}{}", paragraph("Latin title"), in_language(text, lang, rtl)));
    let answer = post_convert(address.port(), &key, &document);
    assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
    let said = header(&answer, "x-conversion-warnings");
    let han = text.chars().filter(|c| c.is_alphabetic()).count();
    assert!(said.contains(&format!("missing_glyphs: {han} (Han) -> ")), "{said}");
    // What is drawn as a box reads as itself, never as another character.
    let read = common::pdf::text(&answer.body);
    let strangers: Vec<char> = read.chars().filter(|c| !c.is_whitespace() && !written.contains(*c)).collect();
    assert!(strangers.is_empty(), "{strangers:?} in {read:?}");
}

#[test]
fn fonts_in_a_mounted_folder_named_by_docx2pdf_font_dir_are_used() {
    let Some(image) = podman::image() else { return };
    // Noto Sans Runic is not in the image (it carries the faces of the scripts of
    // `.ci/image` only).
    let noto = std::path::Path::new("/usr/share/fonts/truetype/noto/NotoSansRunic-Regular.ttf");
    if !noto.exists() {
        common::skip::skip(&format!("no {} (apt-get install fonts-noto-core)", noto.display()));
        return;
    }
    let fonts = tempfile::tempdir().unwrap();
    std::fs::copy(noto, fonts.path().join("NotoSansRunic-Regular.ttf")).unwrap();
    // Readable by the service's user.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(fonts.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(fonts.path().join("NotoSansRunic-Regular.ttf"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let mount = format!("{}:/fonts:ro", fonts.path().display());
    let document = docx(&format!(
        r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="Noto Sans Runic" w:hAnsi="Noto Sans Runic"/></w:rPr><w:t>{}</w:t></w:r></w:p>"#,
        escape("ᚠᚢᚦᚨᚱᚲ")
    ));
    let embedded = |options: &[&str]| {
        let (container, address) = Container::serve(image.podman, options);
        let answer = post_convert(address.port(), &container.first_key(), &document);
        assert_eq!(answer.status, 200, "{}", String::from_utf8_lossy(&answer.body));
        let said = answer.head.lines().find(|l| l.to_ascii_lowercase().starts_with("x-conversion-warnings:")).unwrap_or_default().to_owned();
        (common::pdf::fonts(&answer.body), said)
    };
    let (with, said) = embedded(&["--volume", &mount, "--env", "DOCX2PDF_FONT_DIR=/fonts"]);
    assert!(with.contains("NotoSansRunic-Regular"), "the mounted font is embedded: {with}");
    assert!(!said.contains("missing_glyphs"), "{said}");
    let (without, said) = embedded(&[]);
    assert!(!without.contains("NotoSansRunic"), "without the folder, another face: {without}");
    assert!(said.contains("missing_glyphs: 6 (Runic) -> "), "and the runes are counted as missing: {said}");
}
