"""The baseline for bench/ingest.py: a WSGI app that only reads the body and says ok."""


def application(environ, start_response):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    environ["wsgi.input"].read(length)
    body = b"<html><body><h1>ok</h1></body></html>\n"
    start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))])
    return [body]
