"""A small CalDAV-shaped server on loopback that asks for a login (Digest or Basic), checks it,
and logs every request it answers, for counting the round trips a login costs.

Usage: login_server.py PORT SCHEME USER PASSWORD LOG
SCHEME is "digest" (RFC 7616, MD5, qop=auth, one nonce for the server's life, each nonce
count used once) or "basic". Each request answered appends one JSON line to LOG:
{"method", "path", "status", "authorization": the scheme the request carried or ""}.
Connections are kept alive (HTTP/1.1). Answers: PROPFIND and REPORT an empty collection
with a sync token, PUT 201 with an ETag, DELETE 204, GET 404.
"""
import base64
import hashlib
import http.server
import json
import secrets
import sys
import threading

PORT, SCHEME, USER, PASSWORD, LOG = (
    int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
REALM = "tasks"
NONCE = secrets.token_hex(16)
LOCK = threading.Lock()
USED = set()
SERIAL = [0]


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def fields(header):
    """The name=value pairs of a Digest header (values quoted or not)."""
    result, rest = {}, header
    while rest:
        rest = rest.lstrip(" ,")
        if "=" not in rest:
            break
        name, rest = rest.split("=", 1)
        if rest.startswith('"'):
            end = rest.index('"', 1)
            value, rest = rest[1:end], rest[end + 1:]
        else:
            value, _, rest = rest.partition(",")
        result[name.strip().lower()] = value.strip()
    return result


def authorized(method, header):
    if SCHEME == "basic":
        if not header.startswith("Basic "):
            return False
        try:
            return base64.b64decode(header[6:]).decode() == "%s:%s" % (USER, PASSWORD)
        except Exception:
            return False
    if not header.startswith("Digest "):
        return False
    given = fields(header[7:])
    if given.get("username") != USER or given.get("realm") != REALM or given.get("nonce") != NONCE:
        return False
    if given.get("qop") != "auth" or "nc" not in given or "cnonce" not in given:
        return False
    key = (given["cnonce"], given["nc"])
    with LOCK:
        if key in USED:
            return False
        USED.add(key)
    first = md5("%s:%s:%s" % (USER, REALM, PASSWORD))
    second = md5("%s:%s" % (method, given.get("uri", "")))
    expected = md5("%s:%s:%s:%s:%s:%s" % (first, NONCE, given["nc"], given["cnonce"], "auth", second))
    return given.get("response") == expected


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self, status, headers=(), body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        header = self.headers.get("Authorization", "")
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({
                    "method": self.command, "path": self.path, "status": status,
                    "authorization": header.split(" ", 1)[0].lower() if header else "",
                }) + "\n")

    def handle_any(self):
        length = int(self.headers.get("Content-Length", "0") or "0")
        if length:
            self.rfile.read(length)
        if not authorized(self.command, self.headers.get("Authorization", "")):
            if SCHEME == "basic":
                challenge = 'Basic realm="%s"' % REALM
            else:
                challenge = 'Digest realm="%s", nonce="%s", qop="auth", algorithm=MD5' % (REALM, NONCE)
            self.answer(401, [("WWW-Authenticate", challenge)])
            return
        xml = [("Content-Type", "application/xml; charset=utf-8")]
        if self.command in ("PROPFIND", "REPORT"):
            body = (
                '<?xml version="1.0" encoding="utf-8"?><D:multistatus xmlns:D="DAV:">'
                '<D:response><D:href>%s</D:href><D:propstat><D:prop><D:getetag>"c"</D:getetag>'
                '<D:resourcetype><D:collection/></D:resourcetype></D:prop>'
                '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>'
                '<D:sync-token>http://example.invalid/sync/1</D:sync-token></D:multistatus>'
                % self.path)
            self.answer(207, xml, body.encode())
        elif self.command == "PUT":
            with LOCK:
                SERIAL[0] += 1
                etag = '"%d"' % SERIAL[0]
            self.answer(201, [("ETag", etag)])
        elif self.command == "DELETE":
            self.answer(204)
        else:
            self.answer(404)

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
server.serve_forever()
