//! `cspkit serve`: the web server run as a user would, on a site each test writes itself,
//! asked with plain HTTP/1.1 requests over TCP; and `cspkit serve --export`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a test waits for the server before calling it a hang (not a timing).
const PATIENCE: Duration = Duration::from_secs(20);

/// The page every test site starts with.
const INDEX: &str = "<!doctype html><title>cspkit</title><script src=app.js></script>\n";

/// The text of the file outside the site that no request may read.
const SECRET: &str = "the secret outside the site";

/// A folder of its own under the tests' folder, empty.
fn scratch(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("serve")
        .join(name);
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

/// Writes `bytes` at `path`, creating its folders.
fn put(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// The files of the test site, by path: one of each kind the web build writes.
fn site_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("index.html", INDEX.into()),
        ("app.js", b"postMessage('ready');\n".to_vec()),
        ("worker.mjs", b"export const answer = 42;\n".to_vec()),
        ("style.css", b"body { margin: 0 }\n".to_vec()),
        // A WebAssembly header and bytes that are not UTF-8.
        (
            "engine.wasm",
            vec![0, b'a', b's', b'm', 1, 0, 0, 0, 0xff, 0xfe],
        ),
        ("settings.json", b"{\"n\": 8}\n".to_vec()),
        ("logo.png", vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10]),
        (
            "tree.svg",
            b"<svg xmlns='http://www.w3.org/2000/svg'/>\n".to_vec(),
        ),
        ("minizinc/minizinc.data", vec![7; 1000]),
        (
            "minizinc/minizinc.wasm",
            vec![0, b'a', b's', b'm', 1, 0, 0, 0],
        ),
        ("notes.txt", b"plain text\n".to_vec()),
        ("a b.txt", b"a name with a space\n".to_vec()),
        ("sub/index.html", b"<p>the sub-folder's page</p>\n".to_vec()),
        ("empty/.keep", Vec::new()),
    ]
}

/// Writes the test site into a scratch folder named `name` (the site is its `site/`), with
/// a secret file beside the site (`../secret.txt` from it) and, on Unix, a link in the site
/// to that secret (`leak.txt`) and one to its own sub-folder (`also-sub`). Returns the site.
fn make_site(name: &str) -> PathBuf {
    let root = scratch(name);
    let site = root.join("site");
    for (path, bytes) in site_files() {
        put(&site.join(path), bytes);
    }
    put(&root.join("secret.txt"), SECRET);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("secret.txt"), site.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink("sub", site.join("also-sub")).unwrap();
    }
    site
}

/// A running `cspkit serve`, killed when dropped (a failing test leaves nothing running).
struct Running {
    child: Child,
    /// The address printed on the first line.
    url: String,
    /// The server's address, from that line.
    address: SocketAddr,
    /// The lines printed on standard output after the first.
    stdout: Receiver<String>,
    /// Everything printed on standard error so far.
    stderr: Arc<Mutex<String>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    /// Waits for the server to end (failing after [`PATIENCE`]); returns its exit code and
    /// the rest of its standard output.
    fn wait_for_end(&mut self) -> (Option<i32>, String) {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < PATIENCE,
                "the server still runs after {PATIENCE:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut rest = String::new();
        while let Ok(line) = self.stdout.recv_timeout(PATIENCE) {
            rest += &line;
        }
        (status.code(), rest)
    }

    /// What it printed on standard error so far.
    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

/// `cspkit` with these arguments.
fn cspkit(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cspkit"));
    command.args(args);
    command
}

/// Starts `command` (a `cspkit serve`) and reads the address it prints first.
fn start(mut command: Command) -> Running {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A program copied by this test can still be open for writing in a process another test
    // thread is forking at that moment ("text file busy"): try again until it is closed.
    let mut tries = 0;
    let mut child = loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            spawned => break spawned.unwrap(),
        }
    };
    let (send, stdout) = channel();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        loop {
            let mut line = String::new();
            match out.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if send.send(line).is_err() => return,
                Ok(_) => {}
            }
        }
    });
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut err = child.stderr.take().unwrap();
    let written = Arc::clone(&stderr);
    std::thread::spawn(move || {
        let mut buffer = [0; 4096];
        while let Ok(read @ 1..) = err.read(&mut buffer) {
            written
                .lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buffer[..read]));
        }
    });
    let mut running = Running {
        child,
        url: String::new(),
        address: SocketAddr::from(([0, 0, 0, 0], 0)),
        stdout,
        stderr,
    };
    let first = match running.stdout.recv_timeout(PATIENCE) {
        Ok(line) => line,
        Err(RecvTimeoutError::Timeout) => panic!("no address printed in {PATIENCE:?}"),
        Err(RecvTimeoutError::Disconnected) => {
            let (code, _) = running.wait_for_end();
            panic!(
                "the server ended ({code:?}) without an address: {}",
                running.stderr()
            );
        }
    };
    running.url = first.trim_end().to_owned();
    let host_and_port = running
        .url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("not an address: {first:?}"));
    running.address = host_and_port.parse().unwrap();
    running
}

/// `cspkit serve --port 0 --site SITE`, with more arguments, started.
fn serve(site: &Path, more: &[&str]) -> Running {
    let mut command = cspkit(&["serve", "--port", "0", "--site"]);
    command.arg(site).args(more);
    start(command)
}

/// A response, as read from the socket.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    /// The value of the header `name` (in any case), if there is one.
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body as text.
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Connects to `address`, with [`PATIENCE`] for every read and write.
fn connect(address: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&address, PATIENCE).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.set_write_timeout(Some(PATIENCE)).unwrap();
    stream
}

/// Sends `METHOD TARGET HTTP/1.1` (the target exactly as given) and reads the whole answer.
fn ask(address: SocketAddr, method: &str, target: &str) -> Reply {
    let mut stream = connect(address);
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    read_reply(stream)
}

/// Reads a response until the server closes the connection.
fn read_reply(mut stream: TcpStream) -> Reply {
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let split = bytes
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(&bytes)));
    let head = String::from_utf8(bytes[..split].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not a status line: {status_line:?}"));
    let headers = lines
        .map(|line| {
            let (field, value) = line.split_once(':').unwrap();
            (field.to_owned(), value.trim().to_owned())
        })
        .collect();
    Reply {
        status,
        headers,
        body: bytes[split + 4..].to_vec(),
    }
}

/// `GET target`.
fn get(address: SocketAddr, target: &str) -> Reply {
    ask(address, "GET", target)
}

#[test]
fn files_are_served_whole_with_the_content_type_of_their_kind() {
    let site = make_site("types");
    let server = serve(&site, &[]);
    // The types the page needs: WebAssembly.instantiateStreaming refuses a .wasm that is
    // not application/wasm, and module scripts need a JavaScript type.
    let expected = [
        ("index.html", "text/html"),
        ("app.js", "text/javascript"),
        ("worker.mjs", "text/javascript"),
        ("style.css", "text/css"),
        ("engine.wasm", "application/wasm"),
        ("settings.json", "application/json"),
        ("logo.png", "image/png"),
        ("tree.svg", "image/svg+xml"),
        ("minizinc/minizinc.data", "application/octet-stream"),
        ("minizinc/minizinc.wasm", "application/wasm"),
        ("notes.txt", "text/plain"),
    ];
    for (path, kind) in expected {
        let reply = get(server.address, &format!("/{path}"));
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(
            reply.body,
            std::fs::read(site.join(path)).unwrap(),
            "{path}"
        );
        let content_type = reply.header("Content-Type").unwrap();
        assert_eq!(
            content_type.split(';').next().unwrap(),
            kind,
            "{path}: {content_type}"
        );
        let cache = reply.header("Cache-Control");
        if path.ends_with(".html") {
            assert_eq!(cache, Some("no-cache"), "{path}");
        }
    }
}

#[test]
fn head_gives_the_length_of_the_file_and_no_body() {
    let site = make_site("head");
    let server = serve(&site, &[]);
    for path in ["engine.wasm", "index.html", "minizinc/minizinc.data"] {
        let reply = ask(server.address, "HEAD", &format!("/{path}"));
        assert_eq!(reply.status, 200, "{path}");
        let length = std::fs::metadata(site.join(path)).unwrap().len();
        assert_eq!(reply.header("Content-Length"), Some(&*length.to_string()));
        assert!(reply.body.is_empty(), "{path}: {:?}", reply.text());
    }
    assert_eq!(ask(server.address, "HEAD", "/missing.js").status, 404);
}

#[test]
fn the_root_and_a_folder_serve_their_index_and_a_folder_without_its_slash_is_redirected() {
    let site = make_site("index");
    let server = serve(&site, &[]);
    let sub_page = std::fs::read_to_string(site.join("sub/index.html")).unwrap();
    for (target, page) in [
        ("/", INDEX),
        ("/?model=queens&n=8", INDEX),
        ("/index.html", INDEX),
        ("/sub/", &*sub_page),
        ("/sub/?x=1#top", &*sub_page),
        ("/sub//", &*sub_page),
    ] {
        let reply = get(server.address, target);
        assert_eq!((reply.status, &*reply.text()), (200, page), "{target}");
        assert!(
            reply
                .header("Content-Type")
                .unwrap()
                .starts_with("text/html"),
            "{target}"
        );
    }
    let reply = get(server.address, "/sub");
    assert_eq!(reply.status, 301);
    assert_eq!(reply.header("Location"), Some("/sub/"));
    // A folder without an index.html: no listing.
    assert_eq!(get(server.address, "/empty/").status, 404);
    assert_eq!(get(server.address, "/minizinc/").status, 404);
}

#[test]
fn a_query_string_is_ignored_and_a_percent_encoded_path_is_decoded() {
    let site = make_site("decode");
    let server = serve(&site, &[]);
    let reply = get(server.address, "/app.js?v=3");
    assert_eq!(reply.body, std::fs::read(site.join("app.js")).unwrap());
    let reply = get(server.address, "/a%20b.txt");
    assert_eq!(
        (reply.status, &*reply.text()),
        (200, "a name with a space\n")
    );
    let reply = get(server.address, "/%61pp%2Ejs");
    assert_eq!(reply.body, std::fs::read(site.join("app.js")).unwrap());
}

#[test]
fn a_missing_file_is_404_and_a_method_other_than_get_and_head_is_405() {
    let site = make_site("status");
    let server = serve(&site, &[]);
    for target in [
        "/missing.js",
        "/sub/missing.html",
        "/app.js/more",
        "/minizinc/x.wasm",
    ] {
        assert_eq!(get(server.address, target).status, 404, "{target}");
    }
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
        let reply = ask(server.address, method, "/index.html");
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("Allow"), Some("GET, HEAD"), "{method}");
    }
}

#[test]
fn a_path_that_is_not_percent_encoded_utf8_is_400() {
    let site = make_site("bad-request");
    let server = serve(&site, &[]);
    for target in ["/%zz", "/%", "/app.js%4", "/%c3%28", "/%ff.js", "app.js"] {
        assert_eq!(get(server.address, target).status, 400, "{target}");
    }
}

#[test]
fn no_request_reads_a_file_outside_the_site() {
    let site = make_site("escape");
    let outside = site.parent().unwrap().join("secret.txt");
    // The file the requests aim at is there and readable: only the server can refuse it.
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), SECRET);
    let server = serve(&site, &[]);
    let forbidden = [
        "/../secret.txt",
        "/sub/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/..%2fsecret.txt",
        "/.%2e/secret.txt",
        "/..%5csecret.txt",
        "/sub%5c..%5c..%5csecret.txt",
        "/index.html%00.js",
        "/c:/secret.txt",
    ];
    for target in forbidden {
        let reply = get(server.address, target);
        assert_eq!(reply.status, 403, "{target}");
        assert!(!reply.text().contains(SECRET), "{target}");
    }
    // An encoded slash is part of a name, never a separator: no folder is reached through it.
    for target in ["/sub%2findex.html", "/sub%2F", "/sub%2f"] {
        let reply = get(server.address, target);
        assert_eq!(reply.status, 403, "{target}");
    }
    // An absolute path is a path inside the site.
    let absolute = format!("/{}", outside.display());
    let reply = get(server.address, &absolute);
    assert_eq!(reply.status, 404, "{absolute}");
    assert!(!reply.text().contains(SECRET));
    #[cfg(unix)]
    {
        let reply = get(server.address, "/leak.txt");
        assert_eq!(reply.status, 403);
        assert!(!reply.text().contains(SECRET));
        // A link that stays inside the site is followed.
        let reply = get(server.address, "/also-sub/index.html");
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.body,
            std::fs::read(site.join("sub/index.html")).unwrap()
        );
    }
}

#[test]
fn a_large_download_in_progress_does_not_hold_up_other_requests() {
    let site = make_site("large");
    // Larger than what the sockets' buffers take, so that the server is stuck writing it
    // while its reader reads nothing.
    let large: Vec<u8> = (0..24_000_000u32).map(|i| (i % 251) as u8).collect();
    put(&site.join("minizinc/large.wasm"), &large);
    let server = serve(&site, &[]);
    let mut downloads = Vec::new();
    for _ in 0..2 {
        let mut stream = connect(server.address);
        write!(
            stream,
            "GET /minizinc/large.wasm HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        downloads.push(stream);
    }
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let reply = get(server.address, "/index.html");
    assert_eq!((reply.status, &*reply.text()), (200, INDEX));
    assert!(started.elapsed() < PATIENCE);
    for stream in downloads {
        let reply = read_reply(stream);
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.header("Content-Length"),
            Some(&*large.len().to_string())
        );
        assert!(reply.body == large, "the download differs from the file");
    }
}

#[test]
fn the_server_listens_on_loopback_and_prints_its_address_first() {
    let site = make_site("loopback");
    let server = serve(&site, &[]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    assert_ne!(server.address.port(), 0);
    assert!(server.address.ip().is_loopback());
    assert!(!server.stderr().contains("warning"), "{}", server.stderr());
    assert_eq!(get(server.address, "/").status, 200);
}

#[test]
fn binding_to_every_address_warns_that_others_can_see_the_site() {
    let site = make_site("bind");
    let server = serve(&site, &["--bind", "0.0.0.0"]);
    assert!(server.url.starts_with("http://0.0.0.0:"), "{}", server.url);
    // The warning comes right after the address: give it the time to arrive.
    let started = Instant::now();
    while !server.stderr().contains("visible to other machines") {
        assert!(
            started.elapsed() < PATIENCE,
            "no warning: {}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_port_in_use_is_an_error_that_names_port_0() {
    let site = make_site("port-taken");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = cspkit(&["serve", "--port", &port, "--site"])
        .arg(&site)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&port), "{stderr}");
    assert!(stderr.contains("--port 0"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[cfg(unix)]
#[test]
fn sigterm_and_ctrl_c_stop_the_server_cleanly_with_exit_code_0() {
    let site = make_site("signals");
    for signal in ["TERM", "INT"] {
        let mut server = serve(&site, &[]);
        assert_eq!(get(server.address, "/").status, 200);
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(server.child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let (code, rest) = server.wait_for_end();
        assert_eq!(code, Some(0), "SIG{signal}: {}", server.stderr());
        assert_eq!(rest, "stopped: 1 request answered\n", "SIG{signal}");
    }
}

#[test]
fn requests_are_logged_on_standard_error_only_with_verbose() {
    let site = make_site("verbose");
    let quiet = serve(&site, &[]);
    let loud = serve(&site, &["--verbose"]);
    for server in [&quiet, &loud] {
        assert_eq!(get(server.address, "/app.js").status, 200);
        assert_eq!(get(server.address, "/nothing-here").status, 404);
    }
    let started = Instant::now();
    while !loud.stderr().contains("GET /nothing-here 404") {
        assert!(
            started.elapsed() < PATIENCE,
            "not logged: {}",
            loud.stderr()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        loud.stderr().contains("GET /app.js 200"),
        "{}",
        loud.stderr()
    );
    assert!(!quiet.stderr().contains("/app.js"), "{}", quiet.stderr());
}

#[test]
fn a_site_without_an_index_is_an_error_naming_the_build_command_and_the_folder() {
    let empty = scratch("no-site");
    let output = cspkit(&["serve", "--port", "0", "--site"])
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bash web/build.sh"), "{stderr}");
    assert!(stderr.contains(&*empty.display().to_string()), "{stderr}");
    assert!(stderr.contains("--site"), "{stderr}");
    assert!(output.stdout.is_empty());
    // The same from the environment variable, which is then the only place looked at.
    let output = cspkit(&["serve", "--port", "0"])
        .env("CSPKIT_SITE", &empty)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("CSPKIT_SITE"), "{stderr}");
    assert!(stderr.contains(&*empty.display().to_string()), "{stderr}");
    assert!(stderr.contains("bash web/build.sh"), "{stderr}");
}

#[test]
fn the_environment_variable_names_the_site_and_site_overrides_it() {
    let site = make_site("variable");
    let other = scratch("variable-other");
    put(&other.join("index.html"), "<p>the other site</p>\n");
    let mut command = cspkit(&["serve", "--port", "0"]);
    command.env("CSPKIT_SITE", &site);
    let server = start(command);
    assert_eq!(get(server.address, "/").text(), INDEX);
    let mut command = cspkit(&["serve", "--port", "0", "--site"]);
    command.arg(&other).env("CSPKIT_SITE", &site);
    let server = start(command);
    assert_eq!(get(server.address, "/").text(), "<p>the other site</p>\n");
}

#[test]
fn without_a_site_named_the_web_build_output_or_the_folder_beside_the_program_is_served() {
    // A copy of the program with a site beside it. The web build's output (web/dist/ of this
    // source tree) comes first, when it has been built.
    let folder = scratch("beside");
    let program = folder.join(format!("cspkit{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_cspkit"), &program).unwrap();
    put(
        &folder.join("cspkit-site/index.html"),
        "<p>the installed site</p>\n",
    );
    let web_build = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist/index.html");
    let expected = match std::fs::read_to_string(&web_build) {
        Ok(page) => page,
        Err(_) => "<p>the installed site</p>\n".to_owned(),
    };
    let mut command = Command::new(&program);
    command
        .args(["serve", "--port", "0"])
        .env_remove("CSPKIT_SITE");
    let server = start(command);
    assert_eq!(get(server.address, "/").text(), expected);
    drop(server);
    // Without the folder beside it, only the web build's output is left.
    std::fs::remove_dir_all(folder.join("cspkit-site")).unwrap();
    let mut command = Command::new(&program);
    command
        .args(["serve", "--port", "0"])
        .env_remove("CSPKIT_SITE");
    if web_build.is_file() {
        let server = start(command);
        assert_eq!(
            get(server.address, "/").body,
            std::fs::read(&web_build).unwrap()
        );
    } else {
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("bash web/build.sh"), "{stderr}");
        assert!(stderr.contains("web/dist"), "{stderr}");
        assert!(stderr.contains("cspkit-site"), "{stderr}");
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn open_hands_the_address_to_the_browser_and_a_failure_to_open_is_only_a_warning() {
    use std::os::unix::fs::PermissionsExt as _;
    let site = make_site("open");
    let tools = scratch("open-tools");
    let opened = tools.join("opened.txt");
    let script = tools.join("xdg-open");
    put(
        &script,
        format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", opened.display()),
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = cspkit(&["serve", "--port", "0", "--open", "--site"]);
    command.arg(&site).env("PATH", &tools);
    let server = start(command);
    let started = Instant::now();
    while !opened.exists() {
        assert!(started.elapsed() < PATIENCE, "the browser was not opened");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(std::fs::read_to_string(&opened).unwrap(), server.url);
    // No browser to open: a warning, and the server serves all the same.
    let nothing = scratch("open-nothing");
    let mut command = cspkit(&["serve", "--port", "0", "--open", "--site"]);
    command.arg(&site).env("PATH", &nothing);
    let server = start(command);
    assert_eq!(get(server.address, "/").status, 200);
    let started = Instant::now();
    while !server.stderr().contains("warning: cannot open a browser") {
        assert!(
            started.elapsed() < PATIENCE,
            "no warning: {}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(server.stderr().contains(&server.url), "{}", server.stderr());
}

/// Every file under `folder`, as its path relative to it (with `/`) and its bytes, in order.
fn files_under(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(relative) = folders.pop() {
        for entry in std::fs::read_dir(folder.join(&relative)).unwrap() {
            let entry = entry.unwrap();
            let path = relative.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                folders.push(path);
            } else {
                let name = path.to_string_lossy().replace('\\', "/");
                files.push((name, std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn export_writes_a_copy_of_every_file_and_says_how_much() {
    let root = scratch("export");
    let site = root.join("site");
    for (path, bytes) in site_files() {
        put(&site.join(path), bytes);
    }
    let destination = root.join("out/course-page");
    let output = cspkit(&["serve", "--export"])
        .arg(&destination)
        .arg("--site")
        .arg(&site)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let written = files_under(&destination);
    let expected: Vec<(String, Vec<u8>)> = {
        let mut files: Vec<_> = site_files()
            .into_iter()
            .map(|(path, bytes)| (path.to_owned(), bytes))
            .collect();
        files.sort();
        files
    };
    assert_eq!(written, expected);
    let bytes: usize = expected.iter().map(|(_, bytes)| bytes.len()).sum();
    let summary = stdout.lines().last().unwrap();
    assert!(
        summary.starts_with(&format!("wrote {} files, {bytes} bytes", expected.len())),
        "{stdout}"
    );
    for (path, _) in &expected {
        assert!(
            stdout
                .lines()
                .any(|line| line.ends_with(&format!("  {path}"))),
            "{path} not listed: {stdout}"
        );
    }
}

#[cfg(unix)]
#[test]
fn export_leaves_out_a_link_that_leads_out_of_the_site() {
    let site = make_site("export-links");
    let destination = site.parent().unwrap().join("out");
    let output = cspkit(&["serve", "--export"])
        .arg(&destination)
        .arg("--site")
        .arg(&site)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(!destination.join("leak.txt").exists());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("leak.txt"), "{stderr}");
    // The link inside the site is copied as what it shows.
    assert_eq!(
        std::fs::read(destination.join("also-sub/index.html")).unwrap(),
        std::fs::read(site.join("sub/index.html")).unwrap()
    );
}

#[test]
fn export_refuses_a_folder_that_is_not_empty_unless_forced() {
    let root = scratch("export-full");
    let site = root.join("site");
    put(&site.join("index.html"), INDEX);
    let destination = root.join("out");
    put(&destination.join("course.txt"), "the course's own file\n");
    let export = |force: bool| {
        let mut command = cspkit(&["serve", "--export"]);
        command.arg(&destination).arg("--site").arg(&site);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    let output = export(false);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not empty"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(!destination.join("index.html").exists());
    let output = export(true);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(destination.join("index.html")).unwrap(),
        INDEX
    );
    assert_eq!(
        std::fs::read_to_string(destination.join("course.txt")).unwrap(),
        "the course's own file\n"
    );
}

#[cfg(unix)]
#[test]
fn export_never_writes_into_the_site_through_a_link_in_the_folder() {
    let root = scratch("export-through-links");
    let site = root.join("site");
    put(&site.join("index.html"), INDEX);
    put(&site.join("sub/index.html"), "the sub page\n");
    let export = |destination: &Path| {
        cspkit(&["serve", "--force", "--export"])
            .arg(destination)
            .arg("--site")
            .arg(&site)
            .output()
            .unwrap()
    };
    // A file of the folder linked to the site's own file: the link is replaced, the site's
    // file is left whole.
    let linked_file = root.join("out-file");
    std::fs::create_dir_all(&linked_file).unwrap();
    std::os::unix::fs::symlink(site.join("index.html"), linked_file.join("index.html")).unwrap();
    let output = export(&linked_file);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(site.join("index.html")).unwrap(),
        INDEX
    );
    assert!(
        !std::fs::symlink_metadata(linked_file.join("index.html"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(linked_file.join("index.html")).unwrap(),
        INDEX
    );
    // A folder of the folder linked to a folder of the site: refused before anything is written.
    let linked_folder = root.join("out-folder");
    std::fs::create_dir_all(&linked_folder).unwrap();
    std::os::unix::fs::symlink(site.join("sub"), linked_folder.join("sub")).unwrap();
    let output = export(&linked_folder);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("leads into the site"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(site.join("sub/index.html")).unwrap(),
        "the sub page\n"
    );
    assert!(
        !linked_folder.join("index.html").exists(),
        "a file was written before the refusal"
    );
}

#[test]
fn export_refuses_a_folder_inside_the_site() {
    let root = scratch("export-inside");
    let site = root.join("site");
    put(&site.join("index.html"), INDEX);
    for destination in [
        site.join("copy"),
        site.clone(),
        site.join("sub/../copy"),
        root.join("site/./deeper/copy"),
    ] {
        let output = cspkit(&["serve", "--force", "--export"])
            .arg(&destination)
            .arg("--site")
            .arg(&site)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", destination.display());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("inside"), "{stderr}");
    }
    assert_eq!(
        files_under(&site).len(),
        1,
        "something was written in the site"
    );
}
