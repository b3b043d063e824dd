#!/usr/bin/env python3
"""The crash soak's driver (run through scripts/crash-soak, which builds the binary and loads the
CPU): runs `stratus` writers — atomic saves, deletes, line imports, bulk writes (`demo`) — kills
each with SIGKILL at a random moment, and after each round checks the store from the outside, as a
user would:

  * playback from no token in pages of 400 and `query --all` list the same records, with the same
    change tags and fields, each once;
  * what is there is the state before the round plus a whole number of its transactions, in order:
    every atomic batch wholly present or wholly absent, nothing lost, a writer that finished has
    all of its batches in;
  * the deletions played back are exactly the names deleted (and not saved again);
  * a second playback from the final token is empty;
  * SQLite's `PRAGMA integrity_check` says ok.

Stores are made anew every few rounds, so the first write of many goes into an empty store,
where imports and bulk writes put their pages straight into the file under a rollback journal.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

ZONE = "Bulk"
TYPE = "Item"
PAGE = 400
DEMO_ZONES = ["Travel", "People", "Library"]


class SoakFailure(Exception):
    pass


class Soak:
    def __init__(self, args):
        self.bin = args.bin
        self.work = args.work
        self.rng = random.Random(args.seed)
        self.kill_goal = args.kills
        self.deadline = time.time() + args.seconds if args.seconds else None
        self.names = args.names
        self.demo_records = args.demo_records
        self.mix = args.mix
        # --through-wrapper: each writer runs under a shell, and the kill reaches the shell only.
        self.wrapper = args.through_wrapper
        self.check_at_once = args.check_at_once
        self.stats = {"rounds": 0, "kills": 0, "finished": 0, "killed_before_any": 0, "killed_between": 0,
                      "killed_after_all": 0, "cycles": 0, "in_place_first_writes": 0, "outlived_wrapper": 0}
        self.by_kind = {}
        # How long each kind of writer takes when it is not killed (seconds), to time kills.
        self.took = {"save": 0.6, "delete": 0.4, "import": 0.8, "demo": 2.0}
        self.run_number = 0
        self.startup = 0.3
        self.demo_reference = None

    # MARK: running stratus

    def stratus(self, args, store, ok=True, timeout=300):
        started = time.time()
        result = subprocess.run([self.bin] + args + ["--store", store], capture_output=True, text=True, timeout=timeout)
        if args[0] in ("changes", "token"):
            # How long a process takes to start, open the store and read a little, as the load is now.
            self.startup = 0.8 * self.startup + 0.2 * (time.time() - started)
        if ok and result.returncode != 0:
            raise SoakFailure(f"stratus {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()[:2000]}")
        return result

    def writer(self, args, store, kind):
        """Runs a writer, killing it after a random delay; returns (killed, stderr)."""
        estimate, startup = self.took[kind], self.startup
        # A quarter of the kills fall while the process starts (often before the store is open),
        # the rest while it writes: from most of a start-up on to a little past its usual end.
        if self.rng.random() < 0.25:
            delay = self.rng.uniform(0, startup)
        else:
            delay = startup * 0.8 + self.rng.uniform(0, max(estimate - startup * 0.8, 0.05) * 1.15)
        started = time.time()
        command = [self.bin] + args + ["--store", store]
        if self.wrapper:
            # A shell that does not exec its command (as `sh -c 'stratus ...; ...'`, a script, or a
            # tool that runs the binary as a child): killing it leaves the writer writing.
            command = ["sh", "-c", '"$0" "$@"; exit $?'] + command
        # Standard error goes to a file: a pipe would keep this soak waiting for a writer that
        # outlives its wrapper (the writer holds the pipe open).
        with tempfile.TemporaryFile(mode="w+") as error_file:
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=error_file, stdin=subprocess.DEVNULL,
                                       text=True, start_new_session=self.wrapper)
            try:
                process.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
            process.wait(timeout=600)
            error_file.seek(0)
            errors = error_file.read()
        killed = process.returncode == -signal.SIGKILL
        if self.wrapper and killed:
            if self.writers_left(process.pid):
                self.stats["outlived_wrapper"] += 1
                if not self.check_at_once:
                    # Check the store as it is once nothing writes any more: what a kill of the
                    # writer itself leaves.
                    while self.writers_left(process.pid):
                        time.sleep(0.02)
            return killed, errors
        if killed:
            # Kills that land after the writer's work seem to come too late: pull them in a little.
            self.took[kind] = max(0.05, self.took[kind] * 1.08)
        elif process.returncode == 0:
            self.took[kind] = 0.7 * self.took[kind] + 0.3 * (time.time() - started)
        else:
            raise SoakFailure(f"the {kind} writer failed ({process.returncode}): {errors.strip()[:2000]}")
        return killed, errors

    @staticmethod
    def writers_left(session):
        """Whether a process of the wrapper's session (its writer) still runs."""
        try:
            os.killpg(session, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        # A finished writer is a zombie until init reaps it: not writing.
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rsplit(")", 1)[1].split()
                except (FileNotFoundError, ProcessLookupError, IndexError):
                    continue
                if int(fields[3]) == session and fields[0] != "Z":
                    return True
        return False

    # MARK: what the store shows

    def playback(self, store, zone, since=None):
        """Plays `zone` back in pages of 400: ({name: record json}, [deleted names], token, pages);
        None when the zone does not exist."""
        changed, deleted, token, pages = {}, [], since, 0
        while True:
            args = ["changes", "--zone", zone, "--limit", str(PAGE), "--json"] + (["--since", token] if token else [])
            result = self.stratus(args, store, ok=False)
            if result.returncode != 0:
                # A writer killed before it made a new store leaves no store: nothing was written.
                if "zoneNotFound" in result.stderr or "does not exist" in result.stderr or "No store at" in result.stderr:
                    return None
                raise SoakFailure(f"playback failed: {result.stderr.strip()}")
            page = json.loads(result.stdout)
            pages += 1
            for item in page["records"]:
                name = item["recordName"]
                if name in changed or name in deleted:
                    raise SoakFailure(f"playback of {zone} lists {name} twice")
                if item.get("deleted"):
                    deleted.append(name)
                else:
                    changed[name] = item
            token = page["syncToken"]
            if not page.get("moreComing"):
                return changed, deleted, token, pages

    def query(self, store, zone, record_type):
        result = self.stratus(["query", "--type", record_type, "--zone", zone, "--all", "--json"], store, ok=False)
        if result.returncode != 0:
            if ("Did not find record type" in result.stderr or "zoneNotFound" in result.stderr or "does not exist" in result.stderr
                    or "No store at" in result.stderr):
                return {}
            raise SoakFailure(f"query failed: {result.stderr.strip()}")
        found = {}
        for item in json.loads(result.stdout)["records"]:
            if item["recordName"] in found:
                raise SoakFailure(f"query --all of {zone} lists {item['recordName']} twice")
            found[item["recordName"]] = item
        return found

    @staticmethod
    def shape(item):
        fields = item.get("fields", {})
        return (item.get("recordType"), item.get("recordChangeTag"),
                json.dumps(fields, sort_keys=True))

    def observe(self, store, zone, types):
        """The zone as playback and query both show it, after checking they agree."""
        played = self.playback(store, zone)
        if played is None:
            return None
        changed, deleted, token, pages = played
        queried = {}
        for record_type in sorted(types | {item["recordType"] for item in changed.values()}):
            for name, item in self.query(store, zone, record_type).items():
                if name in queried:
                    raise SoakFailure(f"{name} is queried as two types")
                queried[name] = item
        if set(changed) != set(queried):
            only_played = sorted(set(changed) - set(queried))
            only_queried = sorted(set(queried) - set(changed))
            raise SoakFailure(f"zone {zone}: playback ({len(changed)} records in {pages} pages) and query --all ({len(queried)}) disagree: "
                              f"only played back {only_played[:10]} ({len(only_played)}), only queried {only_queried[:10]} ({len(only_queried)})")
        for name in changed:
            if self.shape(changed[name]) != self.shape(queried[name]):
                raise SoakFailure(f"zone {zone}: {name} played back as {self.shape(changed[name])} but queried as {self.shape(queried[name])}")
        again = self.playback(store, zone, since=token)
        if again is None or again[0] or again[1]:
            raise SoakFailure(f"zone {zone}: a second playback from the final token is not empty: {again and (list(again[0])[:5], again[1][:5])}")
        return changed, set(deleted)

    def integrity(self, store):
        result = subprocess.run(["sqlite3", "-readonly", store, "PRAGMA integrity_check"], capture_output=True, text=True, timeout=300)
        if result.returncode != 0 or result.stdout.strip() != "ok":
            raise SoakFailure(f"integrity_check: {result.stdout.strip()[:500]} {result.stderr.strip()[:500]}")

    # MARK: the model

    @staticmethod
    def fields_of(item):
        fields = item.get("fields", {})
        return (fields.get("run", {}).get("value"), fields.get("batch", {}).get("value"))

    def check_round(self, store, model, ops, killed, kind):
        """Checks the store after a round of `ops` (each one transaction, in order); returns the
        new model (name -> (run, batch); deleted names) and how many ops committed."""
        observed = self.observe(store, ZONE, {TYPE})
        self.integrity(store)
        records, deleted = ({}, set()) if observed is None else observed
        state = {name: self.fields_of(item) for name, item in records.items()}
        candidate = (dict(model[0]), set(model[1]))
        matches = []
        for applied in range(len(ops) + 1):
            if applied > 0:
                self.apply(candidate, ops[applied - 1])
            if candidate[0] == state:
                matches.append((applied, (dict(candidate[0]), set(candidate[1]))))
        if not matches:
            # Say which transaction is torn: the first op whose records are partly there.
            detail = []
            for index, op in enumerate(ops):
                if op[0] == "save":
                    there = sum(1 for name in op[2] if state.get(name) == (op[1], op[3]))
                    if 0 < there < len(op[2]):
                        detail.append(f"op {index} ({op[0]} run {op[1]} batch {op[3]}): {there} of {len(op[2])} records there")
                elif op[0] == "delete":
                    gone = sum(1 for name in op[1] if name not in state)
                    if 0 < gone < len(op[1]):
                        detail.append(f"op {index} (delete): {gone} of {len(op[1])} records gone")
            raise SoakFailure(f"round {self.stats['rounds']} ({kind}, killed: {killed}): the store is not the state after a whole number of its "
                              f"{len(ops)} transactions: {'; '.join(detail) or 'no op partly there; records differ otherwise'} "
                              f"({len(state)} records there, {len(model[0])} before)")
        applied, new_model = matches[-1]
        if not killed and applied != len(ops):
            raise SoakFailure(f"round {self.stats['rounds']} ({kind}): the writer finished but {len(ops) - applied} of its {len(ops)} transactions are missing")
        if observed is not None and deleted != new_model[1]:
            raise SoakFailure(f"round {self.stats['rounds']}: playback's deletions differ: missing {sorted(new_model[1] - deleted)[:10]}, "
                              f"extra {sorted(deleted - new_model[1])[:10]}")
        return new_model, applied

    @staticmethod
    def apply(model, op):
        records, deleted = model
        if op[0] in ("save", "import"):
            run, names, batch = op[1], op[2], op[3]
            for name in names:
                records[name] = (run, batch)
                deleted.discard(name)
        elif op[0] == "delete":
            for name in op[1]:
                records.pop(name, None)
                deleted.add(name)

    # MARK: writers

    def record_json(self, name, run, batch, importing):
        fields = {"run": {"value": run, "type": "INT64"}, "batch": {"value": batch, "type": "INT64"},
                  "payload": {"value": "x" * self.rng.randint(0, 300), "type": "STRING"}}
        record = {"recordName": name, "recordType": TYPE, "fields": fields}
        if importing:
            record["zoneID"] = {"zoneName": ZONE}
        return json.dumps(record, separators=(",", ":"))

    def save_round(self, store, model):
        self.run_number += 1
        run = self.run_number
        batches = self.rng.randint(4, 12) if self.mix == "saves" else self.rng.choice([1, 1, 2, 3, 4, 6, 10])
        live = sorted(model[0])
        pool = [f"r{k}" for k in range(self.names)]
        self.rng.shuffle(pool)
        # Some of each batch saves over live records (all-keys), some over deleted names, the rest new.
        chosen = []
        updates = self.rng.sample(live, min(len(live), self.rng.randint(0, 200 * batches)))
        chosen.extend(updates)
        seen = set(chosen)
        for name in pool:
            if len(chosen) >= 400 * (batches - 1) + self.rng.randint(1, 400):
                break
            if name not in seen:
                seen.add(name)
                chosen.append(name)
        self.rng.shuffle(chosen)
        ops, lines = [], []
        for index in range(0, len(chosen), 400):
            batch_id = index // 400
            names = chosen[index:index + 400]
            ops.append(("save", run, names, batch_id))
            lines.extend(self.record_json(name, run, batch_id, False) for name in names)
        path = os.path.join(self.work, "save.jsonl")
        with open(path, "w") as out:
            out.write("\n".join(lines) + "\n")
        return ["save", path, "--atomic", "--policy", "all-keys", "--zone", ZONE], ops

    def delete_round(self, store, model):
        live = sorted(model[0])
        if not live:
            return None
        names = self.rng.sample(live, self.rng.randint(1, min(len(live), 400)))
        return ["delete", "--atomic", "--zone", ZONE] + names, [("delete", names)]

    def import_round(self, store, model):
        self.run_number += 1
        run = self.run_number
        count = self.rng.randint(50, 3000)
        names = [f"r{k}" for k in self.rng.sample(range(self.names), min(count, self.names))]
        path = os.path.join(self.work, "import.jsonl")
        with open(path, "w") as out:
            out.write("\n".join(self.record_json(name, run, -1, True) for name in names) + "\n")
        # One transaction: the whole file or nothing.
        return ["save", "--import", path, "--zone", ZONE], [("import", run, names, -1)]

    # MARK: bulk writes (demo)

    def demo_names(self, store):
        """Per demo zone: (live names, deleted names), or None for a zone that does not exist."""
        out = {}
        for zone in DEMO_ZONES:
            played = self.playback(store, zone)
            out[zone] = None if played is None else (frozenset(played[0]), frozenset(played[1]))
        return out

    def demo_round(self, store):
        """A bulk write into an empty store (in place), killed: every demo zone is empty, filled
        (before its history of edits) or finished, all in the same phase."""
        if self.demo_reference is None:
            reference = os.path.join(self.work, "demo-reference.sqlite")
            started = time.time()
            self.stratus(["demo", "--records", str(self.demo_records), "--no-ui"], reference, timeout=900)
            self.took["demo"] = time.time() - started
            self.demo_reference = self.demo_names(reference)
            self.demo_types = self.record_types(reference)
        killed, errors = self.writer(["demo", "--records", str(self.demo_records), "--no-ui"], store, "demo")
        self.integrity_if_exists(store)
        observed = {}
        for zone in DEMO_ZONES:
            view = self.observe(store, zone, self.demo_types)
            observed[zone] = None if view is None else (frozenset(view[0]), frozenset(view[1]))
        phases = set()
        for zone in DEMO_ZONES:
            final_live, final_deleted = self.demo_reference[zone]
            seen = observed[zone]
            if seen is None or (not seen[0] and not seen[1]):
                phases.add("empty")
            elif seen == (final_live | final_deleted, frozenset()):
                phases.add("filled")
            elif seen == (final_live, final_deleted):
                phases.add("finished")
            else:
                raise SoakFailure(f"demo zone {zone} after the kill (killed: {killed}) is none of empty, filled or finished: "
                                  f"{len(seen[0])} live, {len(seen[1])} deleted (finished: {len(final_live)} live, {len(final_deleted)} deleted)")
        if len(phases) != 1:
            raise SoakFailure(f"the demo's zones are in different phases after the kill: {phases}")
        if not killed and phases != {"finished"}:
            raise SoakFailure(f"the demo finished but its zones are {phases}")
        return killed, phases.pop()

    def record_types(self, store):
        result = self.stratus(["schema", "export"], store, ok=False)
        types = set()
        for line in result.stdout.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "RECORD" and parts[1] == "TYPE":
                types.add(parts[2].strip("(").strip('"'))
        return types - {"Users"}

    def integrity_if_exists(self, store):
        if os.path.exists(store):
            # The product opens it first (a killed in-place write leaves a journal to roll back).
            self.stratus(["token", "--zone", DEMO_ZONES[0]], store, ok=False)
            self.integrity(store)

    # MARK: the loop

    def count(self, kind, killed, applied, total):
        self.stats["rounds"] += 1
        entry = self.by_kind.setdefault(kind, {"rounds": 0, "kills": 0})
        entry["rounds"] += 1
        if killed:
            self.stats["kills"] += 1
            entry["kills"] += 1
            if applied == 0:
                self.stats["killed_before_any"] += 1
            elif applied == total:
                self.stats["killed_after_all"] += 1
            else:
                self.stats["killed_between"] += 1
        else:
            self.stats["finished"] += 1

    def done(self):
        if self.stats["kills"] >= self.kill_goal:
            return True
        return self.deadline is not None and time.time() > self.deadline

    def run(self):
        started = time.time()
        while not self.done():
            self.stats["cycles"] += 1
            store = os.path.join(self.work, f"store-{self.stats['cycles']}.sqlite")
            model = ({}, set())
            first = self.rng.choice(["demo", "import", "save"] if self.mix == "all" else ["save"])
            if first == "demo":
                killed, phase = self.demo_round(store)
                self.count("demo", killed, {"empty": 0, "filled": 1, "finished": 2}[phase], 2)
                self.stats["in_place_first_writes"] += 1
            self.stratus(["zones", "create", ZONE], store)
            for round_index in range(self.rng.randint(6, 16)):
                if self.done():
                    break
                if round_index == 0 and first == "import":
                    kind = "import"
                    self.stats["in_place_first_writes"] += 1
                else:
                    kind = self.rng.choices(["save", "import", "delete"], weights=[5, 2, 2] if self.mix == "all" else [6, 0, 1])[0]
                made = {"save": self.save_round, "import": self.import_round, "delete": self.delete_round}[kind](store, model)
                if made is None:
                    kind = "save"
                    made = self.save_round(store, model)
                args, ops = made
                killed, errors = self.writer(args, store, kind)
                model, applied = self.check_round(store, model, ops, killed, kind)
                self.count(kind, killed, applied, len(ops))
                if self.stats["rounds"] % 25 == 0:
                    self.progress(started)
            # Each store is checked, then thrown away.
            for suffix in ["", "-wal", "-shm", "-journal"]:
                try:
                    os.remove(store + suffix)
                except FileNotFoundError:
                    pass
        self.progress(started)

    def progress(self, started):
        kinds = ", ".join(f"{kind} {value['kills']}/{value['rounds']}" for kind, value in sorted(self.by_kind.items()))
        print(f"crash-soak: {self.stats['kills']} kills in {self.stats['rounds']} rounds, {self.stats['cycles']} stores, "
              f"{time.time() - started:.0f} s (killed/rounds: {kinds}; killed before any commit {self.stats['killed_before_any']}, "
              f"between commits {self.stats['killed_between']}, after the last {self.stats['killed_after_all']}; "
              f"first writes into an empty store {self.stats['in_place_first_writes']}"
              + (f"; writers that outlived their killed wrapper {self.stats['outlived_wrapper']}" if self.wrapper else "") + ")", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--kills", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--names", type=int, default=4400, help="the pool of record names")
    parser.add_argument("--demo-records", type=int, default=1500)
    parser.add_argument("--mix", choices=["all", "saves"], default="all",
                        help="all: saves, deletes, imports and bulk writes; saves: the issue's test, atomic saves of 4 to 12 batches (and a few deletes)")
    parser.add_argument("--through-wrapper", action="store_true",
                        help="run each writer under a shell and kill the shell, as a test that kills a wrapper does; the writer goes on, and the store is checked once it has ended")
    parser.add_argument("--check-at-once", action="store_true",
                        help="with --through-wrapper: check the store while the writer may still be writing (expected to fail: a playback that runs while records change lists a changed record again)")
    args = parser.parse_args()
    if args.check_at_once and not args.through_wrapper:
        parser.error("--check-at-once goes with --through-wrapper")
    if args.seed is None:
        args.seed = random.randrange(1, 2**32)
    print(f"crash-soak: seed {args.seed} (replay with --seed {args.seed})", flush=True)
    soak = Soak(args)
    started = time.time()

    def stopped(number, frame):
        soak.progress(started)
        print("crash-soak: stopped before its goal; no failure so far", file=sys.stderr, flush=True)
        sys.exit(130)
    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGINT, stopped)
    try:
        soak.run()
    except SoakFailure as failure:
        soak.progress(started)
        print(f"crash-soak: FAILED: {failure}", file=sys.stderr, flush=True)
        return 1
    print(f"crash-soak: passed ({soak.stats['kills']} kills, 0 failures)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
