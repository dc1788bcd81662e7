#!/usr/bin/env python3
"""cm.yml against a local stub of the Cloudera Manager endpoints it calls (no CM can run here).

  cm_stub_test.py --plugins DIR --work DIR

The stub keeps role config group settings in memory and answers GET/PUT .../roleConfigGroups/{g}/config,
POST .../roleCommands/restart and GET /commands/{id} in the shapes of docs/reference/cloudera-manager.md, and checks HTTP Basic
auth. Proves, with a real ansible-playbook run over two hosts (local connection): plugins land in plugins.d/flafka;
agent_config_file is byte for byte the shared edge template rendered by scripts/render.py (Ansible's settings)
with the host's variables; agent_name is set; the restart is posted and its command polled; --check changes nothing
on the stub; a second run PUTs nothing and restarts nothing. NOT proven: that a real CM accepts these requests
(the CM client module's contract tests validate the same shapes against the v32 OpenAPI spec), or CM's own restart.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ANSIBLE_DIR = os.path.join(REPO, "ansible")
ANSIBLE_PLAYBOOK = os.path.join(REPO, ".venv", "ansible", "bin", "ansible-playbook")
PASSWORD = "stub-secret"
GROUP_PATH = "/api/v19/clusters/cluster1/services/flume/roleConfigGroups/flume-AGENT-site"


class Stub(BaseHTTPRequestHandler):
    settings = {}
    requests = []

    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorised(self):
        expected = "Basic " + base64.b64encode(f"admin:{PASSWORD}".encode()).decode()
        if self.headers.get("Authorization") != expected:
            self.reply(401, {"message": "Bad credentials"})
            return False
        return True

    def do_GET(self):
        Stub.requests.append(("GET", self.path, None))
        if not self.authorised():
            return
        group, _, _ = self.path.partition("/config")
        if self.path.startswith("/api/v19/commands/"):
            self.reply(200, {"id": 7, "name": "Restart", "active": False, "success": True})
        elif self.path.endswith("/config?view=summary"):
            items = [{"name": k, "value": v} for k, v in Stub.settings.get(group, {}).items()]
            self.reply(200, {"items": items})
        else:
            self.reply(404, {"message": f"no such path {self.path}"})

    def do_PUT(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Stub.requests.append(("PUT", self.path, body))
        if not self.authorised():
            return
        group = self.path.partition("/config")[0]
        Stub.settings.setdefault(group, {}).update({i["name"]: i["value"] for i in body["items"]})
        self.reply(200, {"items": body["items"]})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Stub.requests.append(("POST", self.path, body))
        if not self.authorised():
            return
        self.reply(200, {"errors": [], "items": [{"id": 7, "name": "Restart", "active": True}]})


def check(condition, message):
    if not condition:
        print(f"cm stub test FAILED: {message}", file=sys.stderr)
        sys.exit(1)


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugins", required=True, help="staged plugins.d/flafka of agents/dist")
    parser.add_argument("--work", required=True)
    args = parser.parse_args(argv[1:])
    if not os.access(ANSIBLE_PLAYBOOK, os.X_OK):
        print(f"cm stub test: {ANSIBLE_PLAYBOOK} not found: run scripts/setup", file=sys.stderr)
        return 1
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    hosts = {"cm-edge-1": "site-a", "cm-edge-2": "site-a"}
    inventory = {"all": {"children": {"cm_flume_agents": {
        "hosts": {h: {"flafka_cm_plugins_dir": os.path.join(work, h, "plugins.d")} for h in hosts},
        "vars": {"ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}",
                 "flafka_cm_url": url, "flafka_cm_validate_certs": False, "flafka_cm_plugins_src": os.path.abspath(args.plugins),
                 "flafka_cm_role_config_group": "flume-AGENT-site", "flafka_cm_restart_roles": ["flume-AGENT-1"],
                 "flafka_cm_command_poll_delay": 1, "site": "site-a",
                 "kafka_bootstrap_servers": "kafka-1:9092"}}}}}
    inventory_file = os.path.join(work, "hosts.json")
    with open(inventory_file, "w", encoding="utf-8") as f:
        json.dump(inventory, f)
    env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(ANSIBLE_DIR, "ansible.cfg"), ANSIBLE_NOCOLOR="1")

    def playbook(*extra):
        result = subprocess.run([ANSIBLE_PLAYBOOK, "-i", inventory_file, "cm.yml", "-e",
                                 json.dumps({"flafka_cm_password": PASSWORD}), *extra],
                                cwd=ANSIBLE_DIR, env=env, capture_output=True, text=True, check=False)
        check(result.returncode == 0, f"cm.yml {' '.join(extra)} failed:\n{result.stdout[-3000:]}")
        check(PASSWORD not in result.stdout + result.stderr, "the CM password appears in Ansible's output")
        return result.stdout

    playbook("--check")
    check(not [r for r in Stub.requests if r[0] != "GET"], f"--check sent changes to CM: {Stub.requests}")
    playbook()
    puts = [r for r in Stub.requests if r[0] == "PUT"]
    check(puts and all(r[1].startswith(GROUP_PATH + "/config?message=") for r in puts), f"PUTs: {puts}")
    with open(os.path.join(work, "vars.json"), "w", encoding="utf-8") as f:
        json.dump({"site": "site-a", "kafka_bootstrap_servers": "kafka-1:9092"}, f)
    templates = os.path.join(REPO, "agents", "edge", "templates")
    expected = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "render.py"),
                               os.path.join(templates, "edge.properties.j2"),
                               os.path.join(templates, "edge-defaults.yml"), os.path.join(work, "vars.json")],
                              capture_output=True, text=True, check=True).stdout
    stored = Stub.settings[GROUP_PATH]
    check(stored.get("agent_name") == "edge", f"agent_name is {stored.get('agent_name')}")
    check(stored.get("agent_config_file") == expected,
          "agent_config_file differs from scripts/render.py's rendering of the shared edge template")
    check(any(r[0] == "POST" and r[1].endswith("/services/flume/roleCommands/restart")
              and r[2] == {"items": ["flume-AGENT-1"]} for r in Stub.requests), "no role restart was posted")
    check(any(r[1] == "/api/v19/commands/7" for r in Stub.requests), "the restart command was not polled")
    for host in hosts:
        plugin_lib = os.path.join(work, host, "plugins.d", "flafka", "lib")
        check(sorted(os.listdir(plugin_lib)) == sorted(os.listdir(os.path.join(os.path.abspath(args.plugins), "lib"))),
              f"{plugin_lib} does not hold the plugins")
    count = len(Stub.requests)
    output = playbook()
    again = [r for r in Stub.requests[count:] if r[0] != "GET"]
    check(not again, f"second run changed CM: {again}")
    check("changed=0" in output and "changed=1" not in output, "second run reported changes")
    print("cm stub test passed: plugins pushed, agent_config_file = shared template rendering, restart polled, "
          "--check and second run change nothing")
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
