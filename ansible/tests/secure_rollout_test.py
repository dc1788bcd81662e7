#!/usr/bin/env python3
"""Secure rollout test: site.yml against a secure Kafka, secrets from Ansible Vault, nothing of them shown.

Run by `./mvnw verify` (agents/dist, exec-maven-plugin at integration-test) after rollout_test.py:

  secure_rollout_test.py --archive flafka-agent-V.tar.gz --stack-classpath FILE --work DIR

A real KRaft broker with SASL_SSL (GSSAPI through a real KDC, SCRAM-SHA-512) and SSL listeners
(org.flafka.stack.SecureKafkaMain) and three sites, each secured another way:
  ae01  SASL_SSL with SCRAM-SHA-512 (password and trust store password in Vault), and a TLS syslog listener whose
        key store password (in Vault) the role writes to the secrets file, the configuration referring to it;
  ae02  SASL_SSL with GSSAPI (its keytab a Vault-encrypted file);
  ae03  SSL with a client certificate (key store a Vault-encrypted file, its password in Vault);
plus the core host (SCRAM, rendered and placed, not started) and the topic, created over SASL_SSL by an admin user
whose command config and trust store the topic role places. The test makes a vault password file, encrypts every
password with `ansible-vault encrypt_string` (read from stdin) and every key store and keytab with
`ansible-vault encrypt`, and runs site.yml with -vvv --diff. Each step fails the test if it does not hold:
  1. the run succeeds; syslog sent to each site arrives in Kafka (so each secured client logged in), and over TLS
     to ae01 (so its listener read its key store password from the secrets file);
  2. secret files and the Kafka secrets files are mode 0400, the admin's command config 0600, the rendered configs and
     env files 0640, all owned by the user that runs the agents; no rendered configuration holds any password;
  3. no secret (each password, and each keytab and key store as base64) is in the run's output, in an agent log, in
     the command line or environment of any process;
  4. a second run changes nothing and restarts no agent;
  5. a missing password (SCRAM, the TLS listener's) fails the host with the validation's message naming the variable;
     the retired edge_tls_keystore_password fails it naming its replacement; a secret file that cannot be placed
     fails it with a message naming the file (its task's own output is hidden).
Needs Ansible from ansible/requirements.txt in .venv/ansible (scripts/setup), java, a free loopback.
"""
import argparse
import base64
import glob
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rollout_test import (ANSIBLE_DIR, ANSIBLE_PLAYBOOK, RECAP, REPO, TestFailure, check,  # noqa: E402
                          free_base_port)

ANSIBLE_VAULT = os.path.join(REPO, ".venv", "ansible", "bin", "ansible-vault")
SITES = ["ae01", "ae02", "ae03"]
CORE = "core-dc1-01"


def log(message):
    print(f"[secure-rollout-test {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def encodings(secret):
    """The forms a secret can take in text: itself, and its base64 at each of the three alignments it can have inside
    a longer base64 text (the characters that only its own bytes determine)."""
    raw = secret if isinstance(secret, bytes) else secret.encode()
    forms = [] if isinstance(secret, bytes) else [secret]
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + raw).decode()
        # character i encodes bits [6i, 6i + 6) of the input; the secret's bits are [8 shift, 8 (shift + len))
        forms.append(encoded[-(-8 * shift // 6):8 * (shift + len(raw)) // 6])
    return forms


class SecureRollout:
    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.work)
        self.root = os.path.join(self.work, "root")
        self.inventory = os.path.join(self.work, "inventory")
        self.version = re.match(r"flafka-agent-(.+)\.tar\.gz$", os.path.basename(args.archive)).group(1)
        self.home = os.path.join(self.root, "opt", f"flafka-agent-{self.version}")
        self.vault_password_file = os.path.join(self.work, "vault-password")
        self.broker = None
        self.kafka = None
        self.secrets = {}  # name -> str or bytes, everything that must never be shown
        self.run_number = 0

    # --- parts ---------------------------------------------------------------------------------------------------

    def start_broker(self):
        classpath = open(self.args.stack_classpath, encoding="utf-8").read().strip()
        ready = os.path.join(self.work, "secure-kafka.json")
        log_file = open(os.path.join(self.work, "kafka.log"), "w", encoding="utf-8")
        self.broker = subprocess.Popen(
            ["java", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath,
             "org.flafka.stack.SecureKafkaMain", "--dir", os.path.join(self.work, "kafka"), "--ready-file", ready,
             "--scram-user", "edge-ae01", "--scram-user", "core-dc1", "--scram-user", "flafka-admin",
             "--principal", "edge-ae02", "--client-cert", "edge-ae03", "--client-cert", "syslog-ae01",
             "--exit-with-parent"], stdin=subprocess.PIPE, stdout=log_file, stderr=subprocess.STDOUT)
        deadline = time.time() + 180
        while not os.path.exists(ready):
            check(self.broker.poll() is None, f"secure Kafka exited with {self.broker.returncode}; see {log_file.name}")
            check(time.time() < deadline, f"secure Kafka not ready after 180 s; see {log_file.name}")
            time.sleep(0.5)
        self.kafka = json.load(open(ready, encoding="utf-8"))
        for user, password in self.kafka["scram"].items():
            self.secrets[f"SCRAM password of {user}"] = password
        self.secrets["trust store password"] = self.kafka["truststore"]["password"]
        for name, store in self.kafka["keystores"].items():
            self.secrets[f"key store password of {name}"] = store["password"]
            self.secrets[f"key store {name}"] = open(store["path"], "rb").read()
        for principal, keytab in self.kafka["keytabs"].items():
            self.secrets[f"keytab of {principal}"] = open(keytab, "rb").read()
        log(f"secure Kafka: SASL_SSL at {self.kafka['sasl_ssl']}, SSL at {self.kafka['ssl']}")

    def vault_string(self, name, secret):
        result = subprocess.run([ANSIBLE_VAULT, "encrypt_string", "--vault-password-file", self.vault_password_file,
                                 "--stdin-name", name], input=secret, capture_output=True, text=True, check=True)
        return result.stdout.strip()

    def vault_file(self, source, name):
        files = os.path.join(self.inventory, "files")
        os.makedirs(files, exist_ok=True)
        target = os.path.join(files, name)
        shutil.copyfile(source, target)
        subprocess.run([ANSIBLE_VAULT, "encrypt", "--vault-password-file", self.vault_password_file, target],
                       capture_output=True, check=True)
        check(open(target, "rb").read().startswith(b"$ANSIBLE_VAULT;"), f"{target} is not vault-encrypted")
        return target

    def generate_inventory(self):
        with open(self.vault_password_file, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(secrets.token_hex(16) + "\n")
        base = free_base_port(len(SITES), range(len(SITES)))
        self.base_port = base
        subprocess.run([sys.executable, os.path.join(ANSIBLE_DIR, "inventories", "generate.py"), self.inventory,
                        "--test", self.root, "--base-port", str(base), "--kafka", self.kafka["sasl_ssl"],
                        "--archive", self.args.archive, "--version", self.version,
                        "--start", ",".join(SITES), "--sites", str(len(SITES))], check=True)
        truststore = self.vault_file(self.kafka["truststore"]["path"], "truststore.p12")
        java_opts = ("-Xmx192m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1 "
                     f"-Djava.security.krb5.conf={self.kafka['krb5_conf']}")
        scram = self.kafka["scram"]

        def etc(host_root, name):
            return os.path.join(host_root, "etc", "flafka", name)

        def host_vars(host, host_root, lines, placed):
            common = [
                f"kafka_ssl_truststore_location: {json.dumps(etc(host_root, 'truststore.p12'))}",
                f"kafka_secrets_file: {json.dumps(etc(host_root, 'kafka-secrets.properties'))}",
                self.vault_string("flafka_agent_kafka_ssl_truststore_password", self.kafka["truststore"]["password"]),
                f"flafka_agent_java_opts: {json.dumps(java_opts)}",
                "flafka_agent_secret_files:",
                f"  - dest: {json.dumps(etc(host_root, 'truststore.p12'))}",
                f"    src: {json.dumps(truststore)}",
            ] + [f"  - dest: {json.dumps(dest)}\n    src: {json.dumps(src)}" for dest, src in placed]
            path = os.path.join(self.inventory, "host_vars", f"{host}.yml")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write("---\n" + "\n".join(lines + common) + "\n")

        site_root = {s: os.path.join(self.root, "sites", s) for s in SITES}
        tls = self.kafka["keystores"]["syslog-ae01"]
        self.tls_port = free_port()
        host_vars("edge-ae01-1.test", site_root["ae01"], [
            "kafka_security_protocol: SASL_SSL",
            "kafka_sasl_mechanism: SCRAM-SHA-512",
            "kafka_sasl_username: edge-ae01",
            self.vault_string("flafka_agent_kafka_sasl_password", scram["edge-ae01"]),
            "edge_listeners: [udp, tcp, tls]",
            f"edge_tls_port: {self.tls_port}",
            f"edge_tls_keystore: {json.dumps(etc(site_root['ae01'], 'syslog-keystore.p12'))}",
            self.vault_string("flafka_agent_edge_tls_keystore_password", tls["password"]),
        ], [(etc(site_root["ae01"], "syslog-keystore.p12"), self.vault_file(tls["path"], "syslog-ae01.p12"))])
        keytab = etc(site_root["ae02"], "kafka.keytab")
        host_vars("edge-ae02-1.test", site_root["ae02"], [
            "kafka_security_protocol: SASL_SSL",
            "kafka_sasl_mechanism: GSSAPI",
            f"kafka_sasl_kerberos_service_name: {self.kafka['service_name']}",
            f"kafka_kerberos_principal: edge-ae02@{self.kafka['realm']}",
            f"kafka_kerberos_keytab: {json.dumps(keytab)}",
        ], [(keytab, self.vault_file(self.kafka["keytabs"]["edge-ae02"], "edge-ae02.keytab"))])
        client = self.kafka["keystores"]["edge-ae03"]
        keystore = etc(site_root["ae03"], "keystore.p12")
        host_vars("edge-ae03-1.test", site_root["ae03"], [
            f"kafka_bootstrap_servers: {self.kafka['ssl']}",
            "kafka_security_protocol: SSL",
            f"kafka_ssl_keystore_location: {json.dumps(keystore)}",
            self.vault_string("flafka_agent_kafka_ssl_keystore_password", client["password"]),
        ], [(keystore, self.vault_file(client["path"], "edge-ae03.p12"))])
        core_root = os.path.join(self.root, "core", CORE)
        admin_config = etc(core_root, "admin-client.properties")
        admin_truststore = etc(core_root, "admin-truststore.p12")
        command_config = "\n".join([
            "security.protocol=SASL_SSL",
            "sasl.mechanism=SCRAM-SHA-512",
            "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
            f"username=\"flafka-admin\" password=\"{scram['flafka-admin']}\";",
            f"ssl.truststore.location={admin_truststore}",
            "ssl.truststore.type=PKCS12",
            f"ssl.truststore.password={self.kafka['truststore']['password']}", ""])
        host_vars(f"{CORE}.test", core_root, [
            "kafka_security_protocol: SASL_SSL",
            "kafka_sasl_mechanism: SCRAM-SHA-512",
            "kafka_sasl_username: core-dc1",
            self.vault_string("flafka_agent_kafka_sasl_password", scram["core-dc1"]),
            f"flafka_kafka_topic_command_config: {json.dumps(admin_config)}",
            self.vault_string("vault_flafka_admin_client_properties", command_config),
            "flafka_kafka_topic_secret_files:",
            f"  - dest: {json.dumps(admin_config)}",
            "    content: \"{{ vault_flafka_admin_client_properties }}\"",
            "    mode: \"0600\"",
            f"  - dest: {json.dumps(admin_truststore)}",
            f"    src: {json.dumps(truststore)}",
        ], [])
        self.paths = {"configs": [os.path.join(site_root[s], "etc", "flafka", "edge.properties") for s in SITES]
                      + [etc(core_root, "core.properties")],
                      "envs": [os.path.join(site_root[s], "etc", "flafka", "edge.env") for s in SITES]
                      + [etc(core_root, "core.env")],
                      "secret_files": [etc(site_root[s], "truststore.p12") for s in SITES]
                      + [etc(site_root["ae01"], "syslog-keystore.p12"), keytab, keystore,
                         etc(core_root, "truststore.p12"), admin_truststore]
                      + [etc(root, "kafka-secrets.properties") for root in list(site_root.values()) + [core_root]],
                      "command_config": admin_config}
        self.site_root = site_root

    def playbook(self, *extra, expect_success=True):
        self.run_number += 1
        output_file = os.path.join(self.work, f"run{self.run_number}.log")
        env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(ANSIBLE_DIR, "ansible.cfg"), ANSIBLE_NOCOLOR="1",
                   ANSIBLE_FORKS="4")
        started = time.time()
        with open(output_file, "w", encoding="utf-8") as out:
            result = subprocess.run([ANSIBLE_PLAYBOOK, "-i", os.path.join(self.inventory, "hosts.yml"),
                                     "--vault-password-file", self.vault_password_file,
                                     # one batch: the batch gate is rollout_test.py's subject, not this test's
                                     "-e", '{"flafka_rollout_batches": [3]}',
                                     os.path.join(ANSIBLE_DIR, "site.yml"), *extra],
                                    cwd=ANSIBLE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
        output = open(output_file, encoding="utf-8").read()
        log(f"run {self.run_number} {' '.join(extra)}: exit {result.returncode} in {time.time() - started:.0f} s "
            f"({output_file})")
        if expect_success:
            check(result.returncode == 0, f"ansible-playbook run {self.run_number} failed; see {output_file}")
        recap = {host: {"changed": int(changed), "failed": int(failed)}
                 for host, _, changed, _, failed in RECAP.findall(output)}
        return result.returncode, output, recap

    def pid(self, site):
        with open(os.path.join(self.site_root[site], "run", "flafka", "edge.pid"), encoding="utf-8") as f:
            pid = int(f.read().strip())
        os.kill(pid, 0)
        return pid

    def stop_agents(self):
        for env_file in glob.glob(os.path.join(self.root, "sites", "*", "etc", "flafka", "edge.env")):
            if os.path.exists(env_file.replace("etc/flafka/edge.env", "run/flafka/edge.pid")):
                subprocess.run([os.path.join(self.home, "bin", "flafka-agentctl"), "stop", env_file],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def find_secrets(self, text, where):
        for name, secret in self.secrets.items():
            for form in encodings(secret):
                check(form not in text, f"{name} is in {where}")

    # --- steps ---------------------------------------------------------------------------------------------------

    def first_run(self):
        _, output, recap = self.playbook("-vvv", "--diff")
        for host in [f"edge-{s}-1.test" for s in SITES] + [f"{CORE}.test"]:
            check(host in recap and recap[host]["failed"] == 0, f"{host} missing or failed in the recap of run 1")
        create = output.index("TASK [flafka_kafka_topic : Create topic syslog]")
        check(f"changed: [{CORE}.test]" in output[create:output.index("TASK [", create + 1)],
              "run 1 did not create the topic over SASL_SSL with the admin's command config")
        self.find_secrets(output, f"the output of ansible-playbook -vvv --diff ({self.work}/run1.log)")
        log(f"run 1: {len(SITES)} secure sites and the core rolled out; no secret in its output ({len(output)} chars)")

    def syslog_reaches_kafka(self):
        for site in SITES:
            port = self.base_port + 2 * SITES.index(site)
            with socket.create_connection(("127.0.0.1", port), timeout=10) as tcp:
                tcp.sendall("".join(f"<134>Nov 21 07:00:1{n} router-{site} securetest: tcp n={n} for={site}\n"
                                    for n in range(3)).encode())
        # the listener's certificate is from the test's CA: this checks the listener, not the certificate
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with socket.create_connection(("127.0.0.1", self.tls_port), timeout=10) as raw, \
                context.wrap_socket(raw) as tls:
            tls.sendall("".join(f"<134>Nov 21 07:00:2{n} router-ae01 securetest: tls n={n} for=ae01-tls\n"
                                for n in range(3)).encode())
        expected = 3 * len(SITES) + 3
        consumer = subprocess.run(
            ["java", "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
             "-cp", f"{self.home}/tools/lib/*:{self.home}/lib/*",
             f"-Dlog4j2.configurationFile={self.home}/conf/log4j2.xml",
             "org.apache.kafka.tools.consumer.ConsoleConsumer", "--bootstrap-server", self.kafka["bootstrap"],
             "--topic", "syslog", "--from-beginning", "--max-messages", str(expected), "--timeout-ms", "90000"],
            capture_output=True, text=True, timeout=180, check=False)
        received = {}
        for line in consumer.stdout.splitlines():
            body = re.search(r"for=(\S+)$", line)
            if body:
                received[body.group(1)] = received.get(body.group(1), 0) + 1
        check(received == dict({s: 3 for s in SITES}, **{"ae01-tls": 3}),
              f"expected 3 messages per secure site and 3 over TLS to ae01 in Kafka, got {received}; see the agent "
              f"logs under "
              f"{self.root}/sites/*/var/log; consumer stderr: {consumer.stderr[-800:]}")
        log(f"syslog reached Kafka through SCRAM (ae01, also over its TLS listener), GSSAPI (ae02) and SSL (ae03): "
            f"{received}")

    def file_modes(self):
        def mode_of(path):
            info = os.stat(path)
            check(info.st_uid == os.getuid(), f"{path} is owned by uid {info.st_uid}, not the agents' {os.getuid()}")
            return stat.S_IMODE(info.st_mode)

        for path in self.paths["secret_files"]:
            check(mode_of(path) == 0o400, f"{path} has mode {mode_of(path):04o}, expected 0400")
        check(mode_of(self.paths["command_config"]) == 0o600,
              f"{self.paths['command_config']} has mode {mode_of(self.paths['command_config']):04o}, expected 0600")
        for path in self.paths["configs"] + self.paths["envs"]:
            check(mode_of(path) == 0o640, f"{path} has mode {mode_of(path):04o}, expected 0640")
        passwords = {name: s for name, s in self.secrets.items() if isinstance(s, str)}
        for path in self.paths["configs"] + self.paths["envs"]:
            text = open(path, encoding="utf-8").read()
            for name, secret in passwords.items():
                check(secret not in text, f"{name} is rendered into {path}")
        secrets_file = os.path.join(self.site_root["ae01"], "etc", "flafka", "kafka-secrets.properties")
        held = open(secrets_file, encoding="utf-8").read()
        check(f"sasl.password={self.kafka['scram']['edge-ae01']}\n" in held,
              f"{secrets_file} does not hold ae01's SCRAM password as sasl.password")
        check(f"syslog.tls.keystore.password={self.kafka['keystores']['syslog-ae01']['password']}\n" in held,
              f"{secrets_file} does not hold ae01's TLS listener's key store password as syslog.tls.keystore.password")
        log(f"modes: {len(self.paths['secret_files'])} secret files 0400, the admin's command config 0600, "
            f"{len(self.paths['configs']) + len(self.paths['envs'])} rendered files 0640; no password rendered")

    def no_secret_in_logs_or_processes(self):
        logs = glob.glob(os.path.join(self.root, "sites", "*", "var", "log", "flafka", "*", "*"))
        check(logs, f"no agent logs under {self.root}/sites")
        for path in logs:
            self.find_secrets(open(path, encoding="utf-8", errors="replace").read(), f"agent log {path}")
        agents = [self.pid(s) for s in SITES]
        processes = subprocess.run(["ps", "-e", "-ww", "-o", "pid=,args="], capture_output=True, text=True,
                                   check=True).stdout
        self.find_secrets(processes, "the process list (ps -e -ww -o args)")
        for pid in agents:
            check(f"{pid} " in processes, f"agent pid {pid} missing from the process list")
            with open(f"/proc/{pid}/environ", "rb") as f:
                self.find_secrets(f.read().decode(errors="replace"), f"the environment of agent process {pid}")
        log(f"no secret in {len(logs)} agent log files, the command lines of {len(processes.splitlines())} processes "
            f"or the agents' environments")

    def second_run_changes_nothing(self):
        pids = {s: self.pid(s) for s in SITES}
        _, output, recap = self.playbook("-v")
        changed = {host: r["changed"] for host, r in recap.items() if r["changed"]}
        check(not changed, f"second run changed hosts (changed=N): {changed}")
        check({s: self.pid(s) for s in SITES} == pids, "an agent restarted in a run that changed nothing")
        self.find_secrets(output, f"the output of the second run ({self.work}/run2.log)")
        log("run 2: changed=0, no agent restarted")

    def broken_secrets_fail_clearly(self):
        host = "edge-ae01-1.test"
        code, output, recap = self.playbook("--limit", host, "-e", '{"flafka_agent_kafka_sasl_password": ""}',
                                            expect_success=False)
        check(code != 0 and recap.get(host, {}).get("failed") == 1, f"{host} did not fail without its SCRAM password")
        check("sasl.password" in output and "flafka_agent_kafka_sasl_password" in output,
              f"the failure does not name sasl.password and its variable; see {self.work}/run{self.run_number}.log")
        log("run 3: an empty SCRAM password fails the host, naming flafka_agent_kafka_sasl_password")
        code, output, recap = self.playbook("--limit", host, "-e",
                                            '{"flafka_agent_edge_tls_keystore_password": ""}', expect_success=False)
        check(code != 0 and recap.get(host, {}).get("failed") == 1,
              f"{host} did not fail without its TLS listener's key store password")
        check("syslog.tls.keystore.password" in output and "is empty: flafka_agent_edge_tls_keystore_password" in output,
              f"the failure does not name syslog.tls.keystore.password and its variable; see "
              f"{self.work}/run{self.run_number}.log")
        log(f"run {self.run_number}: an empty TLS listener password fails the host, naming flafka_agent_edge_tls_keystore_password")
        code, output, recap = self.playbook("--limit", host, "-e", '{"edge_tls_keystore_password": "old"}',
                                            expect_success=False)
        check(code != 0 and recap.get(host, {}).get("failed") == 1,
              f"{host} did not fail with the retired edge_tls_keystore_password set")
        check("edge_tls_keystore_password is no longer read" in output
              and "rename it to flafka_agent_edge_tls_keystore_password" in output,
              f"the failure does not say what replaces edge_tls_keystore_password; see "
              f"{self.work}/run{self.run_number}.log")
        log(f"run {self.run_number}: the retired edge_tls_keystore_password fails the host, naming its replacement")
        missing_dir = os.path.join(self.work, "no-such-dir", "kafka.keytab")
        code, output, recap = self.playbook("--limit", host, "-e", json.dumps(
            {"flafka_agent_secret_files": [{"dest": missing_dir, "content": "not a secret"}]}), expect_success=False)
        check(code != 0 and recap.get(host, {}).get("failed") == 1, f"{host} did not fail to place {missing_dir}")
        check(f"Could not place the secret files ['{missing_dir}']" in output and "directory must exist" in output,
              f"the failure does not name the file and what to check; see {self.work}/run{self.run_number}.log")
        log(f"run {self.run_number}: a secret file whose directory is missing fails the host, naming {missing_dir}")

    def run(self):
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        os.makedirs(self.work)
        self.start_broker()
        self.generate_inventory()
        try:
            self.first_run()
            self.syslog_reaches_kafka()
            self.file_modes()
            self.no_secret_in_logs_or_processes()
            self.second_run_changes_nothing()
            self.broken_secrets_fail_clearly()
        finally:
            self.stop_agents()
            if self.broker:
                self.broker.stdin.close()
                try:
                    self.broker.wait(60)
                except subprocess.TimeoutExpired:
                    self.broker.kill()


def main(argv):
    parser = argparse.ArgumentParser(description="Secure Ansible rollout test (see the module docstring)")
    parser.add_argument("--archive", required=True)
    parser.add_argument("--stack-classpath", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args(argv[1:])
    for tool in (ANSIBLE_PLAYBOOK, ANSIBLE_VAULT):
        if not os.access(tool, os.X_OK):
            print(f"secure rollout test: {tool} not found: run scripts/setup (installs ansible/requirements.txt "
                  f"into .venv/ansible)", file=sys.stderr)
            return 1
    started = time.time()
    try:
        SecureRollout(args).run()
    except TestFailure as failure:
        print(f"secure rollout test FAILED: {failure}", file=sys.stderr)
        return 1
    log(f"secure rollout test passed in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
