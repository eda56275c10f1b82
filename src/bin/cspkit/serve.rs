//! `cspkit serve`: the browser page (the live search) on a local web server, or copied out as
//! a static site.
//!
//! The site is the output of the web build (`bash web/build.sh`, which writes `web/dist/`):
//! an `index.html`, its scripts, styles and `.wasm`, and a `minizinc/` folder the page loads
//! only when a MiniZinc model is used. It is not embedded in the program (`cargo build` needs
//! neither node nor the WebAssembly target); it is found, in this order, at `--site DIR`, at
//! the folder the environment variable `CSPKIT_SITE` names, at `web/dist/` of the source tree
//! the program was built from, and at `cspkit-site/` beside the program. A folder given by
//! `--site` or `CSPKIT_SITE` is the only one tried; without an `index.html` there, or in
//! neither default place, the command fails naming where it looked and the command that
//! builds the site.
//!
//! Serving: the server (the `tiny_http` crate) listens on 127.0.0.1 unless `--bind` names
//! another address (anything but loopback earns a warning: the site is then visible to other
//! machines), on port 7878 unless `--port` says otherwise (`--port 0`: a free port). The
//! first line on standard output is the page's address, for a person or a script to read;
//! `--open` opens it in the default browser. Ctrl-C or SIGTERM stop the server, which prints a
//! last line and exits with 0. Requests are not logged unless `--verbose` is given (one line
//! each, on standard error).
//!
//! What a request gets: GET and HEAD serve files, with their content type (`application/wasm`
//! for `.wasm`, as `WebAssembly.instantiateStreaming` requires) and `Cache-Control: no-cache`
//! on HTML; `/` and a folder's path serve its `index.html` (a folder named without its final
//! `/` is redirected to it, so that the page's relative links work); the query is ignored.
//! Other methods get 405, a path that is not valid percent-encoded UTF-8 gets 400, a path
//! that would leave the site (a `..` segment, encoded or not, a backslash, a NUL, a colon, or
//! a symbolic link to a file outside) gets 403, and a missing file 404. Files are streamed
//! from disk, by a few worker threads, so that a large download does not hold up the others.
//!
//! `--export DIR` copies the site into DIR instead, for any static host: every file, the
//! folders created, into a folder that is new or empty (`--force` writes into one that is not)
//! and not inside the site.

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

use crate::args::ServeArgs;
use crate::limits::interrupt;
use crate::output::{bad_input, exit};

/// The command that builds the site, named by every error about a missing one.
const BUILD_COMMAND: &str = "bash web/build.sh";

/// The environment variable that names the site's folder.
const SITE_VARIABLE: &str = "CSPKIT_SITE";

/// The folder beside the program where an installed copy of the site may be.
const SITE_BESIDE_PROGRAM: &str = "cspkit-site";

/// The threads answering requests: one large download holds up only one of them.
const WORKERS: usize = 4;

/// How often a waiting worker looks whether the server is to stop.
const POLL: Duration = Duration::from_millis(50);

/// Runs `cspkit serve`: finds the site, then serves or exports it. Returns the exit code.
pub(crate) fn run(args: &ServeArgs) -> u8 {
    let site = match find_site(args.site.as_deref()) {
        Ok(site) => site,
        Err(message) => return bad_input(message),
    };
    match &args.export {
        Some(destination) => export(&site, destination, args.force),
        None => serve(&site, args),
    }
}

/// The site's folder, canonical: the first of the places to look (see the module's docs) that
/// holds an `index.html`, or a message naming where it looked and how to build the site.
fn find_site(chosen: Option<&Path>) -> Result<PathBuf, String> {
    let from_variable = std::env::var_os(SITE_VARIABLE).filter(|value| !value.is_empty());
    let (places, told_by): (Vec<PathBuf>, Option<String>) = match (chosen, from_variable) {
        (Some(dir), _) => (vec![dir.to_path_buf()], Some("--site".to_owned())),
        (None, Some(dir)) => (vec![PathBuf::from(dir)], Some(SITE_VARIABLE.to_owned())),
        (None, None) => {
            let mut places = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist")];
            if let Some(folder) = std::env::current_exe().ok().and_then(|program| {
                program
                    .parent()
                    .map(|folder| folder.join(SITE_BESIDE_PROGRAM))
            }) {
                places.push(folder);
            }
            (places, None)
        }
    };
    for place in &places {
        if place.join("index.html").is_file() {
            return place
                .canonicalize()
                .map_err(|error| format!("cannot open the site {}: {error}", place.display()));
        }
    }
    let looked: Vec<String> = places
        .iter()
        .map(|place| place.display().to_string())
        .collect();
    Err(match told_by {
        Some(flag) => format!(
            "no site to serve: {} (given by {flag}) has no index.html; `{BUILD_COMMAND}` in \
             the cspkit repository builds the site into web/dist/",
            looked.join(", ")
        ),
        None => format!(
            "no site to serve: no index.html in {}; `{BUILD_COMMAND}` in the cspkit \
             repository builds the site into web/dist/ (or give its folder with --site DIR \
             or {SITE_VARIABLE})",
            looked.join(" nor in ")
        ),
    })
}

/// Serves `site` until Ctrl-C or SIGTERM. Returns the exit code.
fn serve(site: &Path, args: &ServeArgs) -> u8 {
    let listener = match TcpListener::bind(SocketAddr::new(args.bind, args.port)) {
        Ok(listener) => listener,
        Err(error) if error.kind() == io::ErrorKind::AddrInUse => {
            return bad_input(format_args!(
                "cannot listen on {}: {error} (another program has the port; --port 0 picks \
                 a free one)",
                SocketAddr::new(args.bind, args.port)
            ));
        }
        Err(error) => {
            return bad_input(format_args!(
                "cannot listen on {}: {error}",
                SocketAddr::new(args.bind, args.port)
            ));
        }
    };
    let address = match listener.local_addr() {
        Ok(address) => address,
        Err(error) => return bad_input(format_args!("cannot listen: {error}")),
    };
    let server = match Server::from_listener(listener, None) {
        Ok(server) => Arc::new(server),
        Err(error) => return bad_input(format_args!("cannot serve on {address}: {error}")),
    };
    // The signal handler is in place before the address is printed: a script that reads the
    // address may stop the server at once.
    let stop = interrupt();
    let url = format!("http://{address}/");
    {
        let mut stdout = io::stdout().lock();
        let _ = writeln!(stdout, "{url}");
        let _ = stdout.flush();
    }
    note!(
        "cspkit: serving {} at {url} (Ctrl-C stops it)",
        site.display()
    );
    if !address.ip().is_loopback() {
        note!(
            "cspkit: warning: listening on {}, not on loopback: the site is visible to other \
             machines on the network",
            address.ip()
        );
    }
    if args.open {
        open_in_browser(&browser_url(address));
    }
    let served = Arc::new(AtomicU64::new(0));
    for number in 0..WORKERS {
        let (server, served, site) = (Arc::clone(&server), Arc::clone(&served), site.to_owned());
        let verbose = args.verbose;
        let spawned = std::thread::Builder::new()
            .name(format!("serve-{number}"))
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match server.recv_timeout(POLL) {
                        Ok(Some(request)) => {
                            served.fetch_add(1, Ordering::Relaxed);
                            answer(request, &site, verbose);
                        }
                        Ok(None) => {}
                        Err(error) => {
                            if verbose {
                                note!("cspkit: a connection failed: {error}");
                            }
                            std::thread::sleep(POLL);
                        }
                    }
                }
            });
        if let Err(error) = spawned {
            return bad_input(format_args!("cannot start a server thread: {error}"));
        }
    }
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
    }
    // A download still under way ends with the program.
    let mut stdout = io::stdout().lock();
    let _ = writeln!(
        stdout,
        "stopped: {} answered",
        crate::output::counted(served.load(Ordering::Relaxed), "request")
    );
    let _ = stdout.flush();
    exit::SOLVED
}

/// The address a browser opens: the server's, or loopback if it listens on every address.
fn browser_url(address: SocketAddr) -> String {
    let ip = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1]),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, address.port()))
}

/// Opens `url` in the default browser; a failure is a warning, the server goes on.
fn open_in_browser(url: &str) {
    let (program, leading): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    let launched = std::process::Command::new(program)
        .args(leading)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let warn = |why: &dyn std::fmt::Display| {
        note!("cspkit: warning: cannot open a browser ({program}: {why}); open {url} in one");
    };
    match launched {
        Err(error) => warn(&error),
        Ok(mut child) => {
            let url = url.to_owned();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => note!(
                    "cspkit: warning: cannot open a browser ({program}: {status}); open {url} \
                     in one"
                ),
                _ => {}
            });
        }
    }
}

/// What a request's path names in the site.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A file to send.
    File(PathBuf),
    /// A folder named without its final `/`: the path to send the browser to instead.
    Folder(String),
}

/// Answers one request, and logs it on standard error if `verbose`.
fn answer(request: Request, site: &Path, verbose: bool) {
    let method = request.method().clone();
    let url = request.url().to_owned();
    let response = match method {
        Method::Get | Method::Head => match resolve(site, &url) {
            Ok(Target::File(path)) => file_response(&path),
            Ok(Target::Folder(location)) => Response::from_string("")
                .with_status_code(301)
                .with_header(header("Location", &location))
                .boxed(),
            Err(status) => error_response(status),
        },
        _ => error_response(StatusCode(405)).with_header(header("Allow", "GET, HEAD")),
    };
    let status = response.status_code().0;
    let sent = request.respond(response);
    if verbose {
        match sent {
            Ok(()) => note!("{method} {url} {status}"),
            Err(error) => note!("{method} {url} {status} (not sent whole: {error})"),
        }
    }
}

/// The response sending the file at `path`, streamed from disk, with its length.
fn file_response(path: &Path) -> tiny_http::ResponseBox {
    let Ok(file) = File::open(path) else {
        return error_response(StatusCode(404));
    };
    let kind = content_type(path);
    let mut response = Response::from_file(file)
        // The length is known: send it (Content-Length) rather than chunks.
        .with_chunked_threshold(usize::MAX)
        .with_header(header("Content-Type", kind))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    if kind.starts_with("text/html") {
        response.add_header(header("Cache-Control", "no-cache"));
    }
    response.boxed()
}

/// A short plain-text response with `status`.
fn error_response(status: StatusCode) -> tiny_http::ResponseBox {
    Response::from_string(format!("{} {}\n", status.0, status.default_reason_phrase()))
        .with_status_code(status)
        .with_header(header("Content-Type", "text/plain; charset=utf-8"))
        .boxed()
}

/// A response header from two ASCII strings.
fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("the server's header names and values are ASCII")
}

/// The content type of a file, by its extension.
fn content_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json" | "map") => "application/json",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("svg") => "image/svg+xml",
        Some("woff2") => "font/woff2",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file or folder a request target names inside `site` (canonical), or the status that
/// refuses it: 400 for a path that is not percent-encoded UTF-8 starting with `/`, 403 for
/// one that would leave the site, 404 for one that names nothing (or a folder without an
/// `index.html`).
fn resolve(site: &Path, target: &str) -> Result<Target, StatusCode> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Err(StatusCode(400));
    }
    // Split before decoding: an encoded `/` (`%2F`) is part of a name, never a separator.
    let mut segments = Vec::new();
    for raw in path.split('/') {
        let decoded = percent_decode(raw).ok_or(StatusCode(400))?;
        let segment = String::from_utf8(decoded).map_err(|_| StatusCode(400))?;
        match segment.as_str() {
            "" | "." => {}
            ".." => return Err(StatusCode(403)),
            _ if segment.contains(['/', '\\', '\0', ':']) => return Err(StatusCode(403)),
            _ => segments.push(segment),
        }
    }
    let named: PathBuf = segments.iter().collect();
    let found = inside(site, &site.join(named))?;
    if !found.is_dir() {
        return if found.is_file() {
            Ok(Target::File(found))
        } else {
            Err(StatusCode(404))
        };
    }
    if !path.ends_with('/') {
        let mut location = String::new();
        for segment in &segments {
            location.push('/');
            location.push_str(&percent_encode(segment));
        }
        return Ok(Target::Folder(location + "/"));
    }
    let index = inside(site, &found.join("index.html"))?;
    if index.is_file() {
        Ok(Target::File(index))
    } else {
        Err(StatusCode(404))
    }
}

/// `path` with its symbolic links resolved, if it exists (else 404) and is inside `site`
/// (else 403).
fn inside(site: &Path, path: &Path) -> Result<PathBuf, StatusCode> {
    let real = path.canonicalize().map_err(|_| StatusCode(404))?;
    if real.starts_with(site) {
        Ok(real)
    } else {
        Err(StatusCode(403))
    }
}

/// The bytes `text` percent-encodes, or `None` if a `%` is not followed by two hex digits.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            if !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                return None;
            }
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    Some(decoded)
}

/// `segment` percent-encoded for a URL path: every byte but letters, digits and `-._~`.
fn percent_encode(segment: &str) -> String {
    segment
        .bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

/// Copies every file of `site` into `destination` (see the module's docs), printing each
/// file with its size, then the totals. Returns the exit code.
fn export(site: &Path, destination: &Path, force: bool) -> u8 {
    let resolved = match resolved_path(destination) {
        Ok(resolved) => resolved,
        Err(error) => {
            return bad_input(format_args!(
                "cannot export to {}: {error}",
                destination.display()
            ));
        }
    };
    if resolved.starts_with(site) {
        return bad_input(format_args!(
            "cannot export into the site itself: {} is inside {}",
            destination.display(),
            site.display()
        ));
    }
    if destination.exists() {
        if !destination.is_dir() {
            return bad_input(format_args!(
                "cannot export to {}: it is not a folder",
                destination.display()
            ));
        }
        let empty = fs::read_dir(destination).map(|mut entries| entries.next().is_none());
        match empty {
            Ok(true) => {}
            Ok(false) if force => {}
            Ok(false) => {
                return bad_input(format_args!(
                    "{} is not empty: export into a new or empty folder (--force writes into \
                     it, replacing the files of the same names)",
                    destination.display()
                ));
            }
            Err(error) => {
                return bad_input(format_args!(
                    "cannot read {}: {error}",
                    destination.display()
                ));
            }
        }
    }
    let mut files = Vec::new();
    if let Err(error) = list_files(site, site, Path::new(""), &mut files) {
        return bad_input(format_args!(
            "cannot read the site {}: {error}",
            site.display()
        ));
    }
    // A folder of DIR may be a link: never write through one into the site (checked for
    // every file before the first is written).
    for (relative, _) in &files {
        let target = destination.join(relative);
        if target
            .parent()
            .is_some_and(|parent| leads_into(site, parent))
        {
            return bad_input(format_args!(
                "cannot write {}: a symbolic link in {} leads into the site {}",
                target.display(),
                destination.display(),
                site.display()
            ));
        }
    }
    let mut stdout = io::stdout().lock();
    let mut total = 0;
    for (relative, source) in &files {
        let target = destination.join(relative);
        let copied = target
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| replace_link(&target))
            .and_then(|()| fs::copy(source, &target));
        match copied {
            Ok(bytes) => {
                total += bytes;
                let _ = writeln!(stdout, "{bytes:>12}  {}", slashed(relative));
            }
            Err(error) => {
                return bad_input(format_args!("cannot write {}: {error}", target.display()));
            }
        }
    }
    if files.is_empty()
        && let Err(error) = fs::create_dir_all(destination)
    {
        return bad_input(format_args!(
            "cannot write {}: {error}",
            destination.display()
        ));
    }
    let _ = writeln!(
        stdout,
        "wrote {}, {}, into {} (from {})",
        crate::output::counted(files.len() as u64, "file"),
        crate::output::counted(total, "byte"),
        destination.display(),
        site.display()
    );
    let _ = stdout.flush();
    exit::SOLVED
}

/// Adds to `files` every file under `folder` (a folder of `site`, at `relative` from it), as
/// its path relative to the site and its path on disk, in name order. A symbolic link is
/// followed if it stays inside the site, as the server does; one that leaves it is skipped
/// with a warning, and so is a link to a folder that contains it (a cycle).
fn list_files(
    site: &Path,
    folder: &Path,
    relative: &Path,
    files: &mut Vec<(PathBuf, PathBuf)>,
) -> io::Result<()> {
    let mut entries = fs::read_dir(folder)?.collect::<io::Result<Vec<_>>>()?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        let name = relative.join(entry.file_name());
        let real = path.canonicalize()?;
        if !real.starts_with(site) {
            note!(
                "cspkit: warning: {} is a link out of the site: not exported",
                slashed(&name)
            );
        } else if real.is_dir() {
            if folder.canonicalize()?.starts_with(&real) {
                note!(
                    "cspkit: warning: {} is a link to a folder that contains it: not exported",
                    slashed(&name)
                );
            } else {
                list_files(site, &path, &name, files)?;
            }
        } else if real.is_file() {
            files.push((name, real));
        }
    }
    Ok(())
}

/// A relative path with `/` between its parts, as in a URL.
fn slashed(path: &Path) -> String {
    let parts: Vec<_> = path
        .components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// Whether `path`, or the nearest of its folders that exists, is inside `site` once its
/// symbolic links are followed.
fn leads_into(site: &Path, path: &Path) -> bool {
    path.ancestors()
        .find_map(|folder| folder.canonicalize().ok())
        .is_some_and(|real| real.starts_with(site))
}

/// Removes `target` if it is a symbolic link, so that a copy replaces the link instead of
/// writing into the file it points at.
fn replace_link(target: &Path) -> io::Result<()> {
    match fs::symlink_metadata(target) {
        Ok(metadata) if metadata.file_type().is_symlink() => fs::remove_file(target),
        _ => Ok(()),
    }
}

/// `path` made absolute with the links of its existing part resolved, and `.` and `..`
/// applied to the rest: where a folder that may not exist yet would be.
fn resolved_path(path: &Path) -> io::Result<PathBuf> {
    let mut resolved = PathBuf::new();
    for part in std::path::absolute(path)?.components() {
        match part {
            Component::ParentDir => {
                resolved.pop();
            }
            Component::CurDir => {}
            _ => {
                resolved.push(part);
                if let Ok(real) = resolved.canonicalize() {
                    resolved = real;
                }
            }
        }
    }
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_takes_two_hex_digits_and_nothing_else() {
        assert_eq!(percent_decode("/a%20b%2F%2e").unwrap(), b"/a b/.");
        assert_eq!(percent_decode("/%ff").unwrap(), [b'/', 0xff]);
        for bad in ["/%", "/%2", "/%zz", "/%+1", "/%2g"] {
            assert_eq!(percent_decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn percent_encoding_round_trips_through_decoding() {
        for segment in ["plain-name_1.js", "a b", "é?#%", "x/y"] {
            let encoded = percent_encode(segment);
            assert!(!encoded.contains(['/', '?', '#', ' ']), "{encoded}");
            assert_eq!(percent_decode(&encoded).unwrap(), segment.as_bytes());
        }
    }

    #[test]
    fn a_path_that_would_leave_the_site_is_forbidden_before_the_disk_is_read() {
        // The site need not exist: these are refused from their text alone.
        let site = Path::new("/nonexistent-site");
        for target in [
            "/..",
            "/a/../b",
            "/%2e%2e/x",
            "/..%2fx",
            "/.%2E/",
            "/a%5cb",
            "/a%00",
            "/c:x",
        ] {
            assert_eq!(resolve(site, target), Err(StatusCode(403)), "{target}");
        }
        for target in ["x", "*", "/%zz", "/%c3%28", "http://host/"] {
            assert_eq!(resolve(site, target), Err(StatusCode(400)), "{target}");
        }
    }
}
