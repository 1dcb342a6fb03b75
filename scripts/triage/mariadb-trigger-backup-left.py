"""Independent check of a MariaDB DDL-log race (see corpus/mariadb/MARIADB-trigger-backup-left.md):
a CREATE TRIGGER on a table that already has triggers copies its `.TRG` file to `.TRG-` and
deletes the copy once it succeeded, unless other sessions' DDL reused its DDL-log entry in
between; the copy then stays, and DROP DATABASE fails with errno 39 ("Directory not empty").

THREADS sessions (threads: the server's timing, not the client's, makes the race) each loop
until SECONDS are over: CREATE DATABASE, TABLES tables each with three row triggers (as txhunt's
instrumentation makes them), a look for `*.TRG-` in the database's directory after every CREATE
TRIGGER that succeeded, DROP DATABASE. Plain PyMySQL (`pip install pymysql`), no txhunt.

Usage: start a private server with `txhunt server mariadb` on this machine (the script reads
the server's `@@datadir`), then
    python3 scripts/triage/mariadb-trigger-backup-left.py PORT THREADS SECONDS [TABLES]
Its databases are named `trgcheck_*`; those whose DROP failed are left for you to look at.
Exit status 1 when a backup was left."""
import glob, os, sys, threading, time, pymysql

TRIGGERS = [
    ("ai", "INSERT", "JSON_ARRAY('i', NEW.txh_rid, NEW.txh_ver)"),
    ("au", "UPDATE", "JSON_ARRAY('u', NEW.txh_rid, OLD.txh_ver, NEW.txh_ver)"),
    ("ad", "DELETE", "JSON_ARRAY('d', OLD.txh_rid, OLD.txh_ver)"),
]


def connect(port):
    return pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True)


def session(port, datadir, number, tables, stop, hits, done):
    """One session's loop; appends (database, trigger, files) to `hits`."""
    cur = connect(port).cursor()
    n = 0
    while time.time() < stop:
        db = f"trgcheck_{os.getpid()}_{number}_{n}"
        n += 1
        cur.execute(f"CREATE DATABASE {db}")
        cur.execute(f"USE {db}")
        seen = set()
        for t in (f"t{k}" for k in range(tables)):
            cur.execute(f"CREATE TABLE {t} (c0 INT PRIMARY KEY, c1 INT, txh_rid BIGINT, txh_ver BIGINT)")
            for short, event, image in TRIGGERS:
                cur.execute(
                    f"CREATE TRIGGER txh_{short}_{t} AFTER {event} ON {t} FOR EACH ROW "
                    f"SET @txh_log = CONCAT(COALESCE(@txh_log, ''), {image}, ',')"
                )
                left = set(glob.glob(os.path.join(datadir, db, "*.TRG-"))) - seen
                if left:
                    seen |= left
                    hits.append((db, f"txh_{short}_{t}", sorted(os.path.basename(f) for f in left)))
        try:
            cur.execute(f"DROP DATABASE {db}")
        except pymysql.MySQLError as e:
            print(f"DROP DATABASE {db} failed: {e}", flush=True)
        done[number] = n


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    port, threads, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    tables = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    cur = connect(port).cursor()
    cur.execute("SELECT @@datadir, VERSION()")
    datadir, version = cur.fetchone()
    stop = time.time() + seconds
    hits, done = [], [0] * threads
    workers = [
        threading.Thread(target=session, args=(port, datadir, i, tables, stop, hits, done))
        for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for db, trigger, files in hits:
        print(f"{db}: {', '.join(files)} left once CREATE TRIGGER {trigger} had succeeded")
    print(f"{version}: {sum(done)} databases, {len(hits)} backups left")
    sys.exit(1 if hits else 0)


if __name__ == "__main__":
    main()
