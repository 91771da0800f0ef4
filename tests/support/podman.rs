//! podman for the container tests: its own storage and configuration in a temporary folder
//! (the host's images, containers and firewall are left alone), the image built once per
//! test process with `.ci/image` (the default image, and the slim one for the tests that
//! ask for it), containers and volumes removed when their guards drop,
//! and the whole folder removed when the process exits (or by the next run, if it was
//! killed). Where podman cannot run, the tests are skipped, saying why (`skip.rs`).

#![allow(dead_code)]

use crate::common::timed::Timed;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The tag `.ci/image` builds.
pub const IMAGE: &str = "localhost/docx2pdf:latest";

/// The tag of the slim variant (`DOCX2PDF_IMAGE_VARIANT=slim`).
pub const SLIM: &str = "localhost/docx2pdf:slim";

/// The prefix of the temporary folders holding the tests' podman storage.
const ROOT_PREFIX: &str = "docx2pdf-podman-";

/// podman with the tests' storage and configuration.
#[derive(Debug)]
pub struct Podman {
    root: PathBuf,
}

/// An image the tests run, built once.
#[derive(Debug)]
pub struct Image {
    pub podman: &'static Podman,
    /// Its tag, [`IMAGE`] or [`SLIM`].
    pub tag: &'static str,
    /// Uncompressed size in bytes, as podman counts it.
    pub size: u64,
    /// The binary in it, as cargo built it on this machine.
    pub binary: PathBuf,
}

/// Why there is no image.
#[derive(Debug)]
enum Unavailable {
    /// podman cannot run here: the tests are skipped (and fail under `CI=true`).
    Skip(String),
    /// podman runs, but the image did not build: the tests fail.
    Broken(String),
}

/// The image, built on the first call (the other tests wait for it), or `None` when the
/// test is to be skipped; panics when the build fails.
pub fn image() -> Option<&'static Image> {
    static IMAGE_BUILT: OnceLock<Result<Image, Unavailable>> = OnceLock::new();
    ready(IMAGE_BUILT.get_or_init(|| build("default", IMAGE)))
}

/// The slim image, as [`image`]; it shares the binary's build and podman's storage.
pub fn slim_image() -> Option<&'static Image> {
    static SLIM_BUILT: OnceLock<Result<Image, Unavailable>> = OnceLock::new();
    ready(SLIM_BUILT.get_or_init(|| build("slim", SLIM)))
}

fn ready(built: &'static Result<Image, Unavailable>) -> Option<&'static Image> {
    match built {
        Ok(image) => Some(image),
        Err(Unavailable::Skip(why)) => {
            crate::common::skip::skip(why);
            None
        }
        Err(Unavailable::Broken(why)) => panic!("{why}"),
    }
}

/// podman with the tests' storage, set up once per test process.
fn podman() -> Result<&'static Podman, Unavailable> {
    static PODMAN: OnceLock<Result<Podman, String>> = OnceLock::new();
    let made = PODMAN.get_or_init(|| {
        for tool in ["podman", "runc"] {
            let found = Command::new(tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).timed_status();
            if !found.is_ok_and(|s| s.success()) {
                return Err(format!("{tool} is not installed (apt-get install podman runc, or run .ci/run)"));
            }
        }
        // Debian's podman runs containers as root only with runc; rootless podman would need
        // subordinate ids this set-up does not make.
        if unsafe { libc::geteuid() } != 0 {
            return Err("podman runs containers here as root only; the tests do not run as root".into());
        }
        remove_stale_roots();
        let podman = Podman::create().map_err(|e| format!("cannot set up podman's storage: {e}"))?;
        let info = podman.output(&["info"]);
        if !info.status.success() {
            return Err(format!("podman cannot run: {}", String::from_utf8_lossy(&info.stderr).trim()));
        }
        Ok(podman)
    });
    made.as_ref().map_err(|why| Unavailable::Skip(why.clone()))
}

/// Builds the image of `variant` with `.ci/image`, as operators do: the release profile
/// (`DOCX2PDF_TEST_IMAGE_PROFILE` may name another), in a target folder of its own (the
/// one running this test stays locked by cargo while it runs).
fn build(variant: &str, tag: &'static str) -> Result<Image, Unavailable> {
    let podman = podman()?;
    let profile = std::env::var("DOCX2PDF_TEST_IMAGE_PROFILE").unwrap_or_else(|_| "release".to_owned());
    let target = Path::new(env!("CARGO_BIN_EXE_docx2pdf")).parent().and_then(Path::parent).expect("the target folder").join("container-image");
    let out = podman
        .env(&mut Command::new("bash"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/image"))
        .env("DOCX2PDF_IMAGE_PROFILE", &profile)
        .env("DOCX2PDF_IMAGE_ENGINE", "podman")
        .env("DOCX2PDF_IMAGE_VARIANT", variant)
        .env("DOCX2PDF_IMAGE", tag)
        .env_remove("DOCX2PDF_IMAGE_FONTS")
        .env("CARGO_TARGET_DIR", &target)
        .output_within(Duration::from_secs(1800))
        .map_err(|e| Unavailable::Broken(format!("cannot run .ci/image: {e}")))?;
    if !out.status.success() {
        return Err(Unavailable::Broken(format!(
            ".ci/image failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let size = podman.text(&["image", "inspect", "--format", "{{.Size}}", tag]).trim().parse().expect("a size");
    let binary = target.join(if profile == "dev" { "debug" } else { &profile }).join("docx2pdf");
    Ok(Image { podman, tag, size, binary })
}

impl Podman {
    /// A fresh folder with podman's storage and configuration, removed at exit.
    fn create() -> std::io::Result<Podman> {
        let root = tempfile::Builder::new().prefix(ROOT_PREFIX).tempdir()?.keep();
        std::fs::write(root.join("pid"), std::process::id().to_string())?;
        let podman = Podman { root };
        podman.configure()?;
        extern "C" fn at_exit() {
            if let Some(root) = ROOT.get() {
                Podman { root: root.clone() }.remove();
            }
        }
        static ROOT: OnceLock<PathBuf> = OnceLock::new();
        if ROOT.set(podman.root.clone()).is_ok() {
            // Statics are never dropped: the folder goes when the test process exits.
            unsafe { libc::atexit(at_exit) };
        }
        Ok(podman)
    }

    /// Writes storage.conf and containers.conf. The storage driver is vfs: plain folders,
    /// no mounts left behind. The runtime is runc (Debian's default crun fails here:
    /// "cgroups in hybrid mode not supported"); cgroups are managed without systemd; the
    /// default open-files limit (1048576) is refused when above the hard limit, so it is
    /// the hard limit, and processes are capped at a sane number. The rest stays below the
    /// storage's root: the clean-up conmon runs when a container exits (`podman container
    /// cleanup`) is given the storage, temp and network folders as flags but not this
    /// configuration, and without it finds no container (every exit then waits out conmon's
    /// 20 s timeout).
    fn configure(&self) -> std::io::Result<()> {
        let root = self.root.display();
        std::fs::create_dir_all(self.root.join("tmp"))?;
        std::fs::write(
            self.root.join("storage.conf"),
            format!("[storage]\ndriver = \"vfs\"\ngraphroot = \"{root}/graph\"\nrunroot = \"{root}/run\"\n"),
        )?;
        let mut files = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut files) };
        let files = files.rlim_max.min(65_536);
        std::fs::write(
            self.root.join("containers.conf"),
            format!(
                "[containers]\ndefault_ulimits = [\"nofile={files}:{files}\", \"nproc=4096:4096\"]\nlog_driver = \"k8s-file\"\n\n\
                 [engine]\nruntime = \"runc\"\ncgroup_manager = \"cgroupfs\"\nevents_logger = \"file\"\n\
                 tmp_dir = \"{root}/libpod-tmp\"\n\n[network]\nnetwork_config_dir = \"{root}/networks\"\n"
            ),
        )
    }

    /// `command` with this podman's configuration in its environment.
    pub fn env<'c>(&self, command: &'c mut Command) -> &'c mut Command {
        command
            .env("CONTAINERS_STORAGE_CONF", self.root.join("storage.conf"))
            .env("CONTAINERS_CONF", self.root.join("containers.conf"))
            .env("TMPDIR", self.root.join("tmp"))
    }

    /// `podman ARGS`.
    pub fn output(&self, args: &[&str]) -> Output {
        self.env(&mut Command::new("podman")).args(args).stdin(Stdio::null()).timed_output().expect("run podman")
    }

    /// `podman ARGS`, which must succeed: its stdout.
    pub fn text(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert!(out.status.success(), "podman {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Removes every container, volume and image of this storage, then the folder.
    fn remove(&self) {
        if self.root.join("containers.conf").exists() {
            let _ = self.output(&["rm", "--all", "--force", "--volumes", "--time", "0"]);
            let _ = self.output(&["system", "reset", "--force"]);
        }
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Removes the folders of test processes that were killed before they could.
fn remove_stale_roots() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(ROOT_PREFIX) {
            continue;
        }
        let root = entry.path();
        let pid = std::fs::read_to_string(root.join("pid")).unwrap_or_default();
        if !pid.is_empty() && !Path::new("/proc").join(pid.trim()).exists() {
            Podman { root }.remove();
        }
    }
}

/// A unique name for a container or volume of this process.
fn unique(kind: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!("docx2pdf-test-{kind}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// A named volume, removed when dropped.
pub struct Volume<'a> {
    podman: &'a Podman,
    pub name: String,
}

impl<'a> Volume<'a> {
    pub fn create(podman: &'a Podman) -> Volume<'a> {
        let name = unique("volume");
        podman.text(&["volume", "create", &name]);
        Volume { podman, name }
    }

    /// The `--volume` value that mounts it at the service's data folder.
    pub fn data(&self) -> String {
        format!("{}:/var/lib/docx2pdf", self.name)
    }
}

impl Drop for Volume<'_> {
    fn drop(&mut self) {
        let _ = self.podman.output(&["volume", "rm", "--force", &self.name]);
    }
}

/// A container started in the background, removed (with its anonymous volumes) when
/// dropped.
pub struct Container<'a> {
    podman: &'a Podman,
    pub name: String,
}

impl<'a> Container<'a> {
    /// `podman run --detach` of the image with `options` before the image and `args` after.
    pub fn start(podman: &'a Podman, options: &[&str], args: &[&str]) -> Container<'a> {
        Container::start_image(podman, IMAGE, options, args)
    }

    /// [`Container::start`] of the image tagged `image`.
    pub fn start_image(podman: &'a Podman, image: &str, options: &[&str], args: &[&str]) -> Container<'a> {
        let name = unique("container");
        let mut all = vec!["run", "--detach", "--name", name.as_str()];
        all.extend_from_slice(options);
        all.push(image);
        all.extend_from_slice(args);
        podman.text(&all);
        Container { podman, name }
    }

    /// `serve` on the host's network, on a free port of loopback (the image's own
    /// 0.0.0.0:8080 would take the host's port), with `options`; returns once it listens.
    pub fn serve(podman: &'a Podman, options: &[&str]) -> (Container<'a>, SocketAddr) {
        Container::serve_image(podman, IMAGE, options)
    }

    /// [`Container::serve`] of the image tagged `image`.
    pub fn serve_image(podman: &'a Podman, image: &str, options: &[&str]) -> (Container<'a>, SocketAddr) {
        let mut all = vec!["--network", "host", "--env", "DOCX2PDF_BIND=127.0.0.1:0"];
        all.extend_from_slice(options);
        let container = Container::start_image(podman, image, &all, &[]);
        let address = container.listening();
        (container, address)
    }

    /// Everything the container printed: stdout, then stderr.
    pub fn logs(&self) -> String {
        let out = self.podman.output(&["logs", &self.name]);
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    }

    /// What the container printed on stderr (the service's log), in order.
    pub fn log(&self) -> String {
        String::from_utf8_lossy(&self.podman.output(&["logs", &self.name]).stderr).into_owned()
    }

    /// Whether the container is running.
    pub fn running(&self) -> bool {
        self.podman.text(&["inspect", "--format", "{{.State.Running}}", &self.name]).trim() == "true"
    }

    /// The address of the `listening on ADDRESS` line, once printed (at most a minute).
    pub fn listening(&self) -> SocketAddr {
        let started = Instant::now();
        loop {
            let logs = self.logs();
            if let Some(address) = logs.lines().find_map(|l| l.strip_prefix("listening on ")) {
                return address.trim().parse().expect("an address");
            }
            assert!(self.running(), "the container stopped before listening: {logs}");
            assert!(started.elapsed() < Duration::from_secs(60), "the container does not listen: {logs}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The API key the first start printed, alone on its line.
    pub fn first_key(&self) -> String {
        let logs = self.logs();
        let keys: Vec<&str> = logs.lines().map(str::trim).filter(|l| l.starts_with("d2p_")).collect();
        assert_eq!(keys.len(), 1, "one key in the first start's banner: {logs}");
        keys[0].to_owned()
    }

    /// The process id of the container's first process, on the host.
    pub fn pid(&self) -> u32 {
        self.podman.text(&["inspect", "--format", "{{.State.Pid}}", &self.name]).trim().parse().expect("a pid")
    }

    /// Sends `signal` to the container's first process.
    pub fn signal(&self, signal: &str) {
        self.podman.text(&["kill", "--signal", signal, &self.name]);
    }

    /// Waits for the container to exit, at most `limit`, and returns its exit code.
    pub fn wait(&self, limit: Duration) -> i32 {
        let started = Instant::now();
        while self.running() {
            assert!(started.elapsed() < limit, "the container still runs after {limit:?}: {}", self.logs());
            std::thread::sleep(Duration::from_millis(100));
        }
        self.podman.text(&["inspect", "--format", "{{.State.ExitCode}}", &self.name]).trim().parse().expect("an exit code")
    }

    /// `podman exec` of `args` in the container.
    pub fn exec(&self, args: &[&str]) -> Output {
        let mut all = vec!["exec", self.name.as_str()];
        all.extend_from_slice(args);
        self.podman.output(&all)
    }
}

impl Drop for Container<'_> {
    fn drop(&mut self) {
        let _ = self.podman.output(&["rm", "--force", "--volumes", "--time", "0", &self.name]);
    }
}

/// `podman run --rm` of the image with `options` and `args`, to its end.
pub fn run_once(podman: &Podman, options: &[&str], args: &[&str]) -> Output {
    let mut all = vec!["run", "--rm"];
    all.extend_from_slice(options);
    all.push(IMAGE);
    all.extend_from_slice(args);
    podman.output(&all)
}
