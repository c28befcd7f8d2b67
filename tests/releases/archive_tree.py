"""A small release archive in a directory, laid out like the foundation's archive, with
generated files and checksums computed from them, and a local HTTP server to act as a
mirror of it."""

import hashlib
import threading
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

# A stand-in for an armoured detached signature (the tree is generated, so is this).
SIGNATURE = "-----BEGIN PGP SIGNATURE-----\n\ngenerated for the test\n-----END PGP SIGNATURE-----"


def digest(name, data):
    return hashlib.new(name, data, usedforsecurity=False).hexdigest()


def write_directory(directory, files, lists=("md5", "sha1", "sha256", "sha512"), lie_about=()):
    """Write the files, a .asc beside each, and the checksum lists. Files named in
    ``lie_about`` get a SHA-256 in the list that is not theirs (a corrupt copy)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
        (directory / (name + ".asc")).write_text(SIGNATURE)
    for list_name in lists:
        lines = []
        for name, data in files.items():
            value = digest(list_name, data)
            if list_name == "sha256" and name in lie_about:
                value = digest("sha256", data + b"as published")
            lines.append(f"{value}  ./{name}" if list_name == "md5" else f"{value}  {name}")
        (directory / f"{list_name}sums.txt").write_text("\n".join(lines) + "\n")


def build_archive(root, version="11.4.5"):
    """The archive of one release; returns {file name: bytes} of the files it holds."""
    top = root / f"mariadb-{version}"
    source = {f"mariadb-{version}.tar.gz": b"source " * 1000}
    bintar = {
        f"mariadb-{version}-linux-systemd-x86_64.tar.gz": b"linux binaries " * 2000,
        f"mariadb-{version}-linux-systemd-x86_64-debug.tar.gz": b"debug symbols",
    }
    corrupt = {f"mariadb-{version}-linux-systemd-aarch64.tar.gz": b"truncated download"}
    windows = {
        f"mariadb-{version}-winx64.msi": b"msi " * 300,
        f"mariadb-{version}-winx64.zip": b"zip " * 400,
    }
    write_directory(top / "source", source)
    write_directory(top / "bintar-linux-systemd-x86_64", bintar)
    write_directory(top / "bintar-linux-systemd-aarch64", corrupt, lie_about=corrupt)
    # No sha256sums.txt here: the files are recorded with the digests that are published.
    write_directory(top / "winx64-packages", windows, lists=("md5", "sha512"))
    (top / "repo" / "debian").mkdir(parents=True)
    return {**source, **bintar, **corrupt, **windows}


@contextmanager
def http_mirror(root, port=0):
    """Serve ``root`` on 127.0.0.1 (on ``port``, or a free one) like a mirror's directory
    index; yields the base URL."""

    class QuietHandler(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), partial(QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
