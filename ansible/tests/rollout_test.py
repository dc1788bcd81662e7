#!/usr/bin/env python3
"""Rollout test: real ansible-playbook runs of site.yml against simulated sites on this machine.

Run by `./mvnw verify` (agents/dist, exec-maven-plugin at integration-test) with the archive it just built:

  rollout_test.py --archive flafka-agent-V.tar.gz --stack-classpath FILE --runtime-classpath FILE --work DIR
                  [--sites 120] [--start 3]

What it proves, each step failing the test if it does not hold:
  0. ansible-lint passes with the production profile (ansible/.ansible-lint);
  1. the archive's lib/ is exactly agents/runtime's classpath, and the plugins are in plugins.d/flafka/lib;
  2. site.yml on the generated inventory (regions -> sites, local connection, every site in its own directory and
     on its own ports) renders the edge config of every site and starts the sample sites' agents from the unpacked
     archive; the Kafka topic is created with Kafka's TopicCommand from the archive;
  3. syslog sent over UDP and TCP to each started site arrives in Kafka with that site's `site` header (Kafka's
     ConsoleConsumer from the archive, print.headers=true);
  4. a run without a change to a host's inputs changes nothing on it (changed=0 on every host);
  5. changing one region's variable changes only that region's hosts and restarts only its agents, inside its batch
     (4 and 5 share a run: the other hosts show 4 in it, a run limited to the region then shows it for the region);
  6. a broken config fails the first batch's health check and the rollout stops there: no later host is touched.
Needs Ansible from ansible/requirements.txt in .venv/ansible (scripts/setup installs it), java, a free loopback.
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ANSIBLE_DIR = os.path.join(REPO, "ansible")
ANSIBLE_PLAYBOOK = os.path.join(REPO, ".venv", "ansible", "bin", "ansible-playbook")
ANSIBLE_LINT = os.path.join(REPO, ".venv", "ansible", "bin", "ansible-lint")
RECAP = re.compile(r"^(\S+)\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)
REGION_PREFIXES = ["ae", "aw", "ew", "ec", "an", "as"]


class TestFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)


def log(message):
    print(f"[rollout-test {time.strftime('%H:%M:%S')}] {message}", flush=True)


def site_names(count):
    per_region = 20
    names = []
    for index in range(count):
        names.append(f"{REGION_PREFIXES[index // per_region]}{index % per_region + 1:02d}")
    return names


def free_base_port(sites, started):
    """A base port whose ports for the started sites (syslog UDP+TCP, metrics) are free on 127.0.0.1."""
    for _ in range(50):
        base = random.randrange(20000, 50000 - 2 * sites, 2)
        ports = [base + 2 * i for i in started] + [base + 2 * i + 1 for i in started]
        try:
            for port in ports:
                for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
                    with socket.socket(socket.AF_INET, kind) as probe:
                        probe.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
    raise TestFailure("no free port range on 127.0.0.1 for the started sites")


class Rollout:
    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.work)
        self.root = os.path.join(self.work, "root")
        self.inventory = os.path.join(self.work, "inventory")
        self.version = re.match(r"flafka-agent-(.+)\.tar\.gz$", os.path.basename(args.archive)).group(1)
        self.home = os.path.join(self.root, "opt", f"flafka-agent-{self.version}")
        self.sites = site_names(args.sites)
        # The first site of the first regions; edge.yml orders hosts by name, so ae01 is the first batch's only host
        self.started_index = [i * 20 for i in range(min(args.start, len(REGION_PREFIXES))) if i * 20 < args.sites]
        self.started = [self.sites[i] for i in self.started_index]
        self.broker = None
        self.kafka = None
        self.run_number = 0

    # --- parts ---------------------------------------------------------------------------------------------------

    def start_broker(self):
        classpath = open(self.args.stack_classpath, encoding="utf-8").read().strip()
        ready = os.path.join(self.work, "kafka.ready")
        log_file = open(os.path.join(self.work, "kafka.log"), "w", encoding="utf-8")
        self.broker = subprocess.Popen(
            ["java", "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath,
             "org.flafka.stack.KafkaBrokerMain", "--dir", os.path.join(self.work, "kafka"), "--ready-file", ready,
             "--exit-with-parent"], stdin=subprocess.PIPE, stdout=log_file, stderr=subprocess.STDOUT)
        deadline = time.time() + 180
        while not (os.path.exists(ready) and open(ready, encoding="utf-8").read().strip()):
            check(self.broker.poll() is None, f"Kafka broker exited with {self.broker.returncode}; see {log_file.name}")
            check(time.time() < deadline, f"Kafka broker not ready after 180 s; see {log_file.name}")
            time.sleep(0.5)
        self.kafka = open(ready, encoding="utf-8").read().strip()
        log(f"Kafka broker at {self.kafka}")

    def generate_inventory(self, base_port):
        subprocess.run([sys.executable, os.path.join(ANSIBLE_DIR, "inventories", "generate.py"), self.inventory,
                        "--test", self.root, "--base-port", str(base_port), "--kafka", self.kafka,
                        "--archive", self.args.archive, "--version", self.version,
                        "--start", ",".join(self.started), "--sites", str(len(self.sites))], check=True)

    def playbook(self, *extra, expect_success=True):
        self.run_number += 1
        output_file = os.path.join(self.work, f"run{self.run_number}.log")
        env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(ANSIBLE_DIR, "ansible.cfg"), ANSIBLE_NOCOLOR="1",
                   ANSIBLE_FORKS=str(self.args.forks))
        started = time.time()
        with open(output_file, "w", encoding="utf-8") as out:
            result = subprocess.run([ANSIBLE_PLAYBOOK, "-i", os.path.join(self.inventory, "hosts.yml"),
                                     os.path.join(ANSIBLE_DIR, "site.yml"), *extra],
                                    cwd=ANSIBLE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
        output = open(output_file, encoding="utf-8").read()
        log(f"run {self.run_number} {' '.join(extra)}: exit {result.returncode} in {time.time() - started:.0f} s "
            f"({output_file})")
        if expect_success:
            check(result.returncode == 0, f"ansible-playbook run {self.run_number} failed; see {output_file}")
        recap = {host: {"ok": int(ok), "changed": int(changed), "unreachable": int(unreachable), "failed": int(failed)}
                 for host, ok, changed, unreachable, failed in RECAP.findall(output)}
        return result.returncode, output, recap

    def config_file(self, site):
        return os.path.join(self.root, "sites", site, "etc", "flafka", "edge.properties")

    def pid(self, site):
        with open(os.path.join(self.root, "sites", site, "run", "flafka", "edge.pid"), encoding="utf-8") as f:
            pid = int(f.read().strip())
        os.kill(pid, 0)  # raises if the agent is not running
        return pid

    def port(self, site):
        return self.args.base_port + 2 * self.sites.index(site)

    def stop_agents(self):
        for env_file in glob.glob(os.path.join(self.root, "sites", "*", "etc", "flafka", "edge.env")):
            if os.path.exists(env_file.replace("etc/flafka/edge.env", "run/flafka/edge.pid")):
                subprocess.run([os.path.join(self.home, "bin", "flafka-agentctl"), "stop", env_file],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    # --- steps ---------------------------------------------------------------------------------------------------

    def check_archive_layout(self):
        listing = subprocess.run(["tar", "tzf", self.args.archive], check=True, capture_output=True, text=True).stdout
        top = f"flafka-agent-{self.version}/"
        lib = sorted(os.path.basename(n) for n in listing.split() if re.match(re.escape(top) + r"lib/[^/]+\.jar$", n))
        runtime = sorted(os.path.basename(p) for p in
                         open(self.args.runtime_classpath, encoding="utf-8").read().strip().split(os.pathsep))
        check(lib == runtime, f"archive lib/ differs from agents/runtime's classpath: only in archive "
                              f"{sorted(set(lib) - set(runtime))}, only in runtime {sorted(set(runtime) - set(lib))}")
        for plugin in ("flafka-plugin-config", "flafka-contract", "flafka-interceptors", "flafka-partitioner", "flafka-edge",
                       "flafka-core"):
            check(f"{top}plugins.d/flafka/lib/{plugin}-{self.version}.jar" in listing,
                  f"{plugin} missing from plugins.d/flafka/lib/ in {self.args.archive}")
        for path in ("bin/flafka-agent", "bin/flafka-agentctl", "systemd/flafka-agent@.service", "conf/log4j2.xml",
                     "templates/edge.properties.j2", "templates/edge-defaults.yml", "templates/core.properties.j2",
                     "templates/core-defaults.yml", "tools/lib/kafka-tools-"):
            check(top + path in listing or any(n.startswith(top + path) for n in listing.split()),
                  f"{path} missing from {self.args.archive}")
        log(f"archive layout ok: lib/ = agents/runtime classpath ({len(lib)} jars), plugins in plugins.d/flafka/lib")

    def lint(self):
        result = subprocess.run([ANSIBLE_LINT, "--nocolor"], cwd=ANSIBLE_DIR, capture_output=True, text=True,
                                check=False)
        check(result.returncode == 0, f"ansible-lint (production profile) failed:\n{result.stdout}{result.stderr}")
        log("ansible-lint --profile production: passed")

    def first_run(self):
        code, output, recap = self.playbook()
        hosts = [f"edge-{s}-1.test" for s in self.sites]
        for host in hosts:
            check(host in recap and recap[host]["failed"] == 0, f"{host} missing or failed in the recap of run 1")
        for site in self.sites:
            text = open(self.config_file(site), encoding="utf-8").read()
            check(f"edge.sources.syslog_udp.interceptors.syslog.site = {site}\n" in text,
                  f"{self.config_file(site)} does not carry site {site}")
            check(f"edge.sources.syslog_tcp.port = {self.port(site)}\n" in text,
                  f"{self.config_file(site)} does not listen on its port {self.port(site)}")
        for site in self.started:
            self.pid(site)
            # Each agent's disk buffer under its own root: agents sharing one would replay each other's events
            check(os.path.isdir(os.path.join(self.root, "sites", site, "var", "lib", "flafka", "edge", "ch0", "buffer")),
                  f"site {site}'s disk buffer is not under its own edge_data_dir")
        not_started = [s for s in self.sites if s not in self.started]
        check(not any(os.path.exists(os.path.join(self.root, "sites", s, "run", "flafka", "edge.pid"))
                      for s in not_started), "an agent was started on a site with flafka_agent_start: false")
        check(re.search(r"TASK \[flafka_kafka_topic : Create topic syslog\][^\n]*\n+changed: ", output),
              "run 1 did not create the topic with TopicCommand")
        log(f"run 1: {len(self.sites)} configs rendered, agents running on {', '.join(self.started)}")

    def syslog_reaches_kafka(self):
        per_site = 4
        for site in self.started:
            port = self.port(site)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                for n in range(per_site):
                    udp.sendto(f"<134>Nov 21 07:00:0{n} router-{site} rolltest: udp n={n} for={site}".encode(),
                               ("127.0.0.1", port))
            with socket.create_connection(("127.0.0.1", port), timeout=10) as tcp:
                tcp.sendall("".join(f"<134>Nov 21 07:00:1{n} router-{site} rolltest: tcp n={n} for={site}\n"
                                    for n in range(per_site)).encode())
        expected = 2 * per_site * len(self.started)
        consumer = subprocess.run(
            ["java", "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
             "-cp", f"{self.home}/tools/lib/*:{self.home}/lib/*",
             f"-Dlog4j2.configurationFile={self.home}/conf/log4j2.xml",
             "org.apache.kafka.tools.consumer.ConsoleConsumer", "--bootstrap-server", self.kafka, "--topic", "syslog",
             "--from-beginning", "--max-messages", str(expected), "--timeout-ms", "90000",
             "--property", "print.headers=true", "--property", "headers.separator=|"],
            capture_output=True, text=True, timeout=180, check=False)
        received = {}
        for line in consumer.stdout.splitlines():
            body = re.search(r"for=(\S+)$", line)
            header = re.search(r"(?:^|\|)site:([^|\t]+)", line)
            if body:
                check(header and header.group(1) == body.group(1),
                      f"message for site {body.group(1)} arrived with site header "
                      f"{header.group(1) if header else None}: {line}")
                received[body.group(1)] = received.get(body.group(1), 0) + 1
        check(received == {s: 2 * per_site for s in self.started},
              f"expected {2 * per_site} messages per started site in Kafka, got {received}; "
              f"consumer stderr: {consumer.stderr[-800:]}; consumer stdout begins: {consumer.stdout[:1500]}")
        log(f"syslog over UDP and TCP reached Kafka with the right site header: {received}")

    def changes_nothing(self, recap, hosts, run):
        check(set(recap) == set(hosts), f"run {run} recap: hosts missing {sorted(set(hosts) - set(recap))}, "
                                        f"unexpected {sorted(set(recap) - set(hosts))}")
        changed = {host: r["changed"] for host, r in recap.items() if r["changed"]}
        check(not changed, f"run {run} changed hosts whose inputs did not change (changed=N): {changed}")

    def rerun_and_region_change(self):
        """Every host re-run without a change to its inputs reports changed=0, and a change to one region's variable
        changes and restarts only that region, inside its batch. One full run shows both: the region's variable changed,
        every other host (edge, core, topic admin) must report changed=0; a run limited to the region then shows its
        hosts unchanged too. Two full runs, one for each, would re-check every host outside the region twice."""
        hosts = [f"edge-{s}-1.test" for s in self.sites] + ["core-dc1-01.test"]
        region, prefix = "region_amer_west", "aw"
        region_hosts = [h for h in hosts if h.startswith(f"edge-{prefix}")]
        if not region_hosts:
            _, _, recap = self.playbook()
            self.changes_nothing(recap, hosts, 2)
            log(f"run 2: changed=0 on all {len(recap)} hosts; region change skipped: fewer than 21 sites")
            return
        pids = {site: self.pid(site) for site in self.started}
        with open(os.path.join(self.inventory, "group_vars", f"{region}.yml"), "a", encoding="utf-8") as f:
            f.write("edge_max_future_millis: 7200000\n")
        _, output, recap = self.playbook()
        self.changes_nothing({h: r for h, r in recap.items() if h not in region_hosts},
                             [h for h in hosts if h not in region_hosts], 2)
        for host in region_hosts:
            check(recap.get(host, {}).get("changed", 0) > 0,
                  f"after changing {region}'s edge_max_future_millis, {host} reported {recap.get(host)}")
        for site in self.started:
            restarted = self.pid(site) != pids[site]
            check(restarted == site.startswith(prefix),
                  f"agent of {site} {'was' if restarted else 'was not'} restarted by a change to {region}")
        # The restart ran inside the batch of its host: between that batch's play header and the next one
        restarted_site = next(s for s in self.started if s.startswith(prefix))
        batches = [m.start() for m in re.finditer(r"^PLAY \[Roll out edge agents\]", output, re.M)]

        def batch_of(position):
            return sum(1 for b in batches if b < position)

        handler_header = output.index("RUNNING HANDLER [flafka_agent : Restart the agent process (test mode)]",
                                      output.index(f"changed: [edge-{restarted_site}-1.test]"))
        handler = output.index(f"changed: [edge-{restarted_site}-1.test]", handler_header)
        first_change = output.index(f"changed: [edge-{restarted_site}-1.test]")
        check(batch_of(handler) == batch_of(first_change),
              f"{restarted_site}'s agent restarted in batch {batch_of(handler)}, after its config changed in batch "
              f"{batch_of(first_change)}")
        batch = batch_of(handler)
        changed_batches = sorted({batch_of(m.start())
                                  for m in re.finditer(r"^changed: \[edge-" + prefix, output, re.M)})
        log(f"run 2: changed=0 on the {len(recap) - len(region_hosts)} hosts outside {region}; only its "
            f"{len(region_hosts)} hosts changed (in batches {changed_batches} of {len(batches)}), its agent restarted "
            f"inside batch {batch}, other agents kept their pids")
        _, _, recap = self.playbook("--limit", region)
        self.changes_nothing(recap, region_hosts, 3)
        log(f"run 3 (--limit {region}): changed=0 on its {len(recap)} hosts")

    def broken_config_stops_first_batch(self):
        first = self.sites[0]
        others = self.sites[1:]
        before = {s: os.stat(self.config_file(s)).st_mtime_ns for s in others}
        code, output, recap = self.playbook("-e", json.dumps({"edge_source_batch_size": 0,
                                                              "flafka_agent_health_check_retries": 10}),
                                            expect_success=False)
        check(code != 0, "a rollout with edge_source_batch_size=0 succeeded")
        check(recap.get(f"edge-{first}-1.test", {}).get("failed") == 1,
              f"the first batch's host edge-{first}-1.test did not fail: {recap.get(f'edge-{first}-1.test')}")
        check(f"Agent edge on edge-{first}-1.test is not healthy" in output,
              "the failure is not the health check's message")
        touched = [h for h in recap if h.startswith("edge-") and h != f"edge-{first}-1.test"]
        check(not touched, f"hosts after the failed first batch were touched: {touched}")
        check(all(os.stat(self.config_file(s)).st_mtime_ns == before[s] for s in others),
              "a later site's config file changed after the first batch failed")
        check("edge.sources.syslog_tcp.batchSize = 0\n" in open(self.config_file(first), encoding="utf-8").read(),
              "the first site did not get the broken config")
        log(f"run {self.run_number}: broken config failed edge-{first}-1.test's health check; no other edge host "
            f"touched")

    def run(self):
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        os.makedirs(self.work)
        self.check_archive_layout()
        self.lint()
        self.start_broker()
        self.args.base_port = free_base_port(len(self.sites), self.started_index)
        self.generate_inventory(self.args.base_port)
        try:
            self.first_run()
            self.syslog_reaches_kafka()
            self.rerun_and_region_change()
            self.broken_config_stops_first_batch()
        finally:
            self.stop_agents()
            if self.broker:
                self.broker.stdin.close()
                try:
                    self.broker.wait(60)
                except subprocess.TimeoutExpired:
                    self.broker.kill()


def main(argv):
    parser = argparse.ArgumentParser(description="Ansible rollout test (see the module docstring)")
    parser.add_argument("--archive", required=True)
    parser.add_argument("--stack-classpath", required=True)
    parser.add_argument("--runtime-classpath", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sites", type=int, default=int(os.environ.get("FLAFKA_ROLLOUT_SITES", "120")))
    parser.add_argument("--start", type=int, default=3, help="sites whose agents start (first of each region)")
    parser.add_argument("--forks", type=int, default=8)
    args = parser.parse_args(argv[1:])
    if not os.access(ANSIBLE_PLAYBOOK, os.X_OK):
        print(f"rollout test: {ANSIBLE_PLAYBOOK} not found: run scripts/setup (installs ansible/requirements.txt "
              f"into .venv/ansible)", file=sys.stderr)
        return 1
    started = time.time()
    try:
        Rollout(args).run()
    except TestFailure as failure:
        print(f"rollout test FAILED: {failure}", file=sys.stderr)
        return 1
    log(f"rollout test passed in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
