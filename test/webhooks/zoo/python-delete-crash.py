"""The zoo: the Python webhook of test/webhooks/python-webhook.py with one bug. It reads the labels of
request["object"], which is null on DELETE; the exception ends the handler, and http.server closes
the connection without an answer (breaks delete-handled)."""
import json
import os
import ssl
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        request = review.get("request") or {}
        labels = request["object"]["metadata"].get("labels") or {}
        response = {"uid": request.get("uid"), "allowed": True}
        if "forbidden" in labels:
            response = {"uid": request.get("uid"), "allowed": False, "status": {"code": 403, "message": "label forbidden is not allowed"}}
        body = json.dumps({"apiVersion": review["apiVersion"], "kind": "AdmissionReview", "response": response}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.environ["TLS_CERT_FILE"], os.environ["TLS_KEY_FILE"])
server = HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
